import { z } from 'zod';
import { epochSeconds, queryInt, recordId } from '../api/inputs.ts';
import { DISPATCH_INTERVAL_S, MARKET_FORECAST_S, NEM_REGIONS } from './rules.ts';

const onInterval = (t: number | undefined) => t === undefined || t % DISPATCH_INTERVAL_S === 0;

/**
 * The range of a VPP's price series: the 30-minute buckets that begin in [start, end). `start`
 * defaults to the start of today in the account's time zone (a day before `end` when only `end` is
 * given), `end` to a day after `start`; at most 2 days.
 */
export const powerstationPricesQuery = z.object({ start: epochSeconds('start').optional(), end: epochSeconds('end').optional() }).superRefine((q, ctx) => {
  if (q.start === undefined || q.end === undefined) return;
  if (q.end <= q.start) ctx.addIssue({ code: 'custom', message: 'end must be after start.', path: ['end'] });
  else if (q.end - q.start > MARKET_FORECAST_S) ctx.addIssue({ code: 'custom', message: 'A price series can cover at most 2 days.', path: ['end'] });
});

const regionCount = z.object({ region: z.string(), nodes: z.number() });

/**
 * A VPP's market prices (spec 3 §3.2, trading data). `market.rrp` is keyed by the start of each
 * 30-minute bucket (epoch seconds) and holds the average of its six 5-minute regional reference
 * prices in $/MWh: prices already set (AEMO's when imported, otherwise the market model's), the
 * model's forecast for intervals still to come. `market.region` is the region holding most of the
 * VPP's nodes; `market.multipleRegions` is true when its nodes span several NEM regions. `market`
 * is null, with `reason` saying why, when the VPP has no node in the NEM; with a market, `reason`
 * says how many of its nodes are outside the NEM (WA, NT) and not priced (issue 33 item 8), or is null.
 */
export const powerstationPricesReply = z.object({
  status: z.literal('OK'),
  market: z
    .object({
      region: z.enum(NEM_REGIONS),
      multipleRegions: z.boolean(),
      step: z.literal(1800),
      rrp: z.record(z.string(), z.number().nullable()),
    })
    .nullable(),
  /** The VPP's nodes by market region (WEM for WA, NT for the Northern Territory), most first. */
  regions: z.array(regionCount),
  reason: z.string().nullable(),
});
export type PowerstationPricesReply = z.infer<typeof powerstationPricesReply>;

const realPowerMessage = 'realPowerP must be a number of kW from -10000000 to 10000000.';
const powerFactorMessage = 'powerFactor must be a number from 0.7 to 1.';
const blankIsMissing = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

/** `GET /dispatch/price`: the dispatch the New Dispatch modal is drawing up (spec 3 §7). */
export const dispatchPriceQuery = z
  .object({
    powerstation: recordId('powerstation', 'The Virtual Power Plant id'),
    startTime: epochSeconds('startTime'),
    duration: queryInt('duration', DISPATCH_INTERVAL_S, MARKET_FORECAST_S),
    realPowerP: z.preprocess(blankIsMissing, z.coerce.number({ error: realPowerMessage }).min(-1e7, realPowerMessage).max(1e7, realPowerMessage)),
    /** Accepted as the modal sends it; a power factor changes reactive power only, so not the price. */
    powerFactor: z
      .preprocess(blankIsMissing, z.coerce.number({ error: powerFactorMessage }).min(0.7, powerFactorMessage).max(1, powerFactorMessage))
      .optional(),
  })
  .superRefine((q, ctx) => {
    // A field that failed its own check has said what is wrong: the step is judged only on a valid value.
    if (Number.isInteger(q.startTime) && q.startTime >= 0 && !onInterval(q.startTime))
      ctx.addIssue({ code: 'custom', message: 'startTime must be on a 5-minute boundary.', path: ['startTime'] });
    const durationInRange = Number.isInteger(q.duration) && q.duration >= DISPATCH_INTERVAL_S && q.duration <= MARKET_FORECAST_S;
    if (durationInRange && !onInterval(q.duration))
      ctx.addIssue({ code: 'custom', message: 'duration must be a whole number of 5-minute steps (a multiple of 300 seconds).', path: ['duration'] });
  });
export type DispatchPriceQuery = z.infer<typeof dispatchPriceQuery>;

/**
 * The prices of a dispatch being drawn up, at the forecast 5-minute prices of the VPP's region
 * (`region`, as in its price series) over the intervals of [startTime, startTime + duration):
 *
 * - `dispatchPrice` (AUD, to the cent): the cost of the requested energy, the sum over those
 *   intervals of realPowerP kW × 5/60 h × price $/MWh ÷ 1000. Charging (realPowerP > 0) at a
 *   positive price costs money (positive); discharging earns it (negative); a lockout costs 0.
 * - `tradingPrice` ($/MWh, to the cent): the sell price, the plain average of those forecast
 *   5-minute prices.
 *
 * Both are null, with `reason`, when the VPP has no node in the NEM or the dispatch ends more than
 * 2 days from now (the model forecasts no further). With prices, `reason` says how many of the VPP's
 * nodes are outside the NEM (WA, NT) and not priced (issue 33 item 8), or is null.
 */
export const dispatchPriceReply = z.object({
  status: z.literal('OK'),
  dispatchPrice: z.number().nullable(),
  tradingPrice: z.number().nullable(),
  region: z.enum(NEM_REGIONS).nullable(),
  multipleRegions: z.boolean(),
  reason: z.string().nullable(),
});
export type DispatchPriceReply = z.infer<typeof dispatchPriceReply>;

/** The file's name as the importer reports it (the body is the file itself). */
export const priceImportQuery = z.object({
  fileName: z.string().trim().min(1, 'fileName must not be empty.').max(255, 'fileName can be at most 255 characters.').optional(),
});

/** Actual prices: PRICE_AND_DEMAND and DISPATCHPRICE; forecasts: P5MIN (P5MIN_REGIONSOLUTION) and PREDISPATCH (PREDISPATCHPRICE). */
export const PRICE_FILE_FORMATS = ['PRICE_AND_DEMAND', 'DISPATCHPRICE', 'P5MIN', 'PREDISPATCH'] as const;
/** The formats whose prices are forecasts, stored apart from the actual prices. */
export const FORECAST_FILE_FORMATS: readonly (typeof PRICE_FILE_FORMATS)[number][] = ['P5MIN', 'PREDISPATCH'];

/**
 * What one import did: `prices` prices read from the file (INTERVENTION=0 rows only; of an actual
 * price file the newest of each 5-minute interval, of a forecast file one per run, region and
 * period), `written` of them stored (replacing the model's, or an older import's; a forecast
 * replaces only the same run's), `kept` not stored because a newer price of the same interval was
 * already there; `from` and `to` bound the intervals (epoch seconds, start of the first and end of
 * the last); `forecast` tells a forecast file's prices, stored apart from the actual ones.
 */
export const priceImportReply = z.object({
  status: z.literal('OK'),
  data: z.object({
    fileName: z.string(),
    format: z.enum(PRICE_FILE_FORMATS),
    regions: z.array(z.enum(NEM_REGIONS)),
    prices: z.number(),
    written: z.number(),
    kept: z.number(),
    from: z.number(),
    to: z.number(),
    forecast: z.boolean(),
  }),
});
