import { DISPATCH_TIME_STEP_S } from '@vpp/shared/dispatches/rules';
import { endOfPeriod } from '@vpp/shared/time';

// An event's window as every New-event modal offers it: 5-minute starts from now, ends up to a day later.

/** The first 5-minute step at or after now: the earliest start the server accepts. */
export const earliestStart = (nowS: number) => Math.ceil(nowS / DISPATCH_TIME_STEP_S) * DISPATCH_TIME_STEP_S;

/** A start no earlier than the graph start (spec 3 §4.1; an outage's or curtailment's day) nor before the next 5-minute step from now. */
export const clampStart = (startTime: number, dayStart: number, nowS: number) => Math.max(startTime, dayStart, earliestStart(nowS));

/** The 5-minute start times of a local day (23, 24 or 25 hours across daylight saving). */
export function startTimesOfDay(dayStart: number, zone: string): number[] {
  const end = endOfPeriod(dayStart, 'day', zone);
  const out: number[] = [];
  for (let t = dayStart; t < end; t += DISPATCH_TIME_STEP_S) out.push(t);
  return out;
}

/** The end times offered after a start: every 5 minutes up to a day later. */
export function endTimesAfter(startTime: number): number[] {
  const out: number[] = [];
  for (let t = startTime + DISPATCH_TIME_STEP_S; t <= startTime + 86_400; t += DISPATCH_TIME_STEP_S) out.push(t);
  return out;
}
