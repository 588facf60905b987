import { Outlet } from 'react-router';
import { AntdProviders } from '../components/AntdProviders';
import { AudioPlayerHost } from '../features/media/components/AudioPlayerHost';

/** The layout route of every page but the sign-in page: antd, and the audio player's host. */
export function AntdLayout() {
  return (
    <AntdProviders>
      <Outlet />
      <AudioPlayerHost />
    </AntdProviders>
  );
}
