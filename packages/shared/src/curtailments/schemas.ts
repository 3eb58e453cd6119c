import { z } from 'zod';
import { okReply } from '../api/envelope.ts';
import { bodyId, epochSeconds, pagingFields, queryInt, recordId } from '../api/inputs.ts';
import { eventAuditSchema, eventWindowBody, MAX_DISPATCH_DURATION_S, MAX_REQUEST_KW } from '../dispatches/schemas.ts';
import {
  CURTAILMENT_ALL_COMPONENTS,
  CURTAILMENT_COMPONENTS,
  CURTAILMENT_DEFAULT_DURATION_S,
  CURTAILMENT_MESSAGES,
  SETPOINT_DEFAULT_RAMP_S,
  SETPOINT_MAX_RAMP_S,
  SETPOINT_STATUSES,
} from './messages.ts';

/*
 * Units and signs (spec 3 §3.6, §3.7): power in kW; meterPower is positive importing and negative
 * exporting, as everywhere in the fleet; a limit is 0 or negative: -5 holds the export at the
 * meters (net, component grid) or the solar generation (gross, component solar) to at most 5 kW,
 * and 0 allows none. A curtailment of component import (ours, made only from a network's OpenADR VTN)
 * holds the VPP's net import to at most its realPowerP, 0 or more.
 */

const limitMessage = (name: string) => `${name} must be a number of kW from -${MAX_REQUEST_KW} to 0.`;
const wholeLimitMessage = (name: string) => `${name} must be a whole number of kW from -${MAX_REQUEST_KW} to 0 (a limit is 0 or negative).`;

/** `POST /api/curtailments` (spec 3 §7, defaults §4.3): the VPP, the window, the limit and what it limits. */
export const createCurtailmentBody = z.object({
  ...eventWindowBody,
  duration: eventWindowBody.duration.default(CURTAILMENT_DEFAULT_DURATION_S),
  /** kW, at most 0 and not below the VPP's constraint (checked by the server). */
  realPowerP: z
    .number({ error: limitMessage('realPowerP') })
    .finite(limitMessage('realPowerP'))
    .min(-MAX_REQUEST_KW, limitMessage('realPowerP'))
    .max(0, limitMessage('realPowerP'))
    .default(0),
  // Import limits come only from a network's VTN: a user asking for one is told so.
  component: z
    .enum(CURTAILMENT_COMPONENTS, { error: (iss) => (iss.input === 'import' ? CURTAILMENT_MESSAGES.importFromVtnOnly : CURTAILMENT_MESSAGES.componentChoice) })
    .default('grid')
    .meta({ examples: ['grid'] }),
});
export type CreateCurtailmentBody = z.input<typeof createCurtailmentBody>;
export const createCurtailmentReply = okReply(z.object({ id: z.number() }));

export const CURTAILMENT_STATES = ['UPCOMING', 'INPROGRESS', 'COMPLETED'] as const;

/** A curtailment's request as it was made (spec 3 §3.6). */
export const curtailmentRequestSchema = z.object({
  startTime: z.number(),
  duration: z.number(),
  /** kW, 0 or negative; for component import, the VPP's maximum net import, 0 or more. */
  realPowerP: z.number(),
  /** The curtailable nodes given a share of the limit. */
  deploymentsRequested: z.number(),
});

/**
 * What the nodes are doing (spec 3 §3.6), from telemetry: the nodes whose devices accepted their
 * limit, and the VPP's summed solar and meter power (kW) over its latest complete 5 minutes within the
 * window (null before the window or with no report).
 */
export const curtailmentCurrentResponseSchema = z.object({
  deploymentsAccepted: z.number(),
  /** The nodes asked: those the node table lists (the VPP's at the start, and any that joined it since). */
  deploymentsAsked: z.number(),
  solarPower: z.number().nullable(),
  meterPower: z.number().nullable(),
});

export const curtailmentSummarySchema = z.object({
  id: z.number(),
  state: z.enum(CURTAILMENT_STATES),
  /** True for a curtailment raised by the network rather than an operator; the console creates untriggered ones. */
  triggered: z.boolean(),
  /** Why it was triggered; null for an operator's curtailment. */
  reason: z.string().nullable(),
  /** null when the VPP is not found (the detail then reads 'Unknown'). */
  powerstation: z.object({ id: z.number(), name: z.string() }).nullable(),
  createdAt: z.number(),
  /** The creator's name; 'Unknown' when the user is not found. */
  createdBy: z.string(),
  cancelledAt: z.number().nullable(),
  component: z.enum(CURTAILMENT_ALL_COMPONENTS),
  request: curtailmentRequestSchema,
});
export type CurtailmentSummary = z.infer<typeof curtailmentSummarySchema>;

export const curtailmentDetailSchema = curtailmentSummarySchema.extend({
  currentResponse: curtailmentCurrentResponseSchema,
  audit: z.array(eventAuditSchema),
});
export type CurtailmentDetail = z.infer<typeof curtailmentDetailSchema>;

/** `GET /api/curtailments?limit&offset`: latest start first. */
export const curtailmentListQuery = z.object(pagingFields(200, 10));
export const curtailmentListReply = okReply(z.object({ curtailments: z.array(curtailmentSummarySchema), total: z.number() }));
export const curtailmentDetailReply = okReply(curtailmentDetailSchema);

/** kW per bucket, keyed by bucket start (epoch seconds); null where nothing is known. */
const kwSeries = z.record(z.string(), z.number().nullable());

/**
 * The VPP's solar and meter power (kW) expected with no curtailment, from the weather forecast
 * (spec 3 §3.6), per `interval` seconds from an hour before the start to an hour after the end (a
 * window already begun included, so the detail can draw it beside the measured response).
 */
export const curtailmentPredictionSchema = z.object({
  interval: z.number(),
  solarPower: kwSeries,
  meterPower: kwSeries,
  /** The spec's warning for a day after today; null for today. */
  warning: z.string().nullable(),
  /** The curtailable nodes the prediction sums. */
  deployments: z.number(),
});
export type CurtailmentPrediction = z.infer<typeof curtailmentPredictionSchema>;
export const curtailmentPredictionReply = okReply(curtailmentPredictionSchema);

/** `GET /curtailment/prediction?powerstation&startTime&duration`: the New Curtailment modal's graph. */
export const curtailmentPredictionQuery = z.object({
  powerstation: recordId('powerstation', 'powerstation'),
  startTime: epochSeconds('startTime'),
  duration: queryInt('duration', 300, MAX_DISPATCH_DURATION_S).default(CURTAILMENT_DEFAULT_DURATION_S),
});

/**
 * `GET /api/curtailments/{id}/response`: measured from telemetry per 5 minutes (5-minute rollups of
 * the curtailment's nodes), from an hour before the start to an hour after the end (or now), and the
 * totals now.
 */
export const curtailmentResponseSchema = z.object({
  interval: z.number(),
  solarPower: kwSeries,
  meterPower: kwSeries,
  /** Nodes reporting in each bucket. */
  deploymentsReporting: z.record(z.string(), z.number()),
  deploymentsRequested: z.number(),
  deploymentsAccepted: z.number(),
  currentResponse: curtailmentCurrentResponseSchema,
});
export type CurtailmentResponse = z.infer<typeof curtailmentResponseSchema>;
export const curtailmentResponseReply = okReply(curtailmentResponseSchema);

/** `GET /api/constraints/curtailments?powerstation=` */
export const curtailmentConstraintQuery = z.object({ powerstation: recordId('powerstation', 'powerstation') });
/**
 * The minimum export the VPP can be held to (spec 3 §3.6): the slider's minimum, negative kW, or 0
 * when the VPP has no curtailable node. See the server's README for its physics.
 */
export const curtailmentConstraintSchema = z.object({
  constraint: z.number(),
  /** The VPP's curtailable nodes: commissioned, with solar. */
  deploymentsCurtailable: z.number(),
});
export type CurtailmentConstraint = z.infer<typeof curtailmentConstraintSchema>;
export const curtailmentConstraintReply = okReply(curtailmentConstraintSchema);

/** A node of a curtailment (spec 3 §2.7): responded when its device accepted its limit. */
export const curtailmentNodeSchema = z.object({
  id: z.number(),
  nmi: z.string().nullable(),
  serialNumber: z.string(),
  address: z.string().nullable(),
  responded: z.boolean(),
});
export type CurtailmentNode = z.infer<typeof curtailmentNodeSchema>;
export const curtailmentNodesQuery = z.object(pagingFields(200, 10));
export const curtailmentNodesReply = okReply(z.object({ nodes: z.array(curtailmentNodeSchema), total: z.number() }));

/**
 * A default setpoint (spec 3 §3.7): a standing limit of a VPP outside curtailment events. The
 * newest of a VPP is ACTIVE and the older INACTIVE. Limits in kW (0 or negative): solar_limit is the
 * gross limit (inverter output), grid_limit the net one (export at the meters).
 */
export const setpointSchema = z.object({
  id: z.number(),
  powerstation: z.number(),
  /** The VPP's name; 'Unknown' when it is not found. */
  powerstationName: z.string(),
  created_at: z.number(),
  status: z.enum(SETPOINT_STATUSES),
  ramp_duration: z.number(),
  solar_limit: z.number(),
  grid_limit: z.number(),
});
export type CurtailmentSetpoint = z.infer<typeof setpointSchema>;

/** Newest first; within the same created_at, ACTIVE first. */
export const setpointListQuery = z.object(pagingFields(200, 10));
export const setpointListReply = okReply(z.object({ setpoints: z.array(setpointSchema), total: z.number() }));

const wholeLimit = (name: string) =>
  z
    .number({ error: wholeLimitMessage(name) })
    .int(wholeLimitMessage(name))
    .min(-MAX_REQUEST_KW, wholeLimitMessage(name))
    .max(0, wholeLimitMessage(name))
    .default(0);
const rampMessage = `rampDuration must be a whole number of seconds from 0 to ${SETPOINT_MAX_RAMP_S}.`;

/**
 * `POST /api/curtailments/setpoint` (spec 3 §3.7, defaults §5): a positive limit is refused with a
 * 400 naming the field (the modal ignores positive input, so it never sends one).
 */
export const createSetpointBody = z.object({
  powerstation: bodyId('powerstation'),
  rampDuration: z
    .number({ error: rampMessage })
    .int(rampMessage)
    .min(0, rampMessage)
    .max(SETPOINT_MAX_RAMP_S, rampMessage)
    .default(SETPOINT_DEFAULT_RAMP_S)
    .meta({ examples: [120] }),
  /** Net limit, kW: export at the meters. */
  meterRealPowerP: wholeLimit('meterRealPowerP').meta({ examples: [-1] }),
  /** Gross limit, kW: the inverters' solar output. */
  inverterRealPowerP: wholeLimit('inverterRealPowerP').meta({ examples: [-1] }),
});
export type CreateSetpointBody = z.input<typeof createSetpointBody>;
export const createSetpointReply = okReply(z.object({ id: z.number() }));
