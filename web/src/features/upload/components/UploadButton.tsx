import { CloudUploadOutlined, FileAddOutlined, FolderAddOutlined } from '@ant-design/icons';
import { Button, Dropdown, type ButtonProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { pickFiles, pickFolder } from '../pickers';

/** The file toolbar's upload button: a menu of "Upload files" and "Upload folder". */
export function UploadButton({
  disabled,
  type = 'primary',
}: {
  disabled?: boolean;
  type?: ButtonProps['type'];
}) {
  const { t } = useTranslation('upload');
  return (
    <Dropdown
      trigger={['click']}
      disabled={disabled}
      menu={{
        items: [
          {
            key: 'files',
            icon: <FileAddOutlined />,
            label: <span data-testid="upload-menu-files">{t('actions.uploadFiles')}</span>,
          },
          {
            key: 'folder',
            icon: <FolderAddOutlined />,
            label: <span data-testid="upload-menu-folder">{t('actions.uploadFolder')}</span>,
          },
        ],
        onClick: ({ key }) => (key === 'folder' ? pickFolder() : pickFiles()),
      }}
    >
      <Button
        type={type}
        icon={<CloudUploadOutlined />}
        disabled={disabled}
        data-testid="upload-button"
        aria-label={t('actions.upload')}
      >
        <span className="nb-hide-narrow">{t('actions.upload')}</span>
      </Button>
    </Dropdown>
  );
}

export default UploadButton;
