import { TZDate } from '@date-fns/tz';
import type { AlertEmailFrequency } from '../constants.ts';

/** Local hour at which daily and weekly (Monday) alert digests are sent. */
export const DIGEST_LOCAL_HOUR = 7;

/**
 * The latest moment at or before `at` (epoch seconds) when a digest of this frequency was due for
 * a user in `timeZone`: the top of the hour, 07:00 local each day, or 07:00 local each Monday.
 * Null for NEVER and NOW, which have no digest.
 */
export function digestDueAt(frequency: AlertEmailFrequency, at: number, timeZone: string): number | null {
  if (frequency === 'HOURLY') return Math.floor(at / 3600) * 3600;
  if (frequency !== 'DAILY' && frequency !== 'WEEKLY') return null;
  const now = new TZDate(at * 1000, timeZone);
  const due = new TZDate(now.getFullYear(), now.getMonth(), now.getDate(), DIGEST_LOCAL_HOUR, 0, 0, timeZone);
  if (due.getTime() > now.getTime()) due.setDate(due.getDate() - 1);
  if (frequency === 'WEEKLY') due.setDate(due.getDate() - ((due.getDay() + 6) % 7));
  return Math.floor(due.getTime() / 1000);
}

/** The length of a digest's period, in seconds (the window looked back over the first time). */
export const digestPeriodS = (frequency: AlertEmailFrequency) => (frequency === 'HOURLY' ? 3600 : frequency === 'DAILY' ? 86400 : 7 * 86400);
