/**
 * Whether a url may leave the app for the system browser: only an http(s)
 * page (a remote server's sign-in page). A `file:`, `javascript:` or custom
 * scheme url would make the OS run or open something local, so it never
 * reaches `shell.openExternal`.
 */
export function isBrowserUrl(url: string): boolean {
  if (!URL.canParse(url)) return false;
  const { protocol } = new URL(url);
  return protocol === 'https:' || protocol === 'http:';
}
