import {
  CopyOutlined,
  DeleteOutlined,
  LinkOutlined,
  LockOutlined,
  ShareAltOutlined,
} from '@ant-design/icons';
import {
  DEFAULT_SHARE_DAYS,
  SHORT_ID_MAX_LENGTH,
  SHORT_ID_PATTERN,
  type FileItem,
  type ShareOperation,
  type ShareView,
} from '@nimbus/contract';
import { useQuery } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  Checkbox,
  DatePicker,
  Form,
  Input,
  Modal,
  Popconfirm,
  QRCode,
  Radio,
  Space,
  Spin,
  Switch,
  Tooltip,
  Typography,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/client';
import { copyText } from '../../../lib/clipboard';
import { FileIcon } from '../../../components/FileIcon';
import { folderHasShares, shareKeys, shareOfFile, useCancelShares, useSaveShare } from '../api';
import { shareLink, shareLinkWithCode } from '../links';
import '../share.css';

/** What is being shared. */
export type ShareTarget = Pick<FileItem, 'id' | 'name' | 'isFolder'> &
  Partial<Pick<FileItem, 'suffix'>>;

type ExpiryMode = 'days' | 'forever' | 'custom';

interface FormState {
  expiry: ExpiryMode;
  date: Dayjs | null;
  isPrivacy: boolean;
  shortId: string;
  allowDownload: boolean;
  operations: ShareOperation[];
}

const DEFAULTS: FormState = {
  expiry: 'days',
  date: null,
  isPrivacy: false,
  shortId: '',
  allowDownload: true,
  operations: [],
};

function stateOf(share: ShareView | null): FormState {
  if (!share) return DEFAULTS;
  return {
    expiry: share.expiresAt === null ? 'forever' : 'custom',
    date: share.expiresAt === null ? null : dayjs(share.expiresAt),
    isPrivacy: share.isPrivacy,
    shortId: share.shortId,
    allowDownload: share.allowDownload,
    operations: share.operationPermissionList,
  };
}

/**
 * The share dialog (API-NOTES §3): expiry, public or private, the address, downloads, what
 * visitors of a private folder may do; then the link, its code and QR code, copy and cancel.
 * Inside a shared folder the options are that folder's and cannot be changed here.
 */
export function ShareDialog({
  target,
  onClose,
}: {
  target: ShareTarget | null;
  onClose: () => void;
}) {
  const { t } = useTranslation(['share', 'common']);
  const { message, modal } = App.useApp();
  const saving = useSaveShare();
  const cancelling = useCancelShares();
  const fileId = target?.id ?? '';
  const info = useQuery({
    queryKey: shareKeys.byFile(fileId),
    queryFn: ({ signal }) => shareOfFile(fileId, signal),
    enabled: Boolean(target),
    staleTime: 0,
  });
  const containsShares = useQuery({
    queryKey: shareKeys.folderHasShares(fileId),
    queryFn: ({ signal }) => folderHasShares(fileId, signal),
    enabled: Boolean(target?.isFolder),
    staleTime: 0,
  });
  const share = info.data?.share ?? null;
  const parent = info.data?.parent ?? null;
  // an item inside a shared folder takes that folder's settings
  const inherited = share?.subShare ? share : parent;
  const locked = Boolean(inherited);
  const [form, setForm] = useState<FormState>(DEFAULTS);
  const [addressError, setAddressError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  // the form starts from what the server says, each time it answers anew
  const [shown, setShown] = useState(info.data);
  if (info.data !== shown) {
    setShown(info.data);
    if (info.data) {
      setForm(stateOf(info.data.share ?? info.data.parent));
      setAddressError(null);
    }
  }

  const set = <K extends keyof FormState>(key: K, value: FormState[K]) =>
    setForm((current) => ({ ...current, [key]: value }));

  const link = share ? shareLink(share.shortId) : '';
  const code = share?.isPrivacy ? share.extractionCode : null;

  const copy = async (text: string) => {
    if (await copyText(text)) void message.success({ content: t('common:copied'), duration: 1 });
    else void message.error(t('common:copyUnsupported'));
  };

  const validate = (): boolean => {
    const address = form.shortId.trim();
    if (address && (!SHORT_ID_PATTERN.test(address) || address.length > SHORT_ID_MAX_LENGTH)) {
      setAddressError(t('dialog.addressPattern'));
      return false;
    }
    setAddressError(null);
    if (form.expiry === 'custom' && !locked) {
      if (!form.date) {
        void message.error(t('dialog.dateRequired'));
        return false;
      }
      if (form.date.valueOf() <= Date.now()) {
        void message.error(t('dialog.datePast'));
        return false;
      }
    }
    return true;
  };

  const save = async () => {
    if (!target || !validate()) return;
    setBusy(true);
    try {
      await saving.mutateAsync({
        fileId: target.id,
        isFolder: target.isFolder,
        shortId: form.shortId.trim() || null,
        isPrivacy: form.isPrivacy,
        allowDownload: form.allowDownload,
        operationPermissionList: form.isPrivacy && target.isFolder ? form.operations : [],
        ...(form.expiry === 'days'
          ? { expireDays: DEFAULT_SHARE_DAYS }
          : form.expiry === 'forever'
            ? { expireDate: null }
            : { expireDate: form.date!.valueOf() }),
      });
      void message.success(t(share ? 'dialog.saved' : 'dialog.created'));
    } catch (error) {
      if (error instanceof ApiError && error.code === 4) setAddressError(error.message);
    } finally {
      setBusy(false);
    }
  };

  const submit = () => {
    if (!share && target?.isFolder && containsShares.data) {
      modal.confirm({
        title: t('dialog.containsSharesTitle'),
        content: t('dialog.containsShares'),
        okText: t('dialog.continue'),
        cancelText: t('common:actions.cancel'),
        okButtonProps: { 'data-testid': 'share-contains-confirm' },
        onOk: save,
      });
      return;
    }
    void save();
  };

  const cancel = async () => {
    if (!share || !target) return;
    await cancelling.mutateAsync([share.shareId]);
    void message.success(t('dialog.cancelled'));
  };

  const expiryText = useMemo(() => {
    if (!share) return '';
    if (share.expired) return t('dialog.expired');
    return share.expireDate
      ? t('dialog.expiresAt', { date: share.expireDate.slice(0, 16) })
      : t('dialog.neverExpires');
  }, [share, t]);

  return (
    <Modal
      open={Boolean(target)}
      onCancel={onClose}
      width={640}
      destroyOnHidden
      title={
        target ? (
          <span className="nb-dialog-title">
            <FileIcon
              item={{ name: target.name, suffix: target.suffix ?? '', isFolder: target.isFolder }}
              size={22}
            />
            <span className="nb-share-dialog__name">
              {t('dialog.title', { name: target.name })}
            </span>
          </span>
        ) : null
      }
      footer={
        <div className="nb-share-dialog__footer">
          {share ? (
            <Popconfirm
              title={t('dialog.cancelConfirm')}
              okText={t('dialog.cancelShare')}
              cancelText={t('common:actions.cancel')}
              okButtonProps={{ danger: true, 'data-testid': 'share-cancel-confirm' }}
              onConfirm={cancel}
            >
              <Button danger icon={<DeleteOutlined />} data-testid="share-cancel">
                {t('dialog.cancelShare')}
              </Button>
            </Popconfirm>
          ) : (
            <span />
          )}
          <Space wrap>
            {share && code ? (
              <Button
                icon={<LockOutlined />}
                onClick={() => void copy(shareLinkWithCode(share.shortId, code, t))}
                data-testid="share-copy-with-code"
              >
                {t('dialog.copyWithCode')}
              </Button>
            ) : null}
            {share ? (
              <Button
                icon={<CopyOutlined />}
                onClick={() => void copy(link)}
                data-testid="share-copy-link"
              >
                {t('dialog.copyLink')}
              </Button>
            ) : null}
            <Button
              type="primary"
              icon={<ShareAltOutlined />}
              loading={busy}
              disabled={!info.data}
              onClick={submit}
              data-testid="share-submit"
            >
              {share ? t('dialog.update') : t('dialog.create')}
            </Button>
          </Space>
        </div>
      }
    >
      <div data-testid="share-dialog" data-shared={share ? 'true' : 'false'}>
        {info.isPending ? (
          <div className="nb-share-dialog__loading">
            <Spin />
          </div>
        ) : info.isError ? (
          <Alert type="error" showIcon title={t('dialog.loadFailed')} />
        ) : (
          <>
            {inherited ? (
              <Alert
                type="info"
                showIcon
                className="nb-share-dialog__notice"
                data-testid="share-sub-notice"
                title={t('dialog.subShare', {
                  name: inherited.subShare && parent ? parent.fileName : inherited.fileName,
                })}
              />
            ) : null}
            {share ? (
              <div className="nb-share-dialog__result" data-testid="share-result">
                <div className="nb-share-dialog__result-text">
                  <Typography.Text type="secondary">{t('dialog.link')}</Typography.Text>
                  <Input
                    readOnly
                    value={link}
                    prefix={<LinkOutlined />}
                    data-testid="share-link"
                    onFocus={(event) => event.target.select()}
                  />
                  {code ? (
                    <div className="nb-share-dialog__code">
                      <Typography.Text type="secondary">{t('dialog.code')}</Typography.Text>
                      <Typography.Text
                        strong
                        copyable={{ text: code }}
                        className="nb-mono"
                        data-testid="share-code"
                      >
                        {code}
                      </Typography.Text>
                    </div>
                  ) : null}
                  <Typography.Text
                    type={share.expired ? 'danger' : 'secondary'}
                    data-testid="share-expiry-text"
                  >
                    {expiryText} ·{' '}
                    {t('dialog.stats', { views: share.views, downloads: share.downloads })}
                  </Typography.Text>
                </div>
                <Tooltip title={t('dialog.qr')}>
                  <div data-testid="share-qr">
                    <QRCode
                      value={code ? shareLink(share.shortId, code) : link}
                      size={112}
                      bordered={false}
                    />
                  </div>
                </Tooltip>
              </div>
            ) : null}
            <Form
              layout="horizontal"
              labelCol={{ flex: '128px' }}
              labelWrap
              colon={false}
              disabled={locked}
              className="nb-share-dialog__form"
            >
              <Form.Item label={t('dialog.expiry')}>
                <Space wrap>
                  <Radio.Group
                    value={form.expiry}
                    onChange={(event) => set('expiry', event.target.value as ExpiryMode)}
                    optionType="button"
                    options={[
                      {
                        value: 'days',
                        label: <span data-testid="share-expiry-days">{t('dialog.expiry30')}</span>,
                      },
                      {
                        value: 'forever',
                        label: (
                          <span data-testid="share-expiry-forever">
                            {t('dialog.expiryForever')}
                          </span>
                        ),
                      },
                      {
                        value: 'custom',
                        label: (
                          <span data-testid="share-expiry-custom">{t('dialog.expiryCustom')}</span>
                        ),
                      },
                    ]}
                  />
                  {form.expiry === 'custom' ? (
                    <DatePicker
                      showTime={{ format: 'HH:mm' }}
                      format="YYYY-MM-DD HH:mm"
                      value={form.date}
                      onChange={(value) => set('date', value)}
                      disabledDate={(day) => day.endOf('day').valueOf() < Date.now()}
                      placeholder={t('dialog.pickDate')}
                      data-testid="share-date"
                    />
                  ) : null}
                </Space>
              </Form.Item>
              <Form.Item
                label={t('dialog.type')}
                extra={form.isPrivacy ? t('dialog.privateHint') : t('dialog.publicHint')}
              >
                <Radio.Group
                  value={form.isPrivacy ? 'private' : 'public'}
                  onChange={(event) => set('isPrivacy', event.target.value === 'private')}
                  options={[
                    {
                      value: 'public',
                      label: <span data-testid="share-type-public">{t('dialog.public')}</span>,
                    },
                    {
                      value: 'private',
                      label: <span data-testid="share-type-private">{t('dialog.private')}</span>,
                    },
                  ]}
                />
              </Form.Item>
              <Form.Item
                label={t('dialog.address')}
                validateStatus={addressError ? 'error' : undefined}
                help={addressError ?? undefined}
              >
                <Space.Compact block>
                  <Space.Addon className="nb-share-dialog__prefix">
                    <span dir="ltr">{shareLink('')}</span>
                  </Space.Addon>
                  <Input
                    value={form.shortId}
                    maxLength={SHORT_ID_MAX_LENGTH}
                    placeholder={t('dialog.addressPlaceholder')}
                    onChange={(event) => {
                      set('shortId', event.target.value);
                      setAddressError(null);
                    }}
                    disabled={false}
                    data-testid="share-address"
                  />
                </Space.Compact>
              </Form.Item>
              <Form.Item label={t('dialog.allowDownload')}>
                <Switch
                  checked={form.allowDownload}
                  onChange={(checked) => set('allowDownload', checked)}
                  data-testid="share-allow-download"
                />
              </Form.Item>
              {target?.isFolder && form.isPrivacy ? (
                <Form.Item label={t('dialog.permissions')} extra={t('dialog.permissionsHint')}>
                  <Checkbox.Group
                    value={form.operations}
                    onChange={(values) => set('operations', values as ShareOperation[])}
                    options={[
                      {
                        value: 'UPLOAD',
                        label: <span data-testid="share-perm-UPLOAD">{t('dialog.upload')}</span>,
                      },
                      {
                        value: 'PUT',
                        label: <span data-testid="share-perm-PUT">{t('dialog.edit')}</span>,
                      },
                      {
                        value: 'DELETE',
                        label: <span data-testid="share-perm-DELETE">{t('dialog.delete')}</span>,
                      },
                    ]}
                  />
                </Form.Item>
              ) : null}
            </Form>
          </>
        )}
      </div>
    </Modal>
  );
}
