import { DownOutlined, LogoutOutlined } from '@ant-design/icons';
import { MenuType } from '@nimbus/contract';
import { Avatar, Badge, Dropdown, Tag, type MenuProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { MenuIcon } from '../components/MenuIcon';
import { useMenuTree, useUserInfo } from '../api/account';
import { useAppStore } from '../stores/app';
import { useSessionStore } from '../stores/session';
import { avatarColor, avatarUrl } from '../lib/avatar';
import { externalTarget, menuLabel, menusOfType } from '../lib/menus';

/** User name and avatar dropdown: menuType 4 items, then logout (spec §2 top bar). */
export function UserMenu({ onSignOut }: { onSignOut: () => void }) {
  const { t } = useTranslation('layout');
  const { data: user } = useUserInfo();
  const { data: tree } = useMenuTree();
  const username = useSessionStore((s) => s.username);
  const isMobile = useAppStore((s) => s.device === 'mobile');
  const displayName = user?.showName || user?.username || username;
  const hasNewVersion = Boolean(user?.newVersion);

  const items: MenuProps['items'] = (() => {
    const avatarItems = menusOfType(tree ?? [], MenuType.AVATAR).map((node) => {
      const external = externalTarget(node);
      const label = menuLabel(node);
      const badge =
        hasNewVersion && node.path === '/setting/cloudManager' ? (
          <Tag color="red" style={{ marginInlineStart: 8 }}>
            {t('newVersion')}
          </Tag>
        ) : null;
      return {
        key: node.id,
        icon: <MenuIcon menu={node} />,
        label: external ? (
          <a
            href={external}
            target="_blank"
            rel="noopener noreferrer"
            data-testid={`avatar-menu-${node.id}`}
          >
            {label}
          </a>
        ) : (
          <Link to={node.path ?? '/'} data-testid={`avatar-menu-${node.id}`}>
            {label}
            {badge}
          </Link>
        ),
      };
    });
    return [
      {
        key: 'profile',
        type: 'group' as const,
        label: (
          <div style={{ padding: '2px 0' }}>
            <div style={{ fontWeight: 600, color: 'var(--nb-text)' }}>{displayName}</div>
            {user?.username && user.username !== displayName ? (
              <div style={{ fontSize: 12 }}>@{user.username}</div>
            ) : null}
          </div>
        ),
      },
      ...(avatarItems.length ? [{ type: 'divider' as const, key: 'd1' }, ...avatarItems] : []),
      { type: 'divider' as const, key: 'd2' },
      {
        key: 'logout',
        icon: <LogoutOutlined />,
        danger: true,
        label: <span data-testid="logout">{t('logout')}</span>,
        onClick: onSignOut,
      },
    ];
  })();

  return (
    <Dropdown trigger={['click']} menu={{ items }} placement="bottomRight">
      <button type="button" className="nb-user" data-testid="user-menu" aria-label={t('userMenu')}>
        {!isMobile ? (
          <span className="nb-user__name" data-testid="user-name">
            {displayName}
          </span>
        ) : null}
        <Badge dot={hasNewVersion} offset={[-2, 2]}>
          <Avatar
            size={30}
            src={avatarUrl(user?.avatar)}
            style={{ background: avatarColor(displayName || '?'), fontSize: 14 }}
          >
            {(displayName || '?').slice(0, 1).toUpperCase()}
          </Avatar>
        </Badge>
        {!isMobile ? <DownOutlined style={{ fontSize: 10, color: 'var(--nb-text-3)' }} /> : null}
      </button>
    </Dropdown>
  );
}
