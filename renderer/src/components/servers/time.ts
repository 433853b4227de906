/** "3 min ago" in the UI language; the host sends epoch milliseconds. */
export function formatAgo(epochMs: number, locale: string, now = Date.now()): string {
  const seconds = Math.round((epochMs - now) / 1000);
  const format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  const abs = Math.abs(seconds);
  if (abs < 60) return format.format(seconds, 'second');
  if (abs < 3600) return format.format(Math.round(seconds / 60), 'minute');
  if (abs < 86400) return format.format(Math.round(seconds / 3600), 'hour');
  return format.format(Math.round(seconds / 86400), 'day');
}
