import { DISPATCH_TIME_STEP_S, defaultDispatchStart } from '@vpp/shared/dispatches/rules';
import { defaultOutageMessage, defaultOutageTitle, OUTAGE_DEFAULT_DURATION_S, type OutageReason } from '@vpp/shared/outages/messages';
import type { CreateOutageBody } from '@vpp/shared/outages/schemas';
import { endOfPeriod, localDateToEpoch, startOfPeriod } from '@vpp/shared/time';
import { clampStart } from '../events/index.ts';

/** The New Grid Outage modal's state (spec 3 §3.5): the message is null until the user saves one. */
export interface OutageDraft {
  powerstation: number | null;
  startTime: number;
  duration: number;
  reason: OutageReason;
  message: { title: string; text: string } | null;
}

/** A new outage: the dispatches' default start (four hours ahead, rounded down to the hour), 7200 s, STORM. */
export const initialOutageDraft = (nowS: number, zone: string): OutageDraft => ({
  powerstation: null,
  startTime: defaultDispatchStart(nowS, zone),
  duration: OUTAGE_DEFAULT_DURATION_S,
  reason: 'STORM',
  message: null,
});

/** The message the customers get: the saved one, or the reason's default naming the organisation. */
export const messageOf = (d: OutageDraft, organisation: string) =>
  d.message ?? { title: defaultOutageTitle(d.reason), text: defaultOutageMessage(d.reason, organisation) };

/** Another start day (yyyy-MM-dd): the same time of day on it, no earlier than the next 5 minutes. */
export function withStartDate(d: OutageDraft, date: string, zone: string, nowS: number): OutageDraft {
  const day = localDateToEpoch(date, zone);
  const offset = d.startTime - startOfPeriod(d.startTime, 'day', zone);
  const startTime = clampStart(Math.min(day + offset, endOfPeriod(day, 'day', zone) - DISPATCH_TIME_STEP_S), day, nowS);
  return { ...d, startTime };
}

/** Another end: ignored when it is not after the start (spec 3 §5). */
export const withEnd = (d: OutageDraft, end: number): OutageDraft => (end <= d.startTime ? d : { ...d, duration: end - d.startTime });

/** The `POST /grid-outage` body; the message only when the user saved one (the server's default is the one shown). */
export function createOutageBody(d: OutageDraft): CreateOutageBody {
  if (d.powerstation === null) throw new Error('A grid outage needs a Virtual Power Plant.');
  return {
    powerstation: d.powerstation,
    startTime: d.startTime,
    duration: d.duration,
    outageReason: d.reason,
    ...(d.message ? { messageTitle: d.message.title, customerMessage: d.message.text } : {}),
  };
}
