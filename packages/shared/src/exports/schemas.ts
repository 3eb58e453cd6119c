import { z } from 'zod';
import { timeZoneName } from '../account/schemas.ts';
import { okReply } from '../api/envelope.ts';
import { bodyId, boundedList, MAX_EPOCH_S, pagingFields, recordId } from '../api/inputs.ts';
import type { SuborgType } from '../constants.ts';
import { EXPORT_MESSAGES as M } from './messages.ts';

/** Job statuses (spec 2 §4) and the text each shows. */
export const EXPORT_STATUSES = ['SUCCESS', 'PENDING', 'PROGRESS', 'FAILURE', 'REMOVED', 'CANCELLED'] as const;
export type ExportStatus = (typeof EXPORT_STATUSES)[number];
export const EXPORT_STATUS_TEXT: Record<ExportStatus, string> = {
  SUCCESS: 'Completed',
  PENDING: 'Submitted',
  PROGRESS: 'In Progress',
  FAILURE: 'Failed',
  REMOVED: 'Removed',
  CANCELLED: 'Cancelled',
};
/** Statuses of a job still running: the list refreshes every 5 s while the newest job has one. */
export const EXPORT_ACTIVE_STATUSES: readonly ExportStatus[] = ['PENDING', 'PROGRESS'];
/** The list's refresh (spec 2 §4, §9): 30 s, or 5 s while the newest export is PENDING or PROGRESS. */
export const EXPORT_REFRESH_MS = 30_000;
export const EXPORT_ACTIVE_REFRESH_MS = 5_000;

export const EXPORT_TYPES = ['operational', 'customer'] as const;
export type ExportType = (typeof EXPORT_TYPES)[number];

/**
 * The exportable metrics of spec 2 §9, with the spec's flags: `network` and `retailer` say which
 * organisations see it (voltage, reactive and current metrics are network-only); `sga` needs the SGA
 * data permission; `phased` has per-phase columns with Split by Phase; `submeter` reads the submeters
 * (only with Include Submeter Data). `unit` is the unit of its values.
 */
export const EXPORT_METRICS = [
  { id: 'meter_power', label: 'Meter Power', unit: 'kW', network: true, retailer: true, sga: false, phased: true, submeter: false },
  { id: 'meter_voltage', label: 'Meter Voltage', unit: 'V', network: true, retailer: false, sga: false, phased: true, submeter: false },
  { id: 'meter_power_reactive', label: 'Meter Power Reactive', unit: 'kvar', network: true, retailer: false, sga: false, phased: false, submeter: false },
  { id: 'meter_frequency', label: 'Meter Frequency', unit: 'Hz', network: true, retailer: true, sga: false, phased: false, submeter: false },
  { id: 'solar_power', label: 'Solar Power', unit: 'kW', network: true, retailer: true, sga: false, phased: false, submeter: false },
  { id: 'meter_sga_power', label: 'Meter SGA Power', unit: 'kW', network: true, retailer: true, sga: true, phased: false, submeter: false },
  { id: 'battery_power', label: 'Battery Power', unit: 'kW', network: true, retailer: true, sga: false, phased: false, submeter: false },
  { id: 'inverter_power_reactive', label: 'Inverter Power Reactive', unit: 'kvar', network: true, retailer: false, sga: false, phased: false, submeter: false },
  { id: 'remaining_charge', label: 'Remaining Charge', unit: 'kWh', network: true, retailer: true, sga: false, phased: false, submeter: false },
  { id: 'meter_current', label: 'Meter Current', unit: 'A', network: true, retailer: false, sga: false, phased: false, submeter: false },
  { id: 'submeter_power', label: 'Submeter Power', unit: 'kW', network: true, retailer: true, sga: false, phased: false, submeter: true },
  { id: 'submeter_power_reactive', label: 'Submeter Power Reactive', unit: 'kvar', network: true, retailer: false, sga: false, phased: false, submeter: true },
] as const;
export type ExportMetricOption = (typeof EXPORT_METRICS)[number];
export type ExportMetric = ExportMetricOption['id'];
export const EXPORT_METRIC_IDS = EXPORT_METRICS.map((m) => m.id) as unknown as readonly [ExportMetric, ...ExportMetric[]];
export const exportMetricOption = (id: string): ExportMetricOption | undefined => EXPORT_METRICS.find((m) => m.id === id);

/**
 * The metrics an organisation may export (spec 2 §5): network organisations those flagged network,
 * others those flagged retailer; meter SGA power only with the SGA data permission.
 */
export function exportMetricsFor(suborgType: SuborgType, canViewSga: boolean): ExportMetricOption[] {
  return EXPORT_METRICS.filter((m) => (suborgType === 'NETWORK' ? m.network : m.retailer) && (canViewSga || !m.sga));
}

/**
 * The metrics a redirect query pre-selects (spec 2 §2: `solar`, `battery`, `sga` say what the node
 * has): the allowed ones, without solar metrics when solar is false, battery metrics when battery is
 * false, SGA when sga is false. An absent flag keeps its metrics.
 */
export function exportMetricsForNode(allowed: readonly ExportMetricOption[], has: { solar?: boolean; battery?: boolean; sga?: boolean }): ExportMetricOption[] {
  const drop = new Set<string>();
  if (has.solar === false) drop.add('solar_power').add('inverter_power_reactive');
  if (has.battery === false) drop.add('battery_power').add('remaining_charge');
  if (has.sga === false) drop.add('meter_sga_power');
  return allowed.filter((m) => !drop.has(m.id));
}

/**
 * The downsampling intervals of spec 2 §9's sampling set that the telemetry rollups serve exactly.
 * Rows are the buckets of the export's time zone (the account's zone its start and end are in):
 * 5 to 30 minutes are whole multiples of the 5-minute rollup; 1h, 6h and 12h the zone's local hours
 * (6h and 12h start at local 00:00, 06:00, 12:00 and 18:00); 1d its local days; 3d and 1w runs of 3
 * and 7 local days from the export's start (the last one cut at its end). 5s, 30s and 1m are not
 * offered: they would read raw samples, kept only TELEMETRY_RAW_RETENTION_DAYS. Each: value, label,
 * and nominal seconds (local days and hours across a DST change are 23 or 25 hours, not 24).
 */
export const EXPORT_INTERVALS = [
  { value: '5m', label: '5 minutes', seconds: 300 },
  { value: '10m', label: '10 minutes', seconds: 600 },
  { value: '30m', label: '30 minutes', seconds: 1800 },
  { value: '1h', label: '1 hour', seconds: 3600 },
  { value: '6h', label: '6 hours', seconds: 21600 },
  { value: '12h', label: '12 hours', seconds: 43200 },
  { value: '1d', label: '1 day', seconds: 86400 },
  { value: '3d', label: '3 days', seconds: 259200 },
  { value: '1w', label: '1 week', seconds: 604800 },
] as const;
export type ExportInterval = (typeof EXPORT_INTERVALS)[number]['value'];
export const EXPORT_INTERVAL_VALUES = EXPORT_INTERVALS.map((i) => i.value) as unknown as readonly [ExportInterval, ...ExportInterval[]];
/** The form's default interval (spec 2 §9) and what a cleared selector sends. */
export const EXPORT_DEFAULT_INTERVAL: ExportInterval = '1h';
export const EXPORT_FALLBACK_INTERVAL: ExportInterval = '5m';
export const exportIntervalSeconds = (v: ExportInterval): number => EXPORT_INTERVALS.find((i) => i.value === v)?.seconds ?? 300;

/** The date format of the pickers (spec 2 §9). */
export const EXPORT_DATE_FORMAT = 'dd/MM/yyyy';

const bool = (field: string) => z.boolean({ error: `${field} must be true or false.` });
const epochBody = (field: string) => {
  const message = `${field} must be epoch seconds from 0 to ${MAX_EPOCH_S}.`;
  return z.number({ error: message }).int(message).min(0, message).max(MAX_EPOCH_S, message);
};

/**
 * Operational export params (spec 2 §3). `start` is the local midnight (account time zone) of the
 * first day, `end` the local midnight after the last day: the export covers [start, end). Either
 * `powerstation` (a VPP id) or `deploymentUids` (node ids). `user` and `timezone` are accepted as the
 * spec sends them; the server records the caller and uses `timezone` (default: the account's) for
 * the CSV's local times. The range limit (a server setting) is checked by the server.
 */
export const operationalParams = z
  .object({
    start: epochBody('start').optional(),
    end: epochBody('end').optional(),
    queries: boundedList(z.string({ error: 'queries must be metric ids.' }).max(64, 'queries must be metric ids.'), 'queries', 32).default([]),
    splitPhases: bool('splitPhases').default(false),
    aggByPowerstation: bool('aggByPowerstation').default(false),
    includeSubmeters: bool('includeSubmeters').default(false),
    interval: z.enum(EXPORT_INTERVAL_VALUES, { error: `interval must be one of ${EXPORT_INTERVAL_VALUES.join(', ')}.` }).default(EXPORT_FALLBACK_INTERVAL),
    user: bodyId('user').optional(),
    timezone: timeZoneName.optional(),
    powerstation: bodyId('powerstation').nullable().optional(),
    deploymentUids: boundedList(bodyId('deploymentUids'), 'deploymentUids').optional(),
  })
  .superRefine((p, ctx) => {
    const issue = (message: string, path: string) => ctx.addIssue({ code: 'custom', message, path: [path] });
    const hasVpp = p.powerstation !== undefined && p.powerstation !== null;
    if (hasVpp && p.deploymentUids !== undefined) issue(M.vppOrNodes, 'powerstation');
    else if (!hasVpp && p.deploymentUids === undefined) issue(M.powerstationRequired, 'powerstation');
    else if (!hasVpp && p.deploymentUids?.length === 0) issue(M.nodesRequired, 'deploymentUids');
    if (p.start === undefined) issue(M.startRequired, 'start');
    if (p.end === undefined) issue(M.endRequired, 'end');
    if (p.start !== undefined && p.end !== undefined && p.start >= p.end) issue(M.startAfterEnd, 'start');
    if (p.queries.length === 0) issue(M.metricsRequired, 'queries');
    const unknown = p.queries.filter((q) => !exportMetricOption(q));
    if (unknown.length) issue(M.unknownMetrics(unknown), 'queries');
    if (p.splitPhases && p.aggByPowerstation) issue(M.splitWithAggregate, 'aggByPowerstation');
    if (p.aggByPowerstation && !hasVpp) issue(M.aggregateNeedsVpp, 'aggByPowerstation');
    if (!p.includeSubmeters && p.queries.some((q) => exportMetricOption(q)?.submeter)) issue(M.submetersNeedInclude, 'queries');
  });
export type OperationalParams = z.output<typeof operationalParams>;
export type OperationalParamsInput = z.input<typeof operationalParams>;

/**
 * Customer export params (spec 2 §3): a VPP's customers, or all of the fleet's without `powerstation`.
 * `allCustomers` is the NETWORK organisations' Customer Set: true 'All customers in Fleet', false
 * (the default) 'All customers on my network'.
 */
export const customerParams = z.object({
  powerstation: bodyId('powerstation').nullable().optional(),
  user: bodyId('user').optional(),
  timezone: timeZoneName.optional(),
  allCustomers: bool('allCustomers').optional(),
});
export type CustomerParams = z.output<typeof customerParams>;

/** POST /analysis/export-jobs: `type` and its `params`. */
export const exportCreateBody = z.discriminatedUnion(
  'type',
  [z.object({ type: z.literal('operational'), params: operationalParams }), z.object({ type: z.literal('customer'), params: customerParams })],
  { error: 'type must be operational or customer, with its params.' },
);
export type ExportCreateBody = z.input<typeof exportCreateBody>;

/** The browser's check of the operational form before sending (spec 2 §5): messages by field, empty when fine. */
export function operationalFormErrors(form: {
  kind: 'vpp' | 'nodes';
  powerstation: number | null;
  deploymentUids: readonly number[];
  start: number | null;
  end: number | null;
  queries: readonly string[];
  splitPhases: boolean;
  aggByPowerstation: boolean;
}): Record<string, string> {
  const errors: Record<string, string> = {};
  if (form.kind === 'vpp' && form.powerstation === null) errors.powerstation = M.powerstationRequired;
  if (form.kind === 'nodes' && form.deploymentUids.length === 0) errors.deploymentUids = M.nodesRequired;
  if (form.start === null) errors.start = M.startRequired;
  if (form.end === null) errors.end = M.endRequired;
  if (form.start !== null && form.end !== null && form.start >= form.end) errors.start = M.startAfterEnd;
  if (form.queries.length === 0) errors.queries = M.metricsRequired;
  if (form.splitPhases && form.aggByPowerstation) errors.aggByPowerstation = M.splitWithAggregate;
  return errors;
}

/** What the job was asked for (spec 2 §3 task_info), and the rest of its params for the accordion. */
export const exportTaskInfoSchema = z.object({
  powerstation: z.number().nullable(),
  /** The VPP's name when there is one (the accordion's title). */
  powerstationName: z.string().nullable(),
  /** Node ids of an individual-nodes export; empty otherwise. */
  deploymentUids: z.array(z.number()),
  /** Epoch seconds; null for customer exports. */
  start: z.number().nullable(),
  end: z.number().nullable(),
  interval: z.enum(EXPORT_INTERVAL_VALUES).nullable(),
  timezone: z.string(),
  splitPhases: z.boolean(),
  aggByPowerstation: z.boolean(),
  /** Customer exports: the Customer Set (null when not a network's choice). */
  all_customers: z.boolean().nullable(),
  submeters: z.boolean(),
  /** The account that asked for the export (the create params' user): it may cancel it without export edit. */
  user: z.number(),
});

/** An export job (spec 2 §3). `time_remaining` is ms, estimated from the job's own rate; null until it is measured. */
export const exportJobSchema = z.object({
  task_id: z.number(),
  /** A stable reference for the job, also in its file names. */
  reference_id: z.string(),
  task_type: z.enum(EXPORT_TYPES),
  status: z.enum(EXPORT_STATUSES),
  /** Epoch seconds the job was submitted. */
  ts: z.number(),
  progress: z.number(),
  time_remaining: z.number().nullable(),
  /** Metric ids (customer exports: ['customers']). */
  metrics: z.array(z.string()),
  task_info: exportTaskInfoSchema,
  /** Epoch seconds the job finished (SUCCESS, FAILURE, CANCELLED); null while it runs. */
  finished_at: z.number().nullable(),
  /** Epoch seconds after which the files are removed (SUCCESS only). */
  expires_at: z.number().nullable(),
});
export type ExportJob = z.infer<typeof exportJobSchema>;

/**
 * One file of a finished job: per metric (operational) or 'customers'. `signed_url` opens it without
 * the session for a few minutes (null when `empty`: a metric with no data, listed as '(no data)').
 */
export const exportFileSchema = z.object({
  metric: z.string(),
  /** The metric's label ('Meter Power'; 'Customers'). */
  label: z.string(),
  signed_url: z.string().nullable(),
  size: z.number(),
  filename: z.string(),
  empty: z.boolean(),
});
export type ExportFile = z.infer<typeof exportFileSchema>;

/** A job with its details (spec 2 §3): the files of a SUCCESS job; `empty` when none holds data. */
export const exportJobDetailSchema = exportJobSchema.extend({
  details: z.object({
    status: z.enum(EXPORT_STATUSES),
    signed_urls: z.array(exportFileSchema),
    /** No file holds any data: 'No data was found…' (operational) or 'No data found.' (customer). */
    empty: z.boolean(),
    /** Always false from the server; the browser's state while it fetches. */
    loading: z.boolean(),
    /** Epoch seconds the signed URLs stop working. */
    urls_expire_at: z.number().nullable(),
    /** Why a FAILURE failed. */
    error: z.string().nullable(),
  }),
});
export type ExportJobDetail = z.infer<typeof exportJobDetailSchema>;

export const exportListQuery = z.object(pagingFields(200, 10));
export type ExportListQuery = z.input<typeof exportListQuery>;
export const exportListReply = okReply(z.object({ tasks: z.array(exportJobSchema), total: z.number() }));
export type ExportListReply = z.infer<typeof exportListReply>;
export const exportJobReply = okReply(exportJobSchema);
export const exportJobDetailReply = okReply(exportJobDetailSchema);

/** `:id` is the spec's {taskId} (a job's task_id). */
export const exportTaskParams = z.object({ id: recordId('export', 'The export id') });
const fileMessage = 'The file name must be letters, digits, dots, dashes or underscores ending in .csv.';
export const exportFileParams = z.object({
  id: recordId('export', 'The export id'),
  filename: z
    .string({ error: fileMessage })
    .max(160, fileMessage)
    .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*\.csv$/, fileMessage)
    .meta({ examples: ['meter_power.csv'] }),
});
/** `?token=`: the signature of a signed URL (over its path and expiry). */
export const exportFileQuery = z.object({ token: z.string({ error: 'token is required.' }).max(1000, 'token must be at most 1000 characters.') });
