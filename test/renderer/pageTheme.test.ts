import { theme as antdTheme } from 'antd';
import { describe, expect, it } from 'vitest';
import { themeConfig } from '../../renderer/src/theme.js';
import { PAGE_THEME_TOKENS, PAGE_THEME_VARIABLES, pageThemeCss } from '../../src/shared/pageTheme.js';

describe('the theme tokens a plugin page gets', () => {
  it.each(['light', 'dark'] as const)('are what antd computes for the window in %s mode', (mode) => {
    const config = themeConfig(mode);
    const computed = antdTheme.getDesignToken({ algorithm: config.algorithm, token: config.token }) as unknown as Record<string, unknown>;
    const expected = Object.fromEntries(PAGE_THEME_VARIABLES.map(([, token]) => [token, computed[token]]));
    expect(PAGE_THEME_TOKENS[mode]).toEqual(expected);
  });

  it('are CSS variables per data-theme, light before the theme is known', () => {
    const css = pageThemeCss();
    expect(css).toContain(':root, :root[data-theme="light"] {\n  --chatos-color-primary: #3b6ef5;');
    expect(css).toContain(':root[data-theme="dark"] {\n  --chatos-color-primary: #3561d3;');
    expect(css).toContain('  --chatos-radius: 8px;');
  });
});
