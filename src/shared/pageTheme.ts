/**
 * The design tokens a UI app's page gets as CSS variables (`--chatos-…`),
 * light and dark: the values antd computes from the window's theme
 * (renderer/src/theme.ts; a test keeps the two equal). The page shell sets
 * them per `data-theme`, which the bridge switches live, so a page styled
 * with `var(--chatos-color-text)` follows a theme switch with no script.
 */

/** CSS variable → the antd design token it carries. */
export const PAGE_THEME_VARIABLES = [
  ['--chatos-color-primary', 'colorPrimary'],
  ['--chatos-color-link', 'colorLink'],
  ['--chatos-color-success', 'colorSuccess'],
  ['--chatos-color-warning', 'colorWarning'],
  ['--chatos-color-error', 'colorError'],
  ['--chatos-color-bg', 'colorBgContainer'],
  ['--chatos-color-bg-layout', 'colorBgLayout'],
  ['--chatos-color-bg-elevated', 'colorBgElevated'],
  ['--chatos-color-fill', 'colorFillTertiary'],
  ['--chatos-color-text', 'colorText'],
  ['--chatos-color-text-secondary', 'colorTextSecondary'],
  ['--chatos-color-border', 'colorBorder'],
  ['--chatos-color-border-secondary', 'colorBorderSecondary'],
  ['--chatos-radius', 'borderRadius'],
  ['--chatos-radius-sm', 'borderRadiusSM'],
  ['--chatos-font-size', 'fontSize'],
  ['--chatos-font-family', 'fontFamily'],
  ['--chatos-font-family-code', 'fontFamilyCode'],
] as const;

export type PageThemeToken = (typeof PAGE_THEME_VARIABLES)[number][1];

const FONT_FAMILY =
  "-apple-system, BlinkMacSystemFont, 'Segoe UI', 'PingFang SC', 'Hiragino Sans GB', 'Microsoft YaHei', 'Noto Sans CJK SC', 'Noto Sans SC', Roboto, 'Helvetica Neue', Arial, sans-serif";
const FONT_FAMILY_CODE = "'JetBrains Mono', 'SFMono-Regular', Menlo, Consolas, 'Liberation Mono', monospace";

/** The token values per mode (lengths in px, as antd gives them). */
export const PAGE_THEME_TOKENS: Record<'light' | 'dark', Record<PageThemeToken, string | number>> = {
  light: {
    colorPrimary: '#3b6ef5',
    colorLink: '#1677ff',
    colorSuccess: '#52c41a',
    colorWarning: '#faad14',
    colorError: '#ff4d4f',
    colorBgContainer: '#ffffff',
    colorBgLayout: '#f5f5f5',
    colorBgElevated: '#ffffff',
    colorFillTertiary: 'rgba(0,0,0,0.04)',
    colorText: 'rgba(0,0,0,0.88)',
    colorTextSecondary: 'rgba(0,0,0,0.65)',
    colorBorder: '#d9d9d9',
    colorBorderSecondary: '#f0f0f0',
    borderRadius: 8,
    borderRadiusSM: 6,
    fontSize: 14,
    fontFamily: FONT_FAMILY,
    fontFamilyCode: FONT_FAMILY_CODE,
  },
  dark: {
    colorPrimary: '#3561d3',
    colorLink: '#1668dc',
    colorSuccess: '#49aa19',
    colorWarning: '#d89614',
    colorError: '#dc4446',
    colorBgContainer: '#141414',
    colorBgLayout: '#000000',
    colorBgElevated: '#1f1f1f',
    colorFillTertiary: 'rgba(255,255,255,0.08)',
    colorText: 'rgba(255,255,255,0.85)',
    colorTextSecondary: 'rgba(255,255,255,0.65)',
    colorBorder: '#424242',
    colorBorderSecondary: '#303030',
    borderRadius: 8,
    borderRadiusSM: 6,
    fontSize: 14,
    fontFamily: FONT_FAMILY,
    fontFamilyCode: FONT_FAMILY_CODE,
  },
};

const cssValue = (value: string | number) => (typeof value === 'number' ? `${value}px` : value);

/**
 * The native controls in the window's design (issue 45: the Git page's select
 * and buttons were the browser's own, white in the dark theme): the theme's
 * colours, border, radius and a focus ring of the primary colour. In
 * `:where()`, so of no weight: a page's own style of a control wins.
 */
const CONTROL_CSS = [
  ':where(button, input, select, textarea) { font: inherit; color: var(--chatos-color-text); background: var(--chatos-color-bg); border: 1px solid var(--chatos-color-border); border-radius: var(--chatos-radius-sm); padding: 4px 10px; }',
  ':where(button, select) { cursor: pointer; }',
  ':where(button) { background: var(--chatos-color-bg-elevated); }',
  ':where(button:hover:not(:disabled), select:hover:not(:disabled)) { border-color: var(--chatos-color-primary); }',
  ':where(button, input, select, textarea):disabled { opacity: 0.5; cursor: not-allowed; }',
  ':where(button, input, select, textarea, a, [tabindex]):focus-visible { outline: 2px solid var(--chatos-color-primary); outline-offset: 1px; }',
  ':where(input, textarea)::placeholder { color: var(--chatos-color-text-secondary); }',
];

/** The shell's style rules: the variables for light (also before the theme is known) and dark, and a body that uses them. */
export function pageThemeCss(): string {
  const block = (mode: 'light' | 'dark') => PAGE_THEME_VARIABLES.map(([variable, token]) => `  ${variable}: ${cssValue(PAGE_THEME_TOKENS[mode][token])};`).join('\n');
  return [
    `:root, :root[data-theme="light"] {\n${block('light')}\n}`,
    `:root[data-theme="dark"] {\n${block('dark')}\n}`,
    'body { font-family: var(--chatos-font-family); font-size: var(--chatos-font-size); color: var(--chatos-color-text); background: var(--chatos-color-bg); }',
    ...CONTROL_CSS,
  ].join('\n');
}
