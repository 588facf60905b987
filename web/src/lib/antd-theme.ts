import { theme as antdTheme, type ThemeConfig } from 'antd';
import { BRAND_COLOR, type ColorScheme } from './theme';

/** antd's theme for a colour scheme: the drive's colours, radius and fonts (spec §1). */
export function antdThemeFor(scheme: ColorScheme): ThemeConfig {
  const dark = scheme === 'dark';
  return {
    algorithm: dark ? antdTheme.darkAlgorithm : antdTheme.defaultAlgorithm,
    token: {
      colorPrimary: BRAND_COLOR,
      colorInfo: BRAND_COLOR,
      borderRadius: 8,
      fontFamily:
        "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'PingFang SC', 'Hiragino Sans GB', 'Microsoft YaHei', 'Noto Sans CJK SC', sans-serif",
      colorBgLayout: dark ? '#0f1115' : '#f4f6fb',
      ...(dark
        ? {
            colorBgContainer: '#15181e',
            colorBgElevated: '#1d2129',
            colorBorderSecondary: '#262a33',
            colorBorder: '#363b46',
          }
        : { colorBorderSecondary: '#e9ecf3' }),
    },
    components: {
      Layout: {
        siderBg: dark ? '#15181e' : '#ffffff',
        headerBg: dark ? '#15181e' : '#ffffff',
        headerHeight: 56,
        headerPadding: '0 16px',
        bodyBg: dark ? '#0f1115' : '#f4f6fb',
      },
      Menu: {
        itemBg: 'transparent',
        subMenuItemBg: 'transparent',
        itemBorderRadius: 8,
        itemMarginInline: 8,
        itemHeight: 40,
        activeBarBorderWidth: 0,
      },
    },
  };
}
