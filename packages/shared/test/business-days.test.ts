import { describe, expect, it } from 'vitest';
import {
  addBusinessDays,
  addBusinessHours,
  easterSunday,
  isBusinessDay,
  polishHolidays,
} from '../src/business-days.ts';

const d = (year: number, month: number, day: number) => ({ year, month, day });
const iso = (t: Date) => t.toISOString();

describe('easterSunday', () => {
  it('matches the published dates', () => {
    expect(easterSunday(2000)).toEqual(d(2000, 4, 23));
    expect(easterSunday(2019)).toEqual(d(2019, 4, 21));
    expect(easterSunday(2024)).toEqual(d(2024, 3, 31));
    expect(easterSunday(2025)).toEqual(d(2025, 4, 20));
    expect(easterSunday(2026)).toEqual(d(2026, 4, 5));
    expect(easterSunday(2038)).toEqual(d(2038, 4, 25));
  });
});

describe('Polish public holidays', () => {
  it('has the movable feasts of 2026 (Easter 5 April)', () => {
    const h = polishHolidays(2026);
    for (const day of ['04-05', '04-06', '05-24', '06-04']) expect(h.has(day)).toBe(true);
    expect(h.has('04-03')).toBe(false); // Good Friday is a working day in Poland
  });

  it('counts 24 December from 2025 only', () => {
    expect(isBusinessDay(d(2024, 12, 24))).toBe(true); // a Tuesday, before the law changed
    expect(isBusinessDay(d(2025, 12, 24))).toBe(false);
    expect(isBusinessDay(d(2026, 12, 24))).toBe(false);
  });

  it('excludes weekends and fixed holidays, keeps ordinary weekdays', () => {
    expect(isBusinessDay(d(2026, 11, 27))).toBe(true); // Friday
    expect(isBusinessDay(d(2026, 11, 28))).toBe(false); // Saturday
    expect(isBusinessDay(d(2026, 11, 29))).toBe(false); // Sunday
    expect(isBusinessDay(d(2026, 11, 11))).toBe(false); // Independence Day, a Wednesday
    expect(isBusinessDay(d(2026, 5, 1))).toBe(false);
    expect(isBusinessDay(d(2026, 5, 3))).toBe(false);
    expect(isBusinessDay(d(2026, 1, 6))).toBe(false);
    expect(isBusinessDay(d(2026, 8, 15))).toBe(false);
  });
});

describe('addBusinessHours (three hours to report)', () => {
  it('runs straight through a business day', () => {
    // Monday 30 Nov 2026, 10:00 in Warsaw (UTC+1).
    expect(iso(addBusinessHours(new Date('2026-11-30T09:00:00Z'), 3))).toBe('2026-11-30T12:00:00.000Z');
  });

  it('from a Friday evening carries the rest over the weekend to Monday', () => {
    // Friday 22:00 Warsaw: 2 hours on Friday, 1 on Monday -> Monday 01:00 Warsaw.
    expect(iso(addBusinessHours(new Date('2026-11-27T21:00:00Z'), 3))).toBe('2026-11-30T00:00:00.000Z');
    // Exactly three hours before midnight still ends on Friday (at midnight).
    expect(iso(addBusinessHours(new Date('2026-11-27T20:00:00Z'), 3))).toBe('2026-11-27T23:00:00.000Z');
  });

  it('skips a holiday in the week', () => {
    // Tuesday 10 Nov 23:00 Warsaw; Wednesday 11 Nov is a holiday -> Thursday 02:00 Warsaw.
    expect(iso(addBusinessHours(new Date('2026-11-10T22:00:00Z'), 3))).toBe('2026-11-12T01:00:00.000Z');
    // Suspicion on the holiday itself: the clock starts Thursday at midnight.
    expect(iso(addBusinessHours(new Date('2026-11-11T10:00:00Z'), 3))).toBe('2026-11-12T02:00:00.000Z');
  });

  it('skips Easter Sunday and Easter Monday (summer time)', () => {
    // Good Friday 3 Apr 2026 23:30 Warsaw (UTC+2): 30 minutes, then Tuesday 7 Apr 02:30 Warsaw.
    expect(iso(addBusinessHours(new Date('2026-04-03T21:30:00Z'), 3))).toBe('2026-04-07T00:30:00.000Z');
  });

  it('skips 24, 25 and 26 December and the weekend after (2025)', () => {
    // Tuesday 23 Dec 2025 23:00 Warsaw -> Monday 29 Dec 02:00 Warsaw.
    expect(iso(addBusinessHours(new Date('2025-12-23T22:00:00Z'), 3))).toBe('2025-12-29T01:00:00.000Z');
  });
});

describe('addBusinessDays (suspension up to 10 business days)', () => {
  it('Friday plus one is Monday, same wall time', () => {
    expect(iso(addBusinessDays(new Date('2026-11-27T14:00:00Z'), 1))).toBe('2026-11-30T14:00:00.000Z');
  });

  it('ten business days skip weekends and 11 November', () => {
    // Thursday 5 Nov 2026 12:00 Warsaw -> Friday 20 Nov 12:00 Warsaw.
    expect(iso(addBusinessDays(new Date('2026-11-05T11:00:00Z'), 10))).toBe('2026-11-20T11:00:00.000Z');
  });

  it('keeps the Warsaw wall time across a change to winter time', () => {
    // Friday 23 Oct 2026 12:00 Warsaw (UTC+2) -> Monday 26 Oct 12:00 Warsaw (UTC+1).
    expect(iso(addBusinessDays(new Date('2026-10-23T10:00:00Z'), 1))).toBe('2026-10-26T11:00:00.000Z');
  });

  it('from a Saturday counts from the next business day', () => {
    // Saturday 4 Apr 2026 (Easter Saturday): Sunday and Easter Monday skipped -> Tuesday 7 Apr.
    expect(iso(addBusinessDays(new Date('2026-04-04T08:00:00Z'), 1))).toBe('2026-04-07T08:00:00.000Z');
  });
});
