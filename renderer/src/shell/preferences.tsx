import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import type { UserSettings } from '../../../src/shared/settings';
import { api } from '../api/client';
import { i18n, rememberLocale, initialLocale, type Locale } from '../i18n';
import { applyDocumentTheme, initialThemeMode, rememberThemeMode, type ThemeMode } from '../theme';

export interface Preferences {
  theme: ThemeMode;
  locale: Locale;
  /** The window's base font size (px); antd's scale follows it. */
  fontSize: number;
  /** The user's settings as the core has them (docs/using/settings.md); `{}` until read. */
  settings: UserSettings;
  setTheme(mode: ThemeMode): void;
  setLocale(locale: Locale): void;
  /** Changes settings in the core (which checks them); resolves with them, rejects with the core's refusal. */
  changeSettings(patch: Record<string, unknown>): Promise<UserSettings>;
}

export const DEFAULT_FONT_SIZE = 14;
const FONT_KEY = 'chatos.fontSize';

function initialFontSize(): number {
  const stored = Number(localStorage.getItem(FONT_KEY));
  return Number.isInteger(stored) && stored >= 12 && stored <= 20 ? stored : DEFAULT_FONT_SIZE;
}

const PreferencesContext = createContext<Preferences | null>(null);

/**
 * Theme, language and font size of the shell; UI-app frames read them too
 * (context.get, theme events). They are settings of the core (one row of
 * the admin DB, shared by every window); this window keeps a copy in
 * localStorage so its first paint already has them, then follows the
 * core's, read at start and at every settings.changed.
 */
export function PreferencesProvider({ children }: { children: ReactNode }) {
  const [theme, setThemeState] = useState<ThemeMode>(initialThemeMode);
  const [locale, setLocaleState] = useState<Locale>(initialLocale);
  const [fontSize, setFontSizeState] = useState<number>(initialFontSize);
  const [settings, setSettings] = useState<UserSettings>({});

  useEffect(() => applyDocumentTheme(theme), [theme]);
  useEffect(() => {
    document.documentElement.lang = locale === 'zh' ? 'zh-CN' : 'en';
    if (i18n.language !== locale) void i18n.changeLanguage(locale);
  }, [locale]);

  /** Takes the core's settings: those set there win over this window's copy, which follows them. */
  const adopt = useCallback((next: UserSettings) => {
    setSettings(next);
    if (next.theme) {
      rememberThemeMode(next.theme);
      setThemeState(next.theme);
    }
    if (next.language) {
      rememberLocale(next.language);
      setLocaleState(next.language);
    }
    const size = next.fontSize ?? DEFAULT_FONT_SIZE;
    localStorage.setItem(FONT_KEY, String(size));
    setFontSizeState(size);
  }, []);
  const load = useCallback(() => {
    api.call('settings.get', {}).then(
      (view) => adopt(view.settings),
      // Not reachable now (the connection banner says so): this window's copy stays until the next change.
      () => undefined,
    );
  }, [adopt]);
  useEffect(() => {
    load();
    // api.on, not useHostEvent: the shell's first screen does not carry the page hooks.
    return api.on('settings.changed', load);
  }, [load]);

  const changeSettings = useCallback(
    async (patch: Record<string, unknown>) => {
      const view = await api.call('settings.update', { patch });
      adopt(view.settings);
      return view.settings;
    },
    [adopt],
  );
  // The header's switches act at once in this window, then in the core (every window follows).
  const setTheme = useCallback(
    (mode: ThemeMode) => {
      rememberThemeMode(mode);
      setThemeState(mode);
      changeSettings({ theme: mode }).catch(() => undefined);
    },
    [changeSettings],
  );
  const setLocale = useCallback(
    (next: Locale) => {
      rememberLocale(next);
      setLocaleState(next);
      changeSettings({ language: next }).catch(() => undefined);
    },
    [changeSettings],
  );

  const value = useMemo(() => ({ theme, locale, fontSize, settings, setTheme, setLocale, changeSettings }), [theme, locale, fontSize, settings, setTheme, setLocale, changeSettings]);
  return <PreferencesContext.Provider value={value}>{children}</PreferencesContext.Provider>;
}

export function usePreferences(): Preferences {
  const value = useContext(PreferencesContext);
  if (!value) throw new Error('usePreferences must be used inside <PreferencesProvider>');
  return value;
}
