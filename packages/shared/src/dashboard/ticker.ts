import { z } from 'zod';
import { okReply } from '../api/envelope.ts';

// The dashboard's news ticker (spec 2 §3 'Ticker event', §4 'Ticker text', §7 GET /ticker). Only
// DISPATCH events so far; the other types (cloud cover, heat, commissioning, customers) come later.

/** The states a dispatch is on the ticker in: upcoming within the next 24 hours, or in progress. */
export const TICKER_DISPATCH_STATES = ['UPCOMING', 'INPROGRESS'] as const;
export type TickerDispatchState = (typeof TICKER_DISPATCH_STATES)[number];

/** How far ahead an upcoming dispatch shows on the ticker. */
export const TICKER_UPCOMING_S = 86_400;

export const tickerDispatchEventSchema = z.object({
  type: z.literal('DISPATCH'),
  id: z.number(),
  powerstation: z.object({ id: z.number(), name: z.string() }),
  state: z.enum(TICKER_DISPATCH_STATES),
  /** kW: positive charge, negative discharge, zero lockout. */
  realPowerP: z.number(),
  startTime: z.number(),
  duration: z.number(),
  /** What the ticker shows, in the spec's wording (`tickerText`). */
  text: z.string(),
});
export type TickerDispatchEvent = z.infer<typeof tickerDispatchEventSchema>;

export const tickerEventSchema = z.discriminatedUnion('type', [tickerDispatchEventSchema]);
export type TickerEvent = z.infer<typeof tickerEventSchema>;

/** `GET /ticker`: the caller's ticker events, soonest first. */
export const tickerReply = okReply(z.array(tickerEventSchema));

/**
 * The ticker's words for a dispatch (spec 2 §4): upcoming, "due to charge", "due to discharge" or
 * "due to lockout" by the sign of its power (positive charge, negative discharge, zero lockout); in
 * progress, "charging", "discharging" or "locked out". The VPP's name comes first.
 */
export function tickerText(e: { powerstation: { name: string }; state: TickerDispatchState; realPowerP: number }): string {
  const sign = Math.sign(e.realPowerP);
  if (e.state === 'UPCOMING') return `${e.powerstation.name} is due to ${sign > 0 ? 'charge' : sign < 0 ? 'discharge' : 'lockout'}`;
  return `${e.powerstation.name} is ${sign > 0 ? 'charging' : sign < 0 ? 'discharging' : 'locked out'}`;
}
