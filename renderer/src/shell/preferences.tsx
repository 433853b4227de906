import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { i18n, rememberLocale, initialLocale, type Locale } from '../i18n';
import { applyDocumentTheme, initialThemeMode, rememberThemeMode, type ThemeMode } from '../theme';

export interface Preferences {
  theme: ThemeMode;
  locale: Locale;
  setTheme(mode: ThemeMode): void;
  setLocale(locale: Locale): void;
}

const PreferencesContext = createContext<Preferences | null>(null);

/** Theme and language of the shell; UI-app frames read them too (context.get, theme events). */
export function PreferencesProvider({ children }: { children: ReactNode }) {
  const [theme, setThemeState] = useState<ThemeMode>(initialThemeMode);
  const [locale, setLocaleState] = useState<Locale>(initialLocale);

  useEffect(() => applyDocumentTheme(theme), [theme]);
  useEffect(() => {
    document.documentElement.lang = locale === 'zh' ? 'zh-CN' : 'en';
    if (i18n.language !== locale) void i18n.changeLanguage(locale);
  }, [locale]);

  const setTheme = useCallback((mode: ThemeMode) => {
    rememberThemeMode(mode);
    setThemeState(mode);
  }, []);
  const setLocale = useCallback((next: Locale) => {
    rememberLocale(next);
    setLocaleState(next);
  }, []);

  const value = useMemo(() => ({ theme, locale, setTheme, setLocale }), [theme, locale, setTheme, setLocale]);
  return <PreferencesContext.Provider value={value}>{children}</PreferencesContext.Provider>;
}

export function usePreferences(): Preferences {
  const value = useContext(PreferencesContext);
  if (!value) throw new Error('usePreferences must be used inside <PreferencesProvider>');
  return value;
}
