import type { ReactNode } from 'react';
import { CheckOutlined, DesktopOutlined, MoonOutlined, SunOutlined } from '@ant-design/icons';
import { THEMES, type Theme } from '@nimbus/contract';
import { Button } from 'antd';
import { LazyDropdown } from './LazyDropdown';
import { useTranslation } from 'react-i18next';
import { useColorScheme } from '../lib/color-scheme';
import { useSessionStore } from '../stores/session';
import { useSetTheme } from '../api/use-set-theme';

export const THEME_ICONS: Record<Theme, ReactNode> = {
  auto: <DesktopOutlined />,
  light: <SunOutlined />,
  dark: <MoonOutlined />,
};

/** Top-bar theme menu (`theme-switch`, options `theme-light` / `theme-dark` / `theme-auto`). */
export function ThemeSwitch() {
  const { t } = useTranslation();
  const theme = useSessionStore((s) => s.theme);
  const scheme = useColorScheme();
  const setTheme = useSetTheme();
  return (
    <LazyDropdown
      tip={t('theme.label')}
      menu={{
        items: THEMES.map((value) => ({
          key: value,
          icon: THEME_ICONS[value],
          label: (
            <span data-testid={`theme-${value}`} className="nb-theme-option">
              {t(`theme.${value}`)}
              {value === theme ? (
                <CheckOutlined style={{ marginInlineStart: 12, fontSize: 12 }} />
              ) : null}
            </span>
          ),
        })),
        onClick: ({ key }) => setTheme(key as Theme),
      }}
    >
      <Button
        type="text"
        icon={scheme === 'dark' ? <MoonOutlined /> : <SunOutlined />}
        aria-label={t('theme.label')}
        data-testid="theme-switch"
      />
    </LazyDropdown>
  );
}
