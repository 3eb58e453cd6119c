import type { DispatchSummary } from '@vpp/shared/dispatches/schemas';
import { formatAud, powerScale } from '@vpp/shared/format';

/** Texts of the dispatch screens that spec 3 §8 does not give (and the list's own, which it does). */
export const DISPATCH_SCREEN_TEXTS = {
  listFailed: 'Failed to load trade requests.',
  noDispatches: 'No dispatches have been found for this search criteria',
  notFound: 'This dispatch could not be found. It may have been removed, or it belongs to another organisation.',
  backToList: 'Back to Dispatches',
  // The spec's question for cancelling a RERT dispatch (spec 3 §2.5), word for word: the same act on a dispatch asks the same.
  cancelConfirm: 'Are you sure want to cancel this dispatch?',
  cancelled: 'Dispatch successfully cancelled.',
  cancelFailed: 'Failed to cancel Dispatch.',
  partialSettlement: (percentMissing: string) =>
    `Partial settlement: ${percentMissing}% of nodes are not included in this cost because their data is incomplete.`,
} as const;

/** The measurement section of a dispatch's detail (issue 33 item 1): how the request's energy splits. */
export const MEASUREMENT_TEXTS = {
  title: 'Measurement',
  explain:
    'Delivered is the change at the meters of the nodes that accepted their orders against each home’s baseline: what its meter would have read with its battery on its own. The home’s load and the solar available are measured through the event (an order changes neither), and its battery is stepped as it runs by itself, charging from surplus solar and covering the load within its power and stored energy, from its charge at the start down to the lowest level it went on its own in the last 3 days. A home whose inverter does not report its load and solar takes its own same-time history on recent comparable days, adjusted to the same day. Delivered, rejected and not delivered add up to the request.',
  requested: 'Requested',
  baseline: 'Baseline (at the meters)',
  measured: 'Measured (at the meters)',
  delivered: 'Delivered',
  rejected: 'Rejected',
  notDelivered: 'Not delivered',
  rejectedReasons: { optedOut: 'opted out', offline: 'offline, no answer', notAllocated: 'no battery had room (inverter limit or state of charge)' },
  notDeliveredReasons: {
    offline: 'offline, no readings',
    stateOfCharge: 'state of charge',
    inverterLimit: 'inverter limit',
    household: 'the home’s own load and battery use against its baseline',
  },
  methods: (m: { counterfactual: number; comparableDays: number; sameDay: number; none: number }) =>
    `Baselines: ${m.counterfactual} from the home’s measured load and solar with its battery on its own, ${m.comparableDays} from comparable days, ${m.sameDay} flat from the hour before the start, ${m.none} without one.`,
  accuracy: (pct: string | null, nodes: number) =>
    pct === null ? 'Baseline error on undisturbed homes: no undisturbed home to compare.' : `Baseline error on undisturbed homes: ${pct}% (${nodes} homes).`,
  vppAccuracy: (pct: string | null, dispatches: number) =>
    pct === null
      ? 'This VPP’s baseline error over the last 90 days: no settled dispatch to compare.'
      : `This VPP’s baseline error over the last 90 days: ${pct}% (median of ${dispatches} settled dispatches).`,
  intervalsCaption: 'Per 5-minute interval (kW)',
  /** Issue 33 item 3: a RERT dispatch's intervals are under AEMO's intervention, paid under the contract and never at spot. */
  interventionCaption: 'Per 5-minute interval (kW). Each interval is under AEMO’s intervention (RERT): paid under the RERT contract, not at the spot price.',
  interventionHeader: 'Market',
  /** Issue 33 "Done when": each interval's settled price and the value of its delivered energy. */
  priceHeader: 'Price ($/MWh)',
  valueHeader: 'Value',
  pricedCaption:
    'Per 5-minute interval (kW). Delivered kW × seconds ÷ 3600 = kWh; × the interval’s price ÷ 1000 = its value (discharging earns, negative); the values add up to the settled cost.',
  interventionMark: 'Intervention',
} as const;

/** The list and detail path of a dispatch (spec 3 §2.1). */
export const DISPATCH_LIST_PATH = '/virtual-power-plants/dispatches?limit=10&offset=0';
export const dispatchPath = (id: number) => `/virtual-power-plants/dispatches/${id}`;

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

function zoneParts(epochS: number, timeZone: string) {
  const parts = new Intl.DateTimeFormat('en-AU', {
    timeZone,
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(epochS * 1000));
  const n = (t: string) => Number(parts.find((p) => p.type === t)?.value);
  return { year: n('year'), month: n('month'), day: n('day'), hour: n('hour'), minute: n('minute') };
}

/** The zone's offset from UTC at an instant (seconds), read from its wall clock. */
function offsetS(epochS: number, timeZone: string): number {
  const t = zoneParts(epochS, timeZone);
  return Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute) / 1000 - Math.floor(epochS / 60) * 60;
}

/**
 * Whether the wall-clock time of `epochS` happens twice in the zone (the hour repeated when daylight
 * saving ends): another instant, one offset change away, reads the same date, hour and minute.
 */
export function repeatsLocally(epochS: number, timeZone: string): boolean {
  const here = offsetS(epochS, timeZone);
  const wall = JSON.stringify(zoneParts(epochS, timeZone));
  return [epochS - 7200, epochS + 7200].some((near) => {
    const shift = here - offsetS(near, timeZone);
    return shift !== 0 && JSON.stringify(zoneParts(epochS + shift, timeZone)) === wall;
  });
}

/** The zone's name at an instant as en-AU writes it: 'AEDT', 'AEST', or 'GMT+10:30' where it has none. */
const zoneAbbr = (epochS: number, timeZone: string) =>
  new Intl.DateTimeFormat('en-AU', { timeZone, timeZoneName: 'short' }).formatToParts(new Date(epochS * 1000)).find((p) => p.type === 'timeZoneName')?.value ??
  '';

/**
 * A dispatch start as spec 3 §2.2 shows it, in the user's zone: 'D MMMM, h:mm a' within the current
 * year ('24 November, 3:05 pm'), 'D MMM YY, h:mm a' otherwise ('3 Jan 25, 9:00 am'). Month names
 * are written out here: ICU's short September is 'Sept' in en-AU. Where the local time happens twice
 * (the hour repeated as daylight saving ends) the zone follows ('5 April, 2:30 am AEDT' and '5 April,
 * 2:30 am AEST'), so two starts never read alike and an end never reads before its start.
 */
export function formatDispatchStart(epochS: number, timeZone: string, nowS: number): string {
  const t = zoneParts(epochS, timeZone);
  const h12 = t.hour % 12 === 0 ? 12 : t.hour % 12;
  const zone = repeatsLocally(epochS, timeZone) ? ` ${zoneAbbr(epochS, timeZone)}` : '';
  const time = `${h12}:${String(t.minute).padStart(2, '0')} ${t.hour < 12 ? 'am' : 'pm'}${zone}`;
  const month = MONTHS[t.month - 1];
  if (t.year === zoneParts(nowS, timeZone).year) return `${t.day} ${month}, ${time}`;
  return `${t.day} ${month.slice(0, 3)} ${String(t.year % 100).padStart(2, '0')}, ${time}`;
}

const ISO_STAMP = /\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?Z\b/g;

/**
 * An audit detail as the user reads it: the UTC ISO stamps the server records ('Rescheduled from
 * 2026-11-28T05:00:00Z …') written as dispatch times in the user's zone ('28 November, 4:00 pm').
 */
export const localiseStamps = (text: string, timeZone: string, nowS: number) =>
  text.replace(ISO_STAMP, (iso) => formatDispatchStart(Date.parse(iso) / 1000, timeZone, nowS));

/** The state as users read it (spec 3 §4: INPROGRESS is 'In Progress'); a cancelled dispatch says so. */
export function dispatchStatusLabel(d: Pick<DispatchSummary, 'state' | 'cancelledAt'>): string {
  if (d.cancelledAt !== null) return 'Cancelled';
  return { UPCOMING: 'Upcoming', INPROGRESS: 'In Progress', COMPLETED: 'Completed' }[d.state];
}

/** What the request asks of the batteries, by the sign of its power (spec 3 §3.1). */
export const requestKind = (realPowerP: number) => (realPowerP > 0 ? 'Charge' : realPowerP < 0 ? 'Discharge' : 'Lockout');

/** The Event cell's first line: the reason (RERT and outages carry one), or the kind of event. */
export const eventLabel = (d: Pick<DispatchSummary, 'reason'>) => d.reason ?? 'Dispatch';

export const REFRESH_FAST_MS = 2_000;
export const REFRESH_IN_PROGRESS_MS = 8_000;
export const REFRESH_SLOW_MS = 5 * 60_000;

/**
 * How often the detail refreshes (spec 3 §4): every 2 s while created under 60 s ago, every 8 s while
 * in progress, otherwise every 5 minutes; an upcoming dispatch is also fetched again as it starts, so
 * that the page turns to In Progress on time. A cancelled dispatch is no longer in progress.
 */
export function detailRefreshMs(d: Pick<DispatchSummary, 'createdAt' | 'cancelledAt' | 'request'>, nowMs: number): number {
  const now = nowMs / 1000;
  if (now - d.createdAt < 60) return REFRESH_FAST_MS;
  if (d.cancelledAt !== null) return REFRESH_SLOW_MS;
  const { startTime, duration } = d.request;
  if (now >= startTime && now < startTime + duration) return REFRESH_IN_PROGRESS_MS;
  if (now < startTime) return Math.min(REFRESH_SLOW_MS, Math.max(REFRESH_FAST_MS, Math.ceil((startTime - now) * 1000) + 500));
  return REFRESH_SLOW_MS;
}

/** The graphs' y-domain padding: 22% of the span (spec 3 §9). */
export const GRAPH_Y_PAD = 0.22;
/** A tick every 30 minutes (spec 3 §9). */
export const GRAPH_TICK_S = 1800;

/** The unit and factor of a graph's axis: kW or kWh, MW or MWh when a value exceeds 1000 (spec 3 §9). */
export function graphScale(values: readonly (number | null)[], energy: boolean): { unit: string; factor: number } {
  const maxAbs = values.reduce<number>((m, v) => (v === null ? m : Math.max(m, Math.abs(v))), 0);
  const { unit, factor } = powerScale(maxAbs);
  return { unit: energy ? `${unit}h` : unit, factor };
}

/** Money on screen: one format for every area (packages/shared format.ts). */
export { formatAud };

/** A price in $/MWh with 2 decimals. */
export const formatPrice = (v: number) => `${formatAud(v)}/MWh`;

/** The heading of the cost section by its type (spec 3 §3.3, §4). */
export const COST_TYPE_LABELS = { DISPATCH_NOT_STARTED: 'Not started (forecast)', ESTIMATE: 'Estimated', SETTLED: 'Settled' } as const;

/** Where a quote's newest forecast came from, as the dispatch page names it. */
const FORECAST_SOURCES: Record<string, string> = {
  P5MIN: "AEMO's P5MIN forecast",
  PREDISPATCH: "AEMO's PREDISPATCH forecast",
  MODEL: "the console's price forecast",
  ACTUAL: 'the actual prices',
};

/** The quote a dispatch kept at its creation, and how its outcome differs (issue 33 item 2). */
export const QUOTE_TEXTS = {
  title: 'Quote and outcome',
  quote: (cost: number, price: number, source: string, issued: string) =>
    `Quoted at creation: ${cost < 0 ? 'revenue' : 'cost'} ${formatAud(Math.abs(cost))} at an average of ${formatAud(price)}/MWh, from ${FORECAST_SOURCES[source] ?? source} issued ${issued}.`,
  difference: (type: 'ESTIMATE' | 'SETTLED', difference: number) =>
    difference === 0
      ? `The ${type === 'SETTLED' ? 'settled' : 'estimated'} outcome equals the quote.`
      : `The ${type === 'SETTLED' ? 'settled' : 'estimated'} outcome ${difference > 0 ? 'cost' : 'earned'} ${formatAud(Math.abs(difference))} more than quoted: the actual prices differed from the forecast.`,
  noQuote: 'No quote was kept for this dispatch (created before quotes were kept, or with no NEM price).',
} as const;

/** The percent of nodes left out of a partial settlement, or null when coverage is complete (spec 3 §4). */
export function percentNotIncluded(coverage: number | null): string | null {
  if (coverage === null || coverage >= 1) return null;
  // One decimal, and never '0' for a coverage just short of complete.
  const missing = Math.max(0.1, Math.round((1 - Math.max(0, coverage)) * 1000) / 10);
  return Number.isInteger(missing) ? String(missing) : missing.toFixed(1);
}

/** Spec 3 §4.1 and §9: duration and power changes refresh constraints, predictions and prices after 300 ms (the New-event modals). */
export const REFRESH_DEBOUNCE_MS = 300;
