import { TZDate } from '@date-fns/tz';
// One module per function, not the 'date-fns' barrel: the barrel loads some 300 modules, each of
// which makes Node read date-fns's 200 KB package.json again (about 5 s of CPU per process on Node 24).
import { addDays } from 'date-fns/addDays';
import { addMonths } from 'date-fns/addMonths';
import { addWeeks } from 'date-fns/addWeeks';
import { startOfDay } from 'date-fns/startOfDay';
import { startOfMonth } from 'date-fns/startOfMonth';
import { startOfWeek } from 'date-fns/startOfWeek';

export type Period = 'day' | 'week' | 'month';
export const PERIODS: readonly Period[] = ['day', 'week', 'month'];

/** Sampling interval of each graph period (spec 2 §7): day 300 s, week 3600 s, month 86400 s. */
export const PERIOD_INTERVAL_S: Record<Period, number> = { day: 300, week: 3600, month: 86400 };

/** The period whose graphs use this interval. */
export function periodOfInterval(interval: number): Period | null {
  return (Object.keys(PERIOD_INTERVAL_S) as Period[]).find((p) => PERIOD_INTERVAL_S[p] === interval) ?? null;
}

const tz = (epochS: number, zone: string) => new TZDate(epochS * 1000, zone);
const epoch = (d: Date) => Math.floor(d.getTime() / 1000);

/** Start (epoch s) of the local day, week (from Monday) or month containing `epochS` in `zone`. */
export function startOfPeriod(epochS: number, period: Period, zone: string): number {
  const d = tz(epochS, zone);
  if (period === 'day') return epoch(startOfDay(d));
  if (period === 'week') return epoch(startOfWeek(d, { weekStartsOn: 1 }));
  return epoch(startOfMonth(d));
}

/** End (exclusive) of the local period starting at `startS`: 23, 24 or 25 hours for a day across DST. */
export function endOfPeriod(startS: number, period: Period, zone: string): number {
  const d = tz(startS, zone);
  if (period === 'day') return epoch(addDays(d, 1));
  if (period === 'week') return epoch(addWeeks(d, 1));
  return epoch(addMonths(d, 1));
}

/**
 * Start of the bucket of `step` seconds (300 or 3600) holding `epochS`, on the local clock whose
 * local midnight is `midnightS`: hours start at :30 UTC in Adelaide and Darwin (UTC+9:30), on the
 * hour elsewhere.
 */
export function localBucketStart(epochS: number, step: number, midnightS: number): number {
  const shift = ((midnightS % step) + step) % step;
  return epochS - ((((epochS - shift) % step) + step) % step);
}

/** Local midnights (epoch s) from the day of `fromS` up to (not including) `toS`, in `zone`. */
export function localMidnights(fromS: number, toS: number, zone: string): number[] {
  const out: number[] = [];
  let d = startOfDay(tz(fromS, zone));
  while (epoch(d) < toS) {
    out.push(epoch(d));
    d = addDays(d, 1);
  }
  return out;
}

/** Epoch seconds of local midnight of a yyyy-MM-dd date in `zone`. */
export function localDateToEpoch(date: string, zone: string): number {
  const [y, m, d] = date.split('-').map(Number);
  return epoch(new TZDate(y, m - 1, d, zone));
}

/** The yyyy-MM-dd local date of an instant in `zone`. */
export function epochToLocalDate(epochS: number, zone: string): string {
  const d = tz(epochS, zone);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/** Moves a local period start by whole periods (−1 previous, +1 next). */
export function shiftPeriod(startS: number, period: Period, by: number, zone: string): number {
  const d = tz(startS, zone);
  if (period === 'day') return epoch(addDays(d, by));
  if (period === 'week') return epoch(addWeeks(d, by));
  return epoch(addMonths(d, by));
}

/**
 * A zone as a person reads it at a moment: its abbreviation there and then, and its place, e.g.
 * 'AEST (Brisbane)', 'ACDT (Adelaide)'. Shown wherever times are in a zone other than the user's.
 */
export function zoneLabel(zone: string, atS: number): string {
  const abbr = new Intl.DateTimeFormat('en-AU', { timeZone: zone, timeZoneName: 'short' })
    .formatToParts(new Date(atS * 1000))
    .find((p) => p.type === 'timeZoneName')?.value;
  const place = zone.split('/').at(-1)?.replace(/_/g, ' ') ?? zone;
  return abbr ? `${abbr} (${place})` : place;
}

const offsetCache = new Map<string, number>();

/** The UTC offset of a zone at an instant, in seconds (cached per zone and hour). */
export function tzOffsetS(zone: string, ts: number): number {
  const key = `${zone}|${Math.floor(ts / 3600)}`;
  let off = offsetCache.get(key);
  if (off === undefined) {
    const parts = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    }).formatToParts(new Date(ts * 1000));
    const get = (t: string) => Number(parts.find((p) => p.type === t)?.value);
    const local = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second')) / 1000;
    off = Math.round((local - ts) / 60) * 60;
    if (offsetCache.size > 100_000) offsetCache.clear();
    offsetCache.set(key, off);
  }
  return off;
}

const midnightCache = new Map<string, Map<number, number>>();

/** Local midnight (epoch s) of the day holding `ts` in `zone`, correct across DST changes (cached per hour). */
export function localMidnight(zone: string, ts: number): number {
  let byHour = midnightCache.get(zone);
  if (!byHour) {
    byHour = new Map();
    midnightCache.set(zone, byHour);
  }
  const hour = Math.floor(ts / 1800);
  let m = byHour.get(hour);
  if (m === undefined) {
    const local = ts + tzOffsetS(zone, ts);
    const guess = local - (((local % 86400) + 86400) % 86400) - tzOffsetS(zone, ts);
    // The offset at midnight may differ from the offset now (DST changed during the day).
    m = guess + tzOffsetS(zone, ts) - tzOffsetS(zone, guess);
    if (byHour.size > 200_000) byHour.clear();
    byHour.set(hour, m);
  }
  return m;
}
