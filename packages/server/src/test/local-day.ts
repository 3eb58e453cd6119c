import { localMidnight } from '@vpp/shared/time';

/**
 * The start of a window of `span` seconds from `start`, moved to lie within one local day of `zone`
 * when a local midnight falls inside it: to start at that midnight, or with `earlier` to end at it.
 * Grid credits and a settlement's node values are kept per node and local day, so a test that builds
 * its window from the clock and expects one line per node fails at the hours when the window crosses
 * a midnight (in Sydney 13:00 UTC in summer, 14:00 in winter) unless it places the window with this.
 */
export function withinOneDay(start: number, span: number, opts: { zone?: string; earlier?: boolean } = {}): number {
  const midnight = localMidnight(opts.zone ?? 'Australia/Sydney', start + span - 1);
  if (midnight <= start) return start;
  return opts.earlier ? midnight - span : midnight;
}
