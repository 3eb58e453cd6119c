import { z } from 'zod';

export const VPP_EVENT_STATES = ['UPCOMING', 'INPROGRESS', 'COMPLETED'] as const;
export type VppEventState = (typeof VPP_EVENT_STATES)[number];
const eventState = z.enum(['INCOMPLETE', ...VPP_EVENT_STATES], { error: `Use INCOMPLETE, ${VPP_EVENT_STATES.join(', ')}.` });

/** An event (dispatch, curtailment…) on a VPP; INCOMPLETE asks for upcoming and in-progress ones. */
export const vppEventSchema = z.object({
  id: z.number(),
  type: z.string(),
  startTime: z.number(),
  duration: z.number(),
  state: z.enum(VPP_EVENT_STATES),
  powerstation: z.object({ id: z.number(), name: z.string() }).nullable(),
});
export type VppEvent = z.infer<typeof vppEventSchema>;
export const powerstationEventsQuery = z.object({ status: eventState.optional() });
export const eventsQuery = z.object({ state: eventState.optional() });
export const eventsReply = z.object({ status: z.literal('OK'), events: z.array(vppEventSchema) });

/**
 * State of an event at `now`: upcoming before its start, in progress until its end, then completed.
 * A cancelled event is over once cancelled: completed, whether it had started or not.
 */
export function eventStateAt(start: number, duration: number, now: number, cancelledAt: number | null = null): VppEventState {
  if (cancelledAt !== null && cancelledAt <= now) return 'COMPLETED';
  if (now < start) return 'UPCOMING';
  return now < start + duration ? 'INPROGRESS' : 'COMPLETED';
}
