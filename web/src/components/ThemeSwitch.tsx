import type { ReactNode } from 'react';
import { THEMES, type Theme } from '@nimbus/contract';
import { useTranslation } from 'react-i18next';
import { useSetTheme } from '../api/use-set-theme';
import { useColorScheme } from '../lib/color-scheme';
import { useSessionStore } from '../stores/session';
import { CheckIcon, DesktopIcon, MoonIcon, SunIcon } from './icons';
import { LazyDropdown } from './LazyDropdown';

export const THEME_ICONS: Record<Theme, ReactNode> = {
  auto: <DesktopIcon />,
  light: <SunIcon />,
  dark: <MoonIcon />,
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
                <span style={{ marginInlineStart: 12, fontSize: 12 }}>
                  <CheckIcon />
                </span>
              ) : null}
            </span>
          ),
        })),
        onClick: ({ key }) => setTheme(key as Theme),
      }}
    >
      <button
        type="button"
        className="nb-icon-button"
        aria-label={t('theme.label')}
        data-testid="theme-switch"
      >
        {scheme === 'dark' ? <MoonIcon /> : <SunIcon />}
      </button>
    </LazyDropdown>
  );
}
