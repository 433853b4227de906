import { theme as antdTheme, type ThemeConfig } from 'antd';

export type ThemeMode = 'light' | 'dark';

const STORAGE_KEY = 'chatos.theme';

/** The user's last choice, else the system's `prefers-color-scheme`. */
export function initialThemeMode(): ThemeMode {
  const stored = localStorage.getItem(STORAGE_KEY);
  if (stored === 'light' || stored === 'dark') return stored;
  return window.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

export function rememberThemeMode(mode: ThemeMode): void {
  localStorage.setItem(STORAGE_KEY, mode);
}

/** The system asks for less motion (an accessibility setting; the browser tests ask for it too, so a click never lands on a list still opening). */
export function prefersReducedMotion(): boolean {
  return window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
}

/** The antd theme for a mode; one place for the brand tokens. `reducedMotion`: antd's opening, closing and sliding animations are off. */
export function themeConfig(mode: ThemeMode, reducedMotion = false, fontSize = 14): ThemeConfig {
  return {
    algorithm: mode === 'dark' ? antdTheme.darkAlgorithm : antdTheme.defaultAlgorithm,
    token: {
      motion: !reducedMotion,
      // The user's font size (Settings): antd derives its other sizes from this one.
      fontSize,
      colorPrimary: '#3b6ef5',
      borderRadius: 8,
      fontFamily:
        "-apple-system, BlinkMacSystemFont, 'Segoe UI', 'PingFang SC', 'Hiragino Sans GB', 'Microsoft YaHei', 'Noto Sans CJK SC', 'Noto Sans SC', Roboto, 'Helvetica Neue', Arial, sans-serif",
      fontFamilyCode: "'JetBrains Mono', 'SFMono-Regular', Menlo, Consolas, 'Liberation Mono', monospace",
    },
    components: {
      // The header and the (light-variant) sider take the container colour of the mode; the page behind the cards is a shade off it.
      Layout:
        mode === 'dark'
          ? { headerBg: '#141414', lightSiderBg: '#141414', lightTriggerBg: '#141414', bodyBg: '#000000' }
          : { headerBg: '#ffffff', lightSiderBg: '#ffffff', lightTriggerBg: '#ffffff', bodyBg: '#f5f6f8' },
    },
  };
}

/** Keeps the page behind antd (scrollbars, overscroll) in the same scheme. */
export function applyDocumentTheme(mode: ThemeMode): void {
  document.documentElement.dataset.theme = mode;
  document.documentElement.style.colorScheme = mode;
}
