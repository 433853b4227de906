/**
 * Which modifier the window's shortcuts use: ⌘ on macOS (and iPadOS), Ctrl
 * elsewhere, as every desktop app there does. Read from User-Agent Client
 * Hints where the browser has them (Chromium, Electron), else the older
 * `navigator.platform`.
 */
export function isMacPlatform(nav: Pick<Navigator, 'platform'> & { userAgentData?: { platform?: string } } = navigator): boolean {
  const platform = nav.userAgentData?.platform || nav.platform || '';
  return /mac|iphone|ipad|ipod/i.test(platform);
}

/** Whether `event` holds the platform's command modifier (and not the other one, so Ctrl+K on a Mac stays the editor's "kill line"). */
export function hasModifier(event: Pick<KeyboardEvent, 'ctrlKey' | 'metaKey'>, mac: boolean): boolean {
  return mac ? event.metaKey && !event.ctrlKey : event.ctrlKey && !event.metaKey;
}
