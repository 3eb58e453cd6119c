import { z } from 'zod';
import { okReply } from '../api/envelope.ts';

// The dashboard's news ticker (spec 2 §3 'Ticker event', §4 'Ticker text', §7 GET /ticker): the
// organisation's dispatches, the weather over its fleet (cloud cover, high temperatures by postcode)
// and counts of nodes commissioned, awaiting commissioning and new customers. Every event carries the
// text the ticker shows, worded here so that server and browser agree.

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

/** A temperature at or above this (°C, the simulator's afternoon air temperature) is a HIGH_TEMP event. */
export const TICKER_HIGH_TEMP_C = 35;
/** NEWLY_COMMISSIONED and NEW_CUSTOMERS count the last 7 days. */
export const TICKER_RECENT_S = 7 * 86_400;
/** The most HIGH_TEMP events the ticker carries (the hottest postcodes first). */
export const TICKER_MAX_HIGH_TEMPS = 10;

/** The cloud cover over the organisation's fleet now: 0 clear to 1 overcast, averaged over its nodes. */
export const tickerCloudCoverEventSchema = z.object({ type: z.literal('CLOUD_COVER'), value: z.number().min(0).max(1), text: z.string() });
/** A postcode of the fleet at or above TICKER_HIGH_TEMP_C now: the temperature (°C, one decimal). */
export const tickerHighTempEventSchema = z.object({ type: z.literal('HIGH_TEMP'), value: z.number(), postcode: z.string(), text: z.string() });
/** Nodes of the fleet commissioned in the last TICKER_RECENT_S seconds. */
export const tickerNewlyCommissionedEventSchema = z.object({ type: z.literal('NEWLY_COMMISSIONED'), value: z.number().int().min(0), text: z.string() });
/** Nodes of the fleet not yet commissioned. */
export const tickerAwaitingCommissionEventSchema = z.object({ type: z.literal('AWAITING_COMMISSION'), value: z.number().int().min(0), text: z.string() });
/** The organisation's customers created in the last TICKER_RECENT_S seconds. */
export const tickerNewCustomersEventSchema = z.object({ type: z.literal('NEW_CUSTOMERS'), value: z.number().int().min(0), text: z.string() });

export const TICKER_EVENT_TYPES = ['DISPATCH', 'CLOUD_COVER', 'HIGH_TEMP', 'NEWLY_COMMISSIONED', 'AWAITING_COMMISSION', 'NEW_CUSTOMERS'] as const;
export type TickerEventType = (typeof TICKER_EVENT_TYPES)[number];

export const tickerEventSchema = z.discriminatedUnion('type', [
  tickerDispatchEventSchema,
  tickerCloudCoverEventSchema,
  tickerHighTempEventSchema,
  tickerNewlyCommissionedEventSchema,
  tickerAwaitingCommissionEventSchema,
  tickerNewCustomersEventSchema,
]);
export type TickerEvent = z.infer<typeof tickerEventSchema>;

/**
 * `GET /ticker`: the caller's ticker events in this order: dispatches (in progress, then upcoming
 * soonest first), cloud cover, high temperatures (hottest first), then the three counts (always
 * present, zero included). Weather events need a fleet with nodes.
 */
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

const nodes = (n: number) => `${n} ${n === 1 ? 'node' : 'nodes'}`;

/**
 * The ticker's words for every event type: a dispatch as `tickerText`; the others (the spec shows
 * only the dispatch wording) state the figure and what it counts.
 */
export function tickerEventText(
  e:
    | { type: 'DISPATCH'; powerstation: { name: string }; state: TickerDispatchState; realPowerP: number }
    | { type: 'CLOUD_COVER'; value: number }
    | { type: 'HIGH_TEMP'; value: number; postcode: string }
    | { type: 'NEWLY_COMMISSIONED' | 'AWAITING_COMMISSION' | 'NEW_CUSTOMERS'; value: number },
): string {
  switch (e.type) {
    case 'DISPATCH':
      return tickerText(e);
    case 'CLOUD_COVER':
      return `Cloud cover across the fleet is ${Math.round(e.value * 100)}%`;
    case 'HIGH_TEMP':
      return `High temperature of ${e.value.toFixed(1)} °C in postcode ${e.postcode}`;
    case 'NEWLY_COMMISSIONED':
      return `${nodes(e.value)} commissioned in the last 7 days`;
    case 'AWAITING_COMMISSION':
      return `${nodes(e.value)} awaiting commissioning`;
    case 'NEW_CUSTOMERS':
      return `${e.value} new ${e.value === 1 ? 'customer' : 'customers'} in the last 7 days`;
  }
}
