/**
 * A remote server's url as messages show it: its origin, without the path
 * and query, where hosted servers keep their key (`/s/<key>/mcp`,
 * `?api_key=`). Messages reach the model too (a failed call's result, the
 * settings tools), so the url in full stays in mcp.yaml and its editor.
 */
export function shownUrl(url: string): string {
  if (!URL.canParse(url)) return '(an invalid url)';
  const parsed = new URL(url);
  return `${parsed.origin}${parsed.pathname === '/' && !parsed.search ? '' : '/…'}`;
}
