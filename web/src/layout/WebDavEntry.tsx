import { CopyOutlined, HddOutlined } from '@ant-design/icons';
import { App, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { copyText } from '../lib/clipboard';

export function webDavAddress(): string {
  return `${window.location.origin}/webdav/`;
}

/** The WebDAV address with a copy action (spec §2). */
export function WebDavEntry() {
  const { t } = useTranslation('layout');
  const { message } = App.useApp();
  const address = webDavAddress();
  const copy = async () => {
    const copied = await copyText(address);
    if (copied) void message.success({ content: t('webdav.copied'), duration: 1 });
    else void message.warning({ content: t('webdav.unsupported'), duration: 2 });
  };
  return (
    <Tooltip title={t('webdav.tooltip')} placement="right">
      <button
        type="button"
        className="nb-webdav"
        data-testid="webdav-copy"
        onClick={() => void copy()}
        aria-label={t('webdav.copyAria', { address })}
      >
        <HddOutlined style={{ fontSize: 16 }} />
        <span className="nb-webdav__label">
          <strong>WebDAV</strong>
          <span className="nb-webdav__url" data-testid="webdav-url" title={address}>
            {address}
          </span>
        </span>
        <CopyOutlined />
      </button>
    </Tooltip>
  );
}
