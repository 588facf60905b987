import type { ShareFacts } from '@nimbus/contract';
import { App, Form, Input } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMountShare } from '../api';
import { DrivePicker } from './DrivePicker';

/** "Mount": choose a folder of one's own drive and the name the shared folder gets there. */
export function MountDialog({
  share,
  facts,
  open,
  onClose,
}: {
  share: string;
  facts: ShareFacts;
  open: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation('share');
  const { message } = App.useApp();
  const mount = useMountShare(share);
  const [name, setName] = useState(facts.fileName);

  const [wasOpen, setWasOpen] = useState(open);
  if (open !== wasOpen) {
    setWasOpen(open);
    if (open) setName(facts.fileName);
  }

  return (
    <DrivePicker
      open={open}
      mode="folder"
      title={t('picker.mountTitle')}
      okText={t('page.mount')}
      onCancel={onClose}
      onChoose={async (folder) => {
        const mounted = await mount.mutateAsync({
          shareId: facts.shareId,
          folderId: folder.id,
          name: name.trim() || undefined,
        });
        void message.success(t('page.mountedAs', { name: mounted.name }));
        onClose();
      }}
    >
      <Form layout="vertical" className="nb-picker__extra">
        <Form.Item label={t('picker.name')}>
          <Input
            value={name}
            onChange={(event) => setName(event.target.value)}
            data-testid="mount-name"
          />
        </Form.Item>
      </Form>
    </DrivePicker>
  );
}
