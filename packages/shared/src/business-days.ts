/**
 * The AML policy's business-day clock (docs/accounts.md#public-pages-and-policies: holidays are weekends and Polish
 * public holidays; a report to the FIU is due within three business hours, a suspension lasts up to 10 business days).
 *
 * Days are calendar days in Europe/Warsaw. A business hour is an hour of a business day, all 24 of them: the terms
 * define which days are not business days but set no office hours, so inventing 9–17 would stretch a three-hour
 * deadline into the next morning. Counting every hour of a business day is the stricter reading.
 */

/** A calendar date (month 1–12). */
export interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** Easter Sunday of `year` in the Gregorian calendar (the anonymous Gregorian algorithm, Meeus/Jones/Butcher). */
export function easterSunday(year: number): CalendarDate {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return { year, month, day };
}

/** Day number (days since 1970-01-01) of a date; calendar arithmetic only, no time zone. */
function dayNumber(d: CalendarDate): number {
  return Math.floor(Date.UTC(d.year, d.month - 1, d.day) / DAY_MS);
}

function fromDayNumber(n: number): CalendarDate {
  const t = new Date(n * DAY_MS);
  return { year: t.getUTCFullYear(), month: t.getUTCMonth() + 1, day: t.getUTCDate() };
}

/** The Polish public holidays of `year` (Act of 18 January 1951, with 24 December from 2025), as `MM-DD`. */
export function polishHolidays(year: number): Set<string> {
  const fixed = ['01-01', '01-06', '05-01', '05-03', '08-15', '11-01', '11-11', '12-25', '12-26'];
  if (year >= 2025) fixed.push('12-24');
  const easter = dayNumber(easterSunday(year));
  // Easter Sunday, Easter Monday, Pentecost Sunday (+49 days) and Corpus Christi (+60 days).
  const movable = [0, 1, 49, 60].map((offset) => fromDayNumber(easter + offset));
  const mmdd = (d: CalendarDate) => `${String(d.month).padStart(2, '0')}-${String(d.day).padStart(2, '0')}`;
  return new Set([...fixed, ...movable.map(mmdd)]);
}

/** True unless `date` is a Saturday, a Sunday or a Polish public holiday. */
export function isBusinessDay(date: CalendarDate): boolean {
  const weekday = new Date(Date.UTC(date.year, date.month - 1, date.day)).getUTCDay();
  if (weekday === 0 || weekday === 6) return false;
  const mmdd = `${String(date.month).padStart(2, '0')}-${String(date.day).padStart(2, '0')}`;
  return !polishHolidays(date.year).has(mmdd);
}

const warsawParts = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/Warsaw',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

interface WallClock extends CalendarDate {
  /** Milliseconds since local midnight. */
  msOfDay: number;
}

/** The Warsaw wall clock at `instant`. */
function warsaw(instant: Date): WallClock {
  const parts = Object.fromEntries(warsawParts.formatToParts(instant).map((p) => [p.type, p.value]));
  const ms = instant.getTime() % 1000;
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    msOfDay: (Number(parts.hour) * 3600 + Number(parts.minute) * 60 + Number(parts.second)) * 1000 + ms,
  };
}

/**
 * The instant the Warsaw wall clock shows `msOfDay` on `date`. Warsaw is UTC+1 or UTC+2; of the two candidates the
 * one that reads back as the same wall time wins (in the hour skipped in spring, the later one).
 */
function warsawInstant(date: CalendarDate, msOfDay: number): Date {
  const naive = Date.UTC(date.year, date.month - 1, date.day) + msOfDay;
  for (const offset of [2, 1]) {
    const candidate = new Date(naive - offset * HOUR_MS);
    const back = warsaw(candidate);
    if (dayNumber(back) === dayNumber(date) && back.msOfDay === msOfDay) return candidate;
  }
  return new Date(naive - HOUR_MS);
}

/** Start (local midnight) of the Warsaw day after `date`. */
function nextMidnight(date: CalendarDate): Date {
  return warsawInstant(fromDayNumber(dayNumber(date) + 1), 0);
}

/**
 * The instant `hours` business hours after `from`: time runs only on business days (Warsaw calendar); time on
 * Saturdays, Sundays and holidays is skipped. From a holiday evening, the clock starts at the next business day's
 * midnight.
 */
export function addBusinessHours(from: Date, hours: number): Date {
  let left = hours * HOUR_MS;
  let at = from;
  for (let guard = 0; guard < 10_000; guard++) {
    const wall = warsaw(at);
    const end = nextMidnight(wall);
    if (isBusinessDay(wall)) {
      const available = end.getTime() - at.getTime();
      if (left <= available) return new Date(at.getTime() + left);
      left -= available;
    }
    at = end;
  }
  throw new Error('addBusinessHours: no business day found');
}

/**
 * The instant `days` business days after `from`: the same Warsaw wall time on the `days`-th business day after
 * `from`'s date (Friday 15:00 plus one business day is Monday 15:00, or Tuesday when Monday is a holiday).
 */
export function addBusinessDays(from: Date, days: number): Date {
  const wall = warsaw(from);
  let n = dayNumber(wall);
  let counted = 0;
  while (counted < days) {
    n += 1;
    if (isBusinessDay(fromDayNumber(n))) counted += 1;
  }
  return warsawInstant(fromDayNumber(n), wall.msOfDay);
}
