import { useSignOut } from '../features/auth/session';
import { HistoryDialogHost } from '../features/history/components/HistoryDialogHost';
import { SearchBox } from '../features/search/components/SearchBox';
import { ShareDialogHost } from '../features/share/components/ShareDialogHost';
import { TagDialogHost } from '../features/tags/components/TagDialogHost';
import { TagList } from '../features/tags/components/TagList';
import { TaskProgressButton } from '../features/tasks/components/TaskProgressButton';
import { GlobalUploader } from '../features/upload/components/GlobalUploader';
import { MainLayout } from '../layout/MainLayout';
import { Registries } from './Registries';

/** The drive's layout route: the frame, with the features' parts in it and the registries. */
export function DriveLayout() {
  const signOut = useSignOut();
  return (
    <Registries>
      <MainLayout
        search={<SearchBox />}
        tasks={<TaskProgressButton />}
        tags={<TagList />}
        hosts={
          <>
            <GlobalUploader />
            <ShareDialogHost />
            <TagDialogHost />
            <HistoryDialogHost />
          </>
        }
        onSignOut={() => void signOut()}
      />
    </Registries>
  );
}
