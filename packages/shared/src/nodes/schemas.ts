import { z } from 'zod';
import { epochSeconds, pagingFields, recordId, refineSeriesRange, sortFields, tooLongMessage } from '../api/inputs.ts';
import { AUSTRALIAN_STATES } from '../constants.ts';

/**
 * A comma-separated list of names from `allowed` in a query string (`metrics=solarPower,meterPower`):
 * blanks dropped, each name checked, the message naming the allowed ones. The one parser of lists.
 */
export function commaList<const T extends readonly string[]>(
  allowed: T,
  opts: { field: string; required?: string; empty?: string; normalise?: (name: string) => string },
) {
  const among = `${opts.field} must be among ${allowed.join(', ')}.`;
  const normalise = opts.normalise ?? ((n: string) => n);
  return z
    .string(opts.required ? { error: opts.required } : undefined)
    .max(2000, `${opts.field} is too long.`)
    .transform((s) =>
      s
        .split(',')
        .map((m) => normalise(m.trim()))
        .filter(Boolean),
    )
    .refine((ms) => ms.length > 0 || !opts.empty, opts.empty ?? among)
    .refine((ms) => (opts.empty ? true : ms.length > 0) && ms.every((m) => (allowed as readonly string[]).includes(m)), among)
    .transform((ms) => ms as T[number][]);
}

export const NODE_STATUSES = ['ONLINE', 'OFFLINE', 'AWAITING_CONTACT', 'NOT_COMMISSIONED'] as const;
export type NodeStatus = (typeof NODE_STATUSES)[number];

/** Display status of spec 2 §4 from the unit state and the last ping. */
export function nodeStatus(n: { state: string; status: { ping: { lastTimestamp: number | null; connectionOffline: boolean } } }): NodeStatus {
  if (n.state !== 'COMMISSIONED') return 'NOT_COMMISSIONED';
  if (!n.status.ping.connectionOffline) return 'ONLINE';
  return n.status.ping.lastTimestamp ? 'OFFLINE' : 'AWAITING_CONTACT';
}

export const inverterSchema = z.object({
  id: z.string(),
  name: z.string(),
  brand: z.string(),
  imageUrl: z.string(),
  minPower: z.number(),
  maxPower: z.number(),
  phases: z.number(),
  hasWebPortal: z.boolean(),
});
export const batterySchema = z.object({
  id: z.string(),
  name: z.string(),
  brand: z.string(),
  imageUrl: z.string(),
  capacity: z.number(),
  usableCapacity: z.number(),
  maxPower: z.number(),
});
export const energySystemSchema = z.object({ id: z.string(), inverter: inverterSchema, battery: batterySchema.nullable() });
export const meterGroupSchema = z.object({
  id: z.string(),
  name: z.string(),
  manufacturer: z.string(),
  model: z.string(),
  meters: z.array(z.object({ hwid: z.string() })),
});
export type EnergySystem = z.infer<typeof energySystemSchema>;
export type MeterGroup = z.infer<typeof meterGroupSchema>;

export const nodeSchema = z.object({
  id: z.number(),
  siteLabel: z.string().nullable(),
  address: z.object({
    lat: z.number(),
    lng: z.number(),
    street: z.string(),
    suburb: z.string(),
    state: z.enum(AUSTRALIAN_STATES),
    postcode: z.string(),
    text: z.string(),
  }),
  /** The network is hidden (null) for installer accounts; the NMI is not. */
  network: z.object({ nmi: z.string(), network: z.string().nullable() }),
  timezone: z.string(),
  system: z.object({
    reposit: z.object({ serialNumber: z.string() }),
    inverter: z.array(z.object({ brand: z.string() })),
    battery: z.array(z.object({ brand: z.string() })),
  }),
  state: z.enum(['COMMISSIONED', 'NOT_COMMISSIONED']),
  status: z.object({ ping: z.object({ lastTimestamp: z.number().nullable(), connectionOffline: z.boolean() }) }),
  displayStatus: z.enum(NODE_STATUSES),
  phases: z.number(),
  hasSolar: z.boolean(),
  hasBattery: z.boolean(),
  hasInverter: z.boolean(),
  solarCapacity: z.number(),
  reposit: z.object({
    serialNumber: z.string(),
    product: z.string(),
    state: z.enum(['COMMISSIONED', 'NOT_COMMISSIONED']),
    commissionedDate: z.number().nullable(),
  }),
  included: z.boolean().optional(),
});
export type Node = z.infer<typeof nodeSchema>;

export const nodeDetailSchema = nodeSchema.extend({
  energySystems: z.array(energySystemSchema),
  gridMeters: z.array(meterGroupSchema),
  solarMeters: z.array(meterGroupSchema),
  subMeters: z.array(z.object({ id: z.number(), name: z.string() })),
  subMeterGroups: z.array(meterGroupSchema),
});
export type NodeDetail = z.infer<typeof nodeDetailSchema>;

export const nameplateSchema = z.object({ batteryCapacity: z.number(), inverterPower: z.number(), batteryPower: z.number(), totalDeployments: z.number() });
export type Nameplate = z.infer<typeof nameplateSchema>;

const boolString = z.enum(['true', 'false']).transform((v) => v === 'true');
export const pagingQuery = z.object(pagingFields());

/** What the fleet list sorts by (issue 10 item 14): node id (default), site label, display status, last contact. */
export const NODE_SORTS = ['id', 'siteLabel', 'status', 'lastContact'] as const;
export type NodeSort = (typeof NODE_SORTS)[number];

/** `postcodes` is comma-separated; the value NULL stands for an empty list (spec 2 §5). */
/** The fleet search's longest text, and what a longer one is answered with. */
export const NODE_SEARCH_MAX = 200;
export const NODE_SEARCH_TOO_LONG = tooLongMessage('The search', NODE_SEARCH_MAX);

export const nodeListQuery = pagingQuery.extend({
  ...sortFields(NODE_SORTS, 'id'),
  f: z.string().trim().max(NODE_SEARCH_MAX, NODE_SEARCH_TOO_LONG).optional(),
  state: z.enum(AUSTRALIAN_STATES, { error: `state must be one of ${AUSTRALIAN_STATES.join(', ')}.` }).optional(),
  postcodes: z
    .string()
    .max(5000, 'postcodes is too long.')
    .optional()
    .transform((v) => (v === undefined ? undefined : v === 'NULL' || v.trim() === '' ? [] : v.split(',').map((p) => p.trim())))
    .refine((v) => v === undefined || v.every((p) => /^\d{4}$/.test(p)), 'postcodes must be four-digit postcodes separated by commas.'),
  status: z.enum(NODE_STATUSES, { error: `status must be one of ${NODE_STATUSES.join(', ')}.` }).optional(),
  nameplate: boolString.optional(),
});
export type NodeListQuery = z.infer<typeof nodeListQuery>;

/** The fleet map takes the list's search and display-status filter. */
export const mapQuery = nodeListQuery.pick({ f: true, status: true });

export const nodeListReply = z.object({ deployments: z.array(nodeSchema), total: z.number(), nameplate: nameplateSchema.optional() });

export const siteLabelBody = z.object({
  siteLabel: z.string({ error: 'siteLabel is required.' }).trim().max(100, 'The site label can be at most 100 characters.'),
});

/** What the Event Log's Event column shows for each kind of node history event; another kind reads as its name in words. */
export const NODE_EVENT_LABELS: Record<string, string> = {
  DISPATCH: 'Dispatch',
  RERT: 'RERT dispatch',
  GRID_OUTAGE: 'Grid outage',
};

/** The Event column's text for a node history event type. */
export function nodeEventLabel(eventType: string): string {
  return (
    NODE_EVENT_LABELS[eventType] ??
    eventType
      .replaceAll('_', ' ')
      .toLowerCase()
      .replace(/^./, (c) => c.toUpperCase())
  );
}

export const nodeEventSchema = z.object({ id: z.number(), ts: z.number(), eventType: z.string(), description: z.string(), duration: z.number().nullable() });
export type NodeEvent = z.infer<typeof nodeEventSchema>;
export const nodeEventsReply = z.object({ data: z.array(nodeEventSchema), meta: z.object({ total: z.number(), pageCount: z.number() }) });

/** Metrics a node's monitoring series can carry (spec 2 §3), as the API names them. */
export const NODE_METRICS = [
  'meterPower',
  'meterPowerA',
  'meterPowerB',
  'meterPowerC',
  'solarPower',
  'batteryPower',
  'housePower',
  'meterSGA',
  'meterVoltage',
  'meterVoltageA',
  'meterVoltageB',
  'meterVoltageC',
  'meterFrequency',
  'meterReactivePower',
  'solarReactivePower',
  'meterCurrent',
  'soc',
  'remainingCharge',
] as const;
export type NodeMetric = (typeof NODE_METRICS)[number];

const metricList = commaList(NODE_METRICS, { field: 'metrics', required: 'metrics is required.', empty: 'metrics must name at least one metric.' });

const epochS = epochSeconds;
export const INTERVALS = [30, 300, 3600, 86400] as const;
const interval = z.coerce
  .number({ error: 'interval must be 30, 300, 3600 or 86400 seconds.' })
  .refine((v) => (INTERVALS as readonly number[]).includes(v), 'interval must be 30, 300, 3600 or 86400 seconds.');

export const seriesQuery = z
  .object({ metrics: metricList, start: epochS('start'), end: epochS('end'), interval, fill: z.enum(['null']).optional() })
  .superRefine(refineSeriesRange);

/** A series keyed by epoch seconds; each point holds the asked metrics (null where there is no data). */
export const seriesReply = z.object({ status: z.literal('OK'), series: z.record(z.string(), z.record(z.string(), z.number().nullable())) });

export const summaryQuery = z.object({ start: epochS('start'), interval });
export const summarySchema = z.object({ meterImport: z.number(), meterExport: z.number(), solarGeneration: z.number(), houseConsumption: z.number() });
export const summaryReply = z.object({ status: z.literal('OK'), summary: summarySchema, start: z.number(), end: z.number() });

/** The metrics the whole fleet's series sums. */
export const FLEET_METRICS = ['solarPower', 'meterPower', 'batteryPower', 'housePower', 'remainingCharge'] as const;

export const fleetSeriesQuery = z
  .object({
    id: z.string().default('__ALL_FLEET_NODES__'),
    metrics: commaList(FLEET_METRICS, { field: 'metrics', required: 'metrics is required.' }),
    interval,
    start: epochS('start'),
    end: epochS('end').optional(),
  })
  .superRefine(refineSeriesRange);

export const mapNodeSchema = z.object({
  id: z.number(),
  lat: z.number(),
  lng: z.number(),
  siteLabel: z.string().nullable(),
  displayStatus: z.enum(NODE_STATUSES),
});
export const mapReply = z.object({ deployments: z.array(mapNodeSchema) });
export const totalsReply = z.object({
  status: z.literal('OK'),
  data: z.object({ deploymentCounts: z.object({ commissioned: z.number(), non_commissioned: z.number(), offline: z.number() }) }),
});

export const submeterQuery = z
  .object({
    aggregation_base: z.enum(['client']).default('client'),
    delta_t: interval,
    start: epochS('start'),
    end: epochS('end'),
    id: recordId('submeter', 'id'),
  })
  .superRefine((q, ctx) => refineSeriesRange({ ...q, interval: q.delta_t }, ctx));
export const submeterReply = z.object({
  status: z.literal('OK'),
  data: z.record(z.string(), z.object({ p: z.number().nullable(), q: z.number().nullable() })),
});
