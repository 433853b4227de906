/**
 * The built-in time tool's clock arithmetic, with Intl alone (the zone
 * database of the Node that runs the host; no dependency): wall-clock time
 * in an IANA zone, the zone's offset at an instant, and a wall-clock time of
 * one zone as the same instant in another.
 */

export class TimeZoneError extends Error {}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** One formatter per zone, kept: building one reads the zone database. */
function formatterOf(zone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(zone);
  if (!formatter) {
    try {
      formatter = new Intl.DateTimeFormat('en-US', {
        timeZone: zone,
        hourCycle: 'h23',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
        weekday: 'long',
      });
    } catch {
      throw new TimeZoneError(`"${zone}" is not a time zone; use an IANA name such as "Asia/Shanghai", "Europe/London" or "UTC" (list_time_zones lists them)`);
    }
    if (formatters.size > 1000) formatters.clear();
    formatters.set(zone, formatter);
  }
  return formatter;
}

/** The zone's canonical name (`asia/shanghai` → `Asia/Shanghai`); throws a TimeZoneError naming the fix for an unknown one. */
export function checkZone(zone: string): string {
  return formatterOf(zone).resolvedOptions().timeZone;
}

interface Wall {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  weekday: string;
}

function wallOf(instant: number, zone: string): Wall {
  const parts = new Map<string, string>(
    formatterOf(zone)
      .formatToParts(instant)
      .map((part) => [part.type, part.value]),
  );
  const number = (type: string) => Number(parts.get(type));
  return { year: number('year'), month: number('month'), day: number('day'), hour: number('hour'), minute: number('minute'), second: number('second'), weekday: parts.get('weekday') ?? '' };
}

/** Minutes east of UTC in `zone` at `instant`. */
export function offsetMinutes(instant: number, zone: string): number {
  const wall = wallOf(instant, zone);
  const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);
  return Math.round((asUtc - Math.floor(instant / 1000) * 1000) / 60_000);
}

const pad = (n: number, width = 2) => String(Math.abs(n)).padStart(width, '0');

function offsetText(minutes: number): string {
  return `${minutes < 0 ? '-' : '+'}${pad(Math.trunc(Math.abs(minutes) / 60))}:${pad(Math.abs(minutes) % 60)}`;
}

export interface ZonedTime {
  timezone: string;
  /** ISO 8601 with the zone's offset, e.g. 2026-11-27T08:30:00+08:00. */
  datetime: string;
  weekday: string;
  utcOffset: string;
  isDst: boolean;
}

/** `instant` as wall-clock time in `zone`. */
export function zonedTime(instant: number, zone: string): ZonedTime {
  const timezone = checkZone(zone);
  const wall = wallOf(instant, timezone);
  const offset = offsetMinutes(instant, timezone);
  // Daylight saving: the offset is above the smaller of January's and July's (either hemisphere).
  const year = new Date(instant).getUTCFullYear();
  const standard = Math.min(offsetMinutes(Date.UTC(year, 0, 1), timezone), offsetMinutes(Date.UTC(year, 6, 1), timezone));
  return {
    timezone,
    datetime: `${pad(wall.year, 4)}-${pad(wall.month)}-${pad(wall.day)}T${pad(wall.hour)}:${pad(wall.minute)}:${pad(wall.second)}${offsetText(offset)}`,
    weekday: wall.weekday,
    utcOffset: offsetText(offset),
    isDst: offset > standard,
  };
}

const LOCAL_TIME = /^(?:(\d{4})-(\d{2})-(\d{2})[T ])?(\d{1,2}):(\d{2})(?::(\d{2}))?$/;

/**
 * The instant a wall-clock time names in `zone`: `HH:MM[:SS]` (on that
 * zone's today, as of `now`) or `YYYY-MM-DDTHH:MM[:SS]`. A time skipped by
 * a daylight-saving change is read with the offset before the change.
 */
export function instantOf(time: string, zone: string, now: number): number {
  const match = LOCAL_TIME.exec(time.trim());
  if (!match) throw new TimeZoneError(`"${time}" is not a time; write "HH:MM" (24-hour, e.g. "16:30") or "YYYY-MM-DDTHH:MM" (e.g. "2026-03-29T01:30")`);
  const today = wallOf(now, checkZone(zone));
  const [year, month, day] = match[1] ? [Number(match[1]), Number(match[2]), Number(match[3])] : [today.year, today.month, today.day];
  const [hour, minute, second] = [Number(match[4]), Number(match[5]), Number(match[6] ?? 0)];
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59) throw new TimeZoneError(`"${time}" is not a valid date and time`);
  const asUtc = Date.UTC(year, month - 1, day, hour, minute, second);
  if (new Date(asUtc).getUTCDate() !== day) throw new TimeZoneError(`"${time}" is not a valid date (that month has fewer days)`);
  // The offset at the wall time read as UTC, then at the instant that gives: two steps settle it, across a change too.
  const first = asUtc - offsetMinutes(asUtc, zone) * 60_000;
  return asUtc - offsetMinutes(first, zone) * 60_000;
}

/** Every IANA zone this Node knows (UTC included), optionally those whose name contains `filter` (any case). */
export function listZones(filter?: string): string[] {
  const all = [...Intl.supportedValuesOf('timeZone')];
  if (!all.includes('UTC')) all.push('UTC');
  const wanted = filter?.trim().toLowerCase();
  return wanted ? all.filter((zone) => zone.toLowerCase().includes(wanted)) : all;
}

/** The zone the host runs in. */
export function hostZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}
