import { useEffect, useState } from 'react';

/** How often a shown relative time is said again: "now" becomes "1 min ago" while the user looks at it. */
const TICK_MS = 15_000;

/** The time now, again every TICK_MS while the part is shown, for the relative times it says (formatAgo). */
export function useNow(): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), TICK_MS);
    return () => clearInterval(timer);
  }, []);
  return now;
}

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
