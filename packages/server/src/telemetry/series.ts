import { localBucketStart, localMidnights, startOfPeriod } from '@vpp/shared/time';

/** One point of a series as the API answers it: each asked metric, null where there is no value. */
export type SeriesPoint = Record<string, number | null>;
/** A series keyed by bucket start (epoch seconds). */
export type Series = Record<string, SeriesPoint>;

/**
 * Starts of the buckets that begin in [start, end) at an interval (callers ask from a bucket's
 * start: a local midnight, a whole hour). Days are the zone's local days; hours the zone's
 * local hours when `localHours` (a node's own hours: in Adelaide they start at half past the UTC
 * hour), UTC hours otherwise (fleet and VPP sums span zones); shorter buckets are UTC multiples.
 */
export function bucketTimes(start: number, end: number, interval: number, zone: string, opts: { localHours: boolean }): number[] {
  if (interval === 86400) return localMidnights(start, end, zone).filter((t) => t >= start);
  const first = interval === 3600 && opts.localHours ? localBucketStart(start, 3600, startOfPeriod(start, 'day', zone)) : start - (start % interval);
  const out: number[] = [];
  for (let t = first; t < end; t += interval) if (t >= start) out.push(t);
  return out;
}

/** A value as the API answers it: rounded to 3 decimals; null when there is none. */
export const roundValue = (v: unknown) => (v === null || v === undefined || Number.isNaN(Number(v)) ? null : Math.round(Number(v) * 1000) / 1000);

/**
 * The one series builder of the API (nodes, VPPs, the fleet). One rule for what is missing: a bucket
 * with no reading and a metric without a value are both null, never 0, so a gap in the data shows as
 * a gap; values are rounded to 3 decimals.
 */
export function buildSeries<M extends string>(
  keys: Iterable<number>,
  data: ReadonlyMap<number, Readonly<Record<string, unknown>>>,
  metrics: readonly M[],
  columnOf: (metric: M) => string,
): Series {
  const series: Series = {};
  for (const ts of keys) {
    const point = data.get(ts);
    series[ts] = Object.fromEntries(metrics.map((m) => [m, point ? roundValue(point[columnOf(m)]) : null]));
  }
  return series;
}

/**
 * One submeter's 5-minute averages (in time order) gathered into buckets of `interval` (at least
 * 5 minutes): each bucket the mean of its 5-minute averages, rounded. Days are the node's local
 * days and hours its local hours, as in its series, so that a graph finds both at the same
 * timestamps; shorter buckets are UTC multiples. The submeter graph and the exports both use it.
 */
export function submeterBuckets(
  rows: readonly { ts: number | string; p: number | null; q: number | null }[],
  interval: number,
  zone: string,
  start: number,
  end: number,
): Map<number, { p: number | null; q: number | null }> {
  const step = Math.max(300, interval);
  const midnights = step === 86400 ? localMidnights(start, end, zone) : [];
  const dayStart = startOfPeriod(start, 'day', zone);
  let day = 0;
  return submeterMeans(rows, (ts) => {
    while (day + 1 < midnights.length && midnights[day + 1] <= ts) day++;
    return step === 86400 ? midnights[day] : step === 3600 ? localBucketStart(ts, 3600, dayStart) : ts - (ts % step);
  });
}

/**
 * Submeter 5-minute averages (in time order) gathered into the buckets `bucketOf` names (undefined:
 * outside every bucket): each bucket the mean of its 5-minute averages, rounded.
 */
export function submeterMeans(
  rows: readonly { ts: number | string; p: number | null; q: number | null }[],
  bucketOf: (ts: number) => number | undefined,
): Map<number, { p: number | null; q: number | null }> {
  const sums = new Map<number, { p: number; q: number; n: number }>();
  for (const r of rows) {
    const t = bucketOf(Number(r.ts));
    if (t === undefined) continue;
    const b = sums.get(t) ?? { p: 0, q: 0, n: 0 };
    b.p += Number(r.p ?? 0);
    b.q += Number(r.q ?? 0);
    b.n++;
    sums.set(t, b);
  }
  return new Map([...sums].map(([t, b]) => [t, { p: roundValue(b.p / b.n), q: roundValue(b.q / b.n) }]));
}
