import { z } from 'zod';
import { epochSeconds, MAX_ID, MAX_LIST, refineSeriesRange } from '../api/inputs.ts';
import { AUSTRALIAN_STATES } from '../constants.ts';
import { commaList, nameplateSchema, pagingQuery } from '../nodes/schemas.ts';
import { VPP_MESSAGES } from './messages.ts';
import { VPP_TYPES } from './rules.ts';

const stateEnum = z.enum(AUSTRALIAN_STATES, { error: `state must be one of ${AUSTRALIAN_STATES.join(', ')}.` });
const boolString = z.enum(['true', 'false'], { error: 'Use true or false.' }).transform((v) => v === 'true');

/** A VPP (powerstation) as the API answers it (spec 2 §3). `nodes` is the number of member nodes. */
export const powerstationSchema = z.object({
  id: z.number(),
  name: z.string(),
  type: z.enum(VPP_TYPES),
  filters: z.object({ postcodes: z.array(z.string()), state: z.enum(AUSTRALIAN_STATES).nullable() }),
  /** The AEMO dispatchable unit identifier of an FCAS VPP; null for the others. */
  duid: z.string().nullable(),
  nodes: z.number(),
  namePlate: nameplateSchema,
  createdAt: z.number(),
});
export type Powerstation = z.infer<typeof powerstationSchema>;

const typeList = commaList(VPP_TYPES, { field: 'type', normalise: (t) => t.toUpperCase() });

/** `type` (comma-separated) narrows the list, e.g. to the FCAS VPPs shown below the main list. */
export const powerstationListQuery = pagingQuery.extend({ type: typeList.optional() });
export const powerstationListReply = z.object({ result: z.array(powerstationSchema), total: z.number() });

const nodeIds = z
  .array(
    z
      .number({ error: 'nodes must be a list of node ids.' })
      .int('nodes must be a list of node ids.')
      .min(1, 'nodes must be a list of node ids.')
      .max(MAX_ID, 'nodes must be a list of node ids.'),
    { error: 'nodes must be a list of node ids.' },
  )
  .max(MAX_LIST, `nodes can hold at most ${MAX_LIST} node ids: add more with a filter.`);

/** Create (POST) and update (PUT) body: the rules of spec 2 §5 are checked by `vppFieldErrors`. */
export const powerstationBody = z.object({
  type: z.enum(VPP_TYPES, { error: `type must be one of ${VPP_TYPES.join(', ')}.` }),
  name: z.string({ error: VPP_MESSAGES.nameRequired }),
  nodes: nodeIds.optional(),
  filters: z
    .object({
      postcodes: z
        .array(z.string({ error: 'postcodes must be a list of postcodes.' }).max(20, 'postcodes must be a list of postcodes.'), {
          error: 'postcodes must be a list of postcodes.',
        })
        .max(1000, 'postcodes can hold at most 1000 postcodes.')
        .nullable()
        .optional(),
      state: stateEnum.nullable().optional(),
    })
    .nullable()
    .optional(),
});
export type PowerstationBody = z.infer<typeof powerstationBody>;

export const powerstationCreateReply = z.object({ status: z.literal('OK'), data: z.object({ id: z.number(), type: z.enum(VPP_TYPES) }) });

export const DEPLOYMENT_STATES = ['COMMISSIONED', 'NOT_COMMISSIONED'] as const;
const deploymentState = z.enum(DEPLOYMENT_STATES, { error: `deployment_state must be ${DEPLOYMENT_STATES.join(' or ')}.` });
const search = z.string().trim().max(200, 'A search can be at most 200 characters.');

/** Which nodes of the fleet: `f` searches everything, `address_filter` only the address. */
export const vppNodeFilter = z.object({ f: search.optional(), address_filter: search.optional(), deployment_state: deploymentState.optional() });
export type VppNodeFilter = z.infer<typeof vppNodeFilter>;

/** Patch body: an optional new name, and nodes to add or remove by id list or by filter. */
export const powerstationPatchBody = z.object({
  name: z.string({ error: VPP_MESSAGES.nameRequired }).optional(),
  nodes: z
    .object({
      method: z.enum(['add', 'remove'], { error: 'nodes.method must be add or remove.' }),
      filter: vppNodeFilter.optional(),
      list: nodeIds.optional(),
    })
    .optional(),
});
export type PowerstationPatchBody = z.infer<typeof powerstationPatchBody>;

/**
 * A VPP's nodes; with include_unused_deployments=true also the fleet's nodes outside it, each
 * flagged `included` (the manual VPP's edit screen).
 */
export const powerstationNodesQuery = pagingQuery.extend({
  f: search.optional(),
  address_filter: search.optional(),
  include_unused_deployments: boolString.optional(),
  deployment_state: deploymentState.optional(),
});

/** Metrics of the latest readings a VPP answers per node (the voltage heat map reads meterVoltage). */
export const VPP_LATEST_METRICS = ['meterVoltage', 'meterPower', 'solarPower', 'batteryPower', 'soc', 'remainingCharge'] as const;
export const latestQuery = z.object({
  metrics: commaList(VPP_LATEST_METRICS, { field: 'metrics', required: 'metrics is required.' }),
  format: z.enum(['nodes', 'total'], { error: 'format must be nodes or total.' }).default('nodes'),
  maxAge: z.coerce
    .number({ error: 'maxAge must be a number of seconds from 1 to 86400.' })
    .int('maxAge must be a number of seconds from 1 to 86400.')
    .min(1, 'maxAge must be a number of seconds from 1 to 86400.')
    .max(86400, 'maxAge must be a number of seconds from 1 to 86400.')
    .default(1200),
});
export const latestPointSchema = z.object({ id: z.number(), lat: z.number(), lng: z.number(), ts: z.number(), value: z.number() });
/** A metric's latest readings added up over the member nodes (format=total): the sum and how many nodes reported. */
export const latestTotalSchema = z.object({ value: z.number(), nodes: z.number() });
/**
 * format=nodes: `{status, <metric>: [{id, lat, lng, ts, value}]}`, one point per member node with a
 * reading younger than maxAge. format=total (the dashboard's Single Stat, issue 30): `{status,
 * totals: {<metric>: {value, nodes}}}`, the same readings added up on the server.
 */
export const latestReply = z.object({
  status: z.literal('OK'),
  ...(Object.fromEntries(VPP_LATEST_METRICS.map((m) => [m, z.array(latestPointSchema).optional()])) as Record<
    (typeof VPP_LATEST_METRICS)[number],
    z.ZodOptional<z.ZodArray<typeof latestPointSchema>>
  >),
  totals: z.partialRecord(z.enum(VPP_LATEST_METRICS), latestTotalSchema).optional(),
});

export const VPP_SERIES_METRICS = ['solarPower', 'meterPower', 'batteryPower', 'housePower', 'remainingCharge'] as const;

/** A VPP's series: at each bucket the sum over its member nodes; `end` defaults to a day after `start`. */
export const vppSeriesQuery = z
  .object({
    metrics: commaList(VPP_SERIES_METRICS, { field: 'metrics', required: 'metrics is required.' }),
    interval: z.coerce
      .number({ error: 'interval must be 300 or 3600 seconds.' })
      .refine((v) => v === 300 || v === 3600, 'interval must be 300 or 3600 seconds.'),
    start: epochSeconds('start'),
    end: epochSeconds('end').optional(),
  })
  .superRefine(refineSeriesRange);
