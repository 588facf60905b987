import { LockOutlined } from '@ant-design/icons';
import { quotaPercent, SHOW_NAME_MAX_LENGTH, type UserInfo } from '@nimbus/contract';
import { useQueryClient } from '@tanstack/react-query';
import { App, Avatar, Button, Card, Form, Input, Modal, Progress, Space, Tag } from 'antd';
import { useState } from 'react';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/client';
import { AccessEndsNotice } from '../../../components/AccessEndsNotice';
import { ImageInput } from '../../../components/ImageInput';
import { PageHeader } from '../../../components/PageHeader';
import { useSaving } from '../../../components/use-saving';
import { quotaColor, quotaParts } from '../../../lib/quota';
import { avatarColor, avatarUrl } from '../../../lib/avatar';
import { authKeys, useUserInfo } from '../../../api/account';
import { NewPasswordFields } from '../../../components/NewPasswordFields';
import {
  clearAvatar,
  uploadAvatar,
  useChangePassword,
  useUpdateProfile,
  validOldPassword,
} from '../api';
import { AccessTokensSection } from '../components/AccessTokensSection';
import { TwoFactorSection } from '../components/TwoFactorSection';
import { AppearanceForm } from '../components/AppearanceForm';

function ProfileCard({ user }: { user: UserInfo }) {
  const { t } = useTranslation('settings');
  const queryClient = useQueryClient();
  const { message } = App.useApp();
  const { saving, save } = useSaving();
  const updateProfile = useUpdateProfile();
  const percent = quotaPercent(user.takeUpSpace, user.quota);
  const name = user.showName || user.username;
  const [picking, setPicking] = useState(false);
  const setAvatar = (avatar: string | null) =>
    queryClient.setQueryData<UserInfo>(authKeys.userInfo, (info) =>
      info ? { ...info, avatar: avatar ?? undefined } : info,
    );

  const onFinish = ({ showName }: { showName: string }) =>
    save(async () => {
      await updateProfile.mutateAsync({ id: user.id, showName: showName.trim() });
      void message.success(t('profile.saved'));
    });

  return (
    <Card title={t('profile.title')} data-testid="profile-card">
      <div style={{ display: 'flex', alignItems: 'center', gap: 16, marginBottom: 20 }}>
        <Avatar
          size={56}
          src={avatarUrl(user.avatar)}
          style={{ background: avatarColor(name), fontSize: 22 }}
        >
          {name.slice(0, 1).toUpperCase()}
        </Avatar>
        <div style={{ minWidth: 0, flex: 1 }}>
          <div style={{ fontSize: 16, fontWeight: 600 }}>{name}</div>
          <div style={{ color: 'var(--nb-text-2)' }}>
            @{user.username}
            {user.creator ? (
              <Tag color="blue" style={{ marginInlineStart: 8 }}>
                {t('profile.owner')}
              </Tag>
            ) : null}
          </div>
          <Space size={4} wrap style={{ marginTop: 4 }}>
            <Button size="small" data-testid="avatar-change" onClick={() => setPicking(true)}>
              {t('profile.avatar.change')}
            </Button>
            {user.avatar ? (
              <Button
                size="small"
                type="text"
                data-testid="avatar-clear"
                onClick={() =>
                  void clearAvatar().then(() => {
                    setAvatar(null);
                    void message.success(t('profile.saved'));
                  })
                }
              >
                {t('profile.avatar.clear')}
              </Button>
            ) : null}
          </Space>
        </div>
      </div>
      <Modal
        open={picking}
        title={t('profile.avatar.title')}
        footer={null}
        destroyOnHidden
        onCancel={() => setPicking(false)}
      >
        <ImageInput
          upload={async (file, onProgress) => {
            const id = await uploadAvatar(file, onProgress);
            setAvatar(id);
            setPicking(false);
            void message.success(t('profile.saved'));
          }}
        />
      </Modal>
      <dl className="nb-kv" style={{ marginBottom: 20 }}>
        <dt>{t('profile.storage')}</dt>
        <dd>
          <Progress percent={percent} strokeColor={quotaColor(percent)} size="small" />
          <span style={{ color: 'var(--nb-text-2)', fontSize: 12 }}>
            {t('profile.storageUsed', quotaParts(user.takeUpSpace, user.quota))}
          </span>
        </dd>
        {user.createTime ? (
          <>
            <dt>{t('profile.memberSince')}</dt>
            <dd>{dayjs(user.createTime).format('YYYY-MM-DD')}</dd>
          </>
        ) : null}
      </dl>
      <Form<{ showName: string }>
        layout="vertical"
        initialValues={{ showName: user.showName }}
        onFinish={(v) => void onFinish(v)}
      >
        <Form.Item
          name="showName"
          label={t('profile.showName')}
          rules={[
            { required: true, whitespace: true, message: t('profile.showNameRequired') },
            {
              max: SHOW_NAME_MAX_LENGTH,
              message: t('profile.showNameMax', { max: SHOW_NAME_MAX_LENGTH }),
            },
          ]}
        >
          <Input data-testid="profile-show-name" maxLength={SHOW_NAME_MAX_LENGTH} />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={saving} data-testid="profile-save">
          {t('actions.save')}
        </Button>
      </Form>
    </Card>
  );
}

interface PasswordValues {
  oldPassword: string;
  password: string;
  confirm: string;
}

function PasswordCard({ user }: { user: UserInfo }) {
  const { t } = useTranslation('settings');
  const { t: tErrors } = useTranslation('errors');
  const { message } = App.useApp();
  const [form] = Form.useForm<PasswordValues>();
  const { saving, save } = useSaving();
  const changePassword = useChangePassword();
  // a right current password: the change waits for the confirmation of what it ends
  const [confirming, setConfirming] = useState<PasswordValues | null>(null);

  const onFinish = (values: PasswordValues) =>
    save(async () => {
      try {
        await validOldPassword({ id: user.id, password: values.oldPassword });
      } catch (error) {
        if (error instanceof ApiError && error.kind === 'business') {
          // code 22: too many wrong guesses, the password was not checked
          const reason = error.code === 22 ? tErrors('22') : t('password.oldWrong');
          form.setFields([{ name: 'oldPassword', errors: [reason] }]);
          return;
        }
        throw error;
      }
      setConfirming(values);
    });

  const change = (values: PasswordValues) =>
    save(async () => {
      await changePassword.mutateAsync({
        id: user.id,
        oldPassword: values.oldPassword,
        password: values.password,
      });
      setConfirming(null);
      form.resetFields();
      void message.success(t('password.changed'));
    });

  return (
    <Card title={t('password.title')} data-testid="password-card">
      <Form form={form} layout="vertical" onFinish={(v) => void onFinish(v)} requiredMark={false}>
        <Form.Item
          name="oldPassword"
          label={t('password.old')}
          rules={[{ required: true, message: t('password.oldRequired') }]}
        >
          <Input.Password
            prefix={<LockOutlined />}
            autoComplete="current-password"
            data-testid="password-old"
          />
        </Form.Item>
        <NewPasswordFields
          passwordLabel={t('password.new')}
          confirmLabel={t('password.confirm')}
          testIds={{ password: 'password-new', confirm: 'password-confirm' }}
        />
        <Button type="primary" htmlType="submit" loading={saving} data-testid="password-save">
          {t('password.submit')}
        </Button>
      </Form>
      <Modal
        open={confirming !== null}
        title={t('password.confirmTitle')}
        okText={t('password.submit')}
        okButtonProps={{ 'data-testid': 'password-confirm-ok' }}
        confirmLoading={saving}
        onOk={() => confirming && void change(confirming)}
        onCancel={() => setConfirming(null)}
        destroyOnHidden
      >
        <AccessEndsNotice />
        <p>{t('password.confirmLead')}</p>
      </Modal>
    </Card>
  );
}

/** /setting/user: profile, password, theme and language. */
export function UserSettingsPage() {
  const { t } = useTranslation('settings');
  const { data: user } = useUserInfo();
  if (!user) return null;
  return (
    <div className="nb-page" data-testid="user-settings">
      <PageHeader title={t('user.title')} subtitle={t('user.subtitle')} />
      <div className="nb-settings-grid">
        <ProfileCard user={user} />
        <div style={{ display: 'grid', gap: 16 }}>
          <Card title={t('appearance.title')} data-testid="appearance-card">
            <AppearanceForm />
          </Card>
          <PasswordCard user={user} />
        </div>
        <TwoFactorSection user={user} />
        <AccessTokensSection />
      </div>
    </div>
  );
}
