import { describe, expect, it } from 'vitest';
import { checkZone, instantOf, listZones, TimeZoneError, zonedTime } from '../../../src/core/builtinTools/timeZones.js';

const at = (iso: string) => Date.parse(iso);

describe('the built-in time tool', () => {
  it('tells the time in a zone, with its offset and daylight saving', () => {
    expect(zonedTime(at('2026-11-27T00:30:00Z'), 'Asia/Shanghai')).toEqual({ timezone: 'Asia/Shanghai', datetime: '2026-11-27T08:30:00+08:00', weekday: 'Friday', utcOffset: '+08:00', isDst: false });
    expect(zonedTime(at('2026-07-01T12:00:00Z'), 'Europe/London')).toMatchObject({ datetime: '2026-07-01T13:00:00+01:00', isDst: true });
    expect(zonedTime(at('2026-07-01T12:00:00Z'), 'Asia/Kolkata').utcOffset).toBe('+05:30');
    expect(zonedTime(at('2026-07-01T12:00:00Z'), 'America/St_Johns').utcOffset).toBe('-02:30');
  });

  it('converts a wall-clock time between zones, across a daylight-saving change', () => {
    const instant = instantOf('2026-03-29T09:00', 'Europe/London', at('2026-01-01T00:00:00Z'));
    expect(zonedTime(instant, 'Asia/Tokyo').datetime).toBe('2026-03-29T17:00:00+09:00');
    const before = instantOf('2026-03-28T09:00', 'Europe/London', 0);
    expect(zonedTime(before, 'Asia/Tokyo').datetime).toBe('2026-03-28T18:00:00+09:00');
    // HH:MM is today in the source zone.
    const today = instantOf('16:30', 'America/New_York', at('2026-11-27T03:00:00Z'));
    expect(zonedTime(today, 'UTC').datetime).toBe('2026-11-26T21:30:00+00:00');
  });

  it('lists and checks zones, and refuses a name that is not one with the fix', () => {
    expect(listZones('shanghai')).toEqual(['Asia/Shanghai']);
    expect(listZones()).toContain('UTC');
    expect(checkZone('asia/shanghai')).toBe('Asia/Shanghai');
    expect(() => checkZone('Mars/Olympus')).toThrow(TimeZoneError);
    expect(() => checkZone('Mars/Olympus')).toThrow(/IANA name/);
    expect(() => instantOf('25:00', 'UTC', 0)).toThrow(/not a valid date and time/);
    expect(() => instantOf('2026-02-30T10:00', 'UTC', 0)).toThrow(/fewer days/);
    expect(() => instantOf('noon', 'UTC', 0)).toThrow(/HH:MM/);
  });
});
