import { z } from 'zod';
import { okReply } from '../api/envelope.ts';

// OpenADR 3.0.1 (the OpenAPI document of the OpenADR Alliance, openadr3.yaml): its objects as the
// VTN answers them and as clients write them, written here from the document's facts (names,
// required fields, enums, bounds). The VTN answers at OPENADR_BASE_PATH.

export const OPENADR_BASE_PATH = '/openadr3/3.0.1';

/** The document's OAuth 2 scopes; an administrator gives them to an API key. */
export const OPENADR_SCOPES = ['read_all', 'write_programs', 'write_events', 'write_reports', 'write_subscriptions', 'write_vens'] as const;
export type OpenadrScope = (typeof OPENADR_SCOPES)[number];

export const OBJECT_TYPES = ['PROGRAM', 'EVENT', 'REPORT', 'SUBSCRIPTION', 'VEN', 'RESOURCE'] as const;
export const OPERATIONS = ['READ', 'CREATE', 'UPDATE', 'DELETE'] as const;

/** The most items one search answers (the document's `limit` maximum). */
export const OPENADR_MAX_LIMIT = 50;

/** The OpenADR id of a console event (a dispatch, RERT dispatch, curtailment or grid outage). */
export const openadrEventId = (eventId: number) => `event-${eventId}`;

/** ISO 8601 duration, as the document's pattern allows (years, months, days or weeks, hours, minutes, seconds). */
const DURATION = /^(-?)P(?=\d|T\d)(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)([DW]))?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/;

/**
 * A duration's length in seconds, or null when it does not parse. A year is 365 days and a month
 * 30 (a duration that needs the calendar is not used by this VTN's own objects).
 */
export function durationSeconds(text: string): number | null {
  const m = DURATION.exec(text);
  if (!m) return null;
  const n = (i: number) => (m[i] ? Number(m[i]) : 0);
  const days = n(4) * (m[5] === 'W' ? 7 : 1);
  const s = n(2) * 365 * 86400 + n(3) * 30 * 86400 + days * 86400 + n(6) * 3600 + n(7) * 60 + n(8);
  return m[1] ? -s : s;
}

/** Seconds as the shortest ISO 8601 duration of hours, minutes and seconds (PT0S for none). */
export function isoDuration(seconds: number): string {
  const sign = seconds < 0 ? '-' : '';
  let s = Math.abs(Math.round(seconds));
  if (s === 0) return 'PT0S';
  const d = Math.floor(s / 86400);
  s -= d * 86400;
  const h = Math.floor(s / 3600);
  s -= h * 3600;
  const m = Math.floor(s / 60);
  s -= m * 60;
  const time = `${h ? `${h}H` : ''}${m ? `${m}M` : ''}${s ? `${s}S` : ''}`;
  return `${sign}P${d ? `${d}D` : ''}${time ? `T${time}` : ''}`;
}

export const objectId = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[a-zA-Z0-9_-]*$/, 'must hold only letters, digits, _ and -');
export const duration = z
  .string()
  .max(64)
  .refine((s) => durationSeconds(s) !== null, 'is not an ISO 8601 duration');
export const dateTime = z.iso.datetime({ offset: true });

export const point = z.object({ x: z.number(), y: z.number() });
export const valuesMap = z.object({
  type: z.string().min(1).max(128),
  values: z.array(z.union([z.number(), z.string().max(1024), z.boolean(), point])).max(10_000),
});
export type ValuesMap = z.infer<typeof valuesMap>;
const valuesMaps = z.array(valuesMap).max(1000).nullable();

export const intervalPeriod = z.object({ start: dateTime, duration: duration.optional(), randomizeStart: duration.optional() });
export const interval = z.object({
  id: z
    .number()
    .int()
    .min(-(2 ** 31))
    .max(2 ** 31 - 1),
  intervalPeriod: intervalPeriod.optional(),
  payloads: z.array(valuesMap).max(1000),
});
export const eventPayloadDescriptor = z.object({
  objectType: z.literal('EVENT_PAYLOAD_DESCRIPTOR').optional(),
  payloadType: z.string().min(1).max(128),
  units: z.string().max(128).nullable().optional(),
  currency: z.string().max(16).nullable().optional(),
});
export const reportPayloadDescriptor = z.object({
  objectType: z.literal('REPORT_PAYLOAD_DESCRIPTOR').optional(),
  payloadType: z.string().min(1).max(128),
  readingType: z.string().max(128).nullable().optional(),
  units: z.string().max(128).nullable().optional(),
  accuracy: z.number().nullable().optional(),
  confidence: z.number().int().min(0).max(100).nullable().optional(),
});
export const reportDescriptor = z.object({
  payloadType: z.string().min(1).max(128),
  readingType: z.string().nullable().optional(),
  units: z.string().nullable().optional(),
  targets: valuesMaps.optional(),
  aggregate: z.boolean().optional(),
  startInterval: z.number().int().optional(),
  numIntervals: z.number().int().optional(),
  historical: z.boolean().optional(),
  frequency: z.number().int().optional(),
  repeat: z.number().int().optional(),
});

/** What the VTN provisions on every object. */
const provisioned = { id: objectId, createdDateTime: dateTime, modificationDateTime: dateTime };

export const program = z.object({
  ...provisioned,
  objectType: z.literal('PROGRAM'),
  programName: z.string().min(1).max(128),
  programLongName: z.string().nullable().optional(),
  retailerName: z.string().nullable().optional(),
  retailerLongName: z.string().nullable().optional(),
  programType: z.string().nullable().optional(),
  country: z.string().nullable().optional(),
  principalSubdivision: z.string().nullable().optional(),
  timeZoneOffset: duration.optional(),
  intervalPeriod: intervalPeriod.optional(),
  programDescriptions: z
    .array(z.object({ URL: z.string() }))
    .nullable()
    .optional(),
  bindingEvents: z.boolean().nullable().optional(),
  localPrice: z.boolean().nullable().optional(),
  payloadDescriptors: z
    .array(z.union([eventPayloadDescriptor, reportPayloadDescriptor]))
    .nullable()
    .optional(),
  targets: valuesMaps.optional(),
});
export type Program = z.infer<typeof program>;

export const oadrEvent = z.object({
  ...provisioned,
  objectType: z.literal('EVENT'),
  programID: objectId,
  eventName: z.string().nullable().optional(),
  priority: z.number().int().min(0).nullable().optional(),
  targets: valuesMaps.optional(),
  reportDescriptors: z.array(reportDescriptor).nullable().optional(),
  payloadDescriptors: z.array(eventPayloadDescriptor).nullable().optional(),
  intervalPeriod: intervalPeriod.optional(),
  intervals: z.array(interval),
});
export type OadrEvent = z.infer<typeof oadrEvent>;

const reportResource = z.object({
  resourceName: z.string().min(1).max(128),
  intervalPeriod: intervalPeriod.optional(),
  intervals: z.array(interval).max(10_000),
});

/** A report as a client writes it (the VTN provisions id, dates and objectType). */
export const reportInput = z.object({
  programID: objectId,
  eventID: objectId,
  clientName: z.string().min(1).max(128),
  reportName: z.string().max(256).nullable().optional(),
  payloadDescriptors: z.array(reportPayloadDescriptor).max(100).nullable().optional(),
  resources: z.array(reportResource).max(1000),
});
export const report = reportInput.extend({ ...provisioned, objectType: z.literal('REPORT') });
export type Report = z.infer<typeof report>;

export const objectOperation = z.object({
  objects: z.array(z.enum(OBJECT_TYPES)).min(1).max(OBJECT_TYPES.length),
  operations: z.array(z.enum(OPERATIONS)).min(1).max(OPERATIONS.length),
  callbackUrl: z.string().min(1).max(2048),
  bearerToken: z.string().max(4096).nullable().optional(),
});
export const subscriptionInput = z.object({
  clientName: z.string().min(1).max(128),
  programID: objectId,
  objectOperations: z.array(objectOperation).min(1).max(20),
  targets: valuesMaps.optional(),
});
export const subscription = subscriptionInput.extend({ ...provisioned, objectType: z.literal('SUBSCRIPTION') });
export type Subscription = z.infer<typeof subscription>;

export const resourceInput = z.object({
  resourceName: z.string().min(1).max(128),
  attributes: valuesMaps.optional(),
  targets: valuesMaps.optional(),
});
export const resource = resourceInput.extend({ ...provisioned, objectType: z.literal('RESOURCE'), venID: objectId });
export type Resource = z.infer<typeof resource>;

export const venInput = z.object({
  venName: z.string().min(1).max(128),
  attributes: valuesMaps.optional(),
  targets: valuesMaps.optional(),
  resources: z.array(resourceInput).max(1000).nullable().optional(),
});
export const ven = venInput.extend({ ...provisioned, objectType: z.literal('VEN'), resources: z.array(resource).nullable().optional() });
export type Ven = z.infer<typeof ven>;

export const oadrNotification = z.object({
  objectType: z.enum(OBJECT_TYPES),
  operation: z.enum(['GET', 'POST', 'PUT', 'DELETE']),
  object: z.union([program, oadrEvent, report, subscription, ven, resource]),
  targets: valuesMaps.optional(),
});
export type OadrNotification = z.infer<typeof oadrNotification>;

/** The document's error reply (application/problem+json). */
export const problem = z.object({
  type: z.string().optional(),
  title: z.string().optional(),
  status: z.number().int().min(100).max(599).optional(),
  detail: z.string().optional(),
  instance: z.string().optional(),
});

export const oadrTokenReply = z.object({
  access_token: z.string().min(1).max(4096),
  token_type: z.literal('Bearer'),
  expires_in: z.number().int().optional(),
  scope: z.string().max(4096).optional(),
});
export const authError = z.object({
  error: z.enum(['invalid_request', 'invalid_client', 'invalid_grant', 'invalid_scope', 'unauthorized_client', 'unsupported_grant_type']),
  error_description: z.string().optional(),
});

const count = (field: string, max: number) =>
  z.coerce
    .number({ error: `${field} must be a whole number from 0 to ${max}.` })
    .int(`${field} must be a whole number from 0 to ${max}.`)
    .min(0, `${field} must be a whole number from 0 to ${max}.`)
    .max(max, `${field} must be a whole number from 0 to ${max}.`);
const oneOrMany = z.preprocess((v) => (v === undefined ? undefined : Array.isArray(v) ? v : [v]), z.array(z.string().min(1).max(128)).max(100).optional());

/** The search parameters of every list (programID, eventID and clientName where the document has them). */
export const searchQuery = z.object({
  programID: objectId.optional(),
  eventID: objectId.optional(),
  clientName: z.string().min(1).max(128).optional(),
  venName: z.string().min(1).max(128).optional(),
  resourceName: z.string().min(1).max(128).optional(),
  objects: oneOrMany,
  targetType: z.string().min(1).max(128).optional(),
  targetValues: oneOrMany,
  skip: count('skip', 2 ** 31 - 1).default(0),
  limit: count('limit', OPENADR_MAX_LIMIT).default(OPENADR_MAX_LIMIT),
});
export type SearchQuery = z.infer<typeof searchQuery>;

// The console's own screen (the organisation's OpenADR settings).

export const openadrScopesField = z.array(z.enum(OPENADR_SCOPES)).max(OPENADR_SCOPES.length);

export const openadrOverview = z.object({
  /** The VTN's base URL as clients reach it. */
  baseUrl: z.string(),
  vens: z.array(
    z.object({
      id: z.number(),
      venName: z.string(),
      keyName: z.string().nullable(),
      createdAt: z.number(),
      resources: z.array(z.object({ id: z.number(), resourceName: z.string() })),
      vppIds: z.array(z.number()),
    }),
  ),
  subscriptions: z.array(
    z.object({
      id: z.number(),
      clientName: z.string(),
      programID: z.string(),
      objects: z.array(z.string()),
      callbackUrls: z.array(z.string()),
      status: z.enum(['ACTIVE', 'SUSPENDED']),
      lastDeliveryAt: z.number().nullable(),
      lastDeliveryResult: z.string().nullable(),
    }),
  ),
  vpps: z.array(z.object({ id: z.number(), name: z.string() })),
  /** The console as a VEN of a network's VTN (OPENADR_VTN_URL), when this organisation is the one that takes its limits. */
  ven: z
    .object({
      vtnUrl: z.string(),
      venName: z.string(),
      /** The VEN's id at the VTN, once registered. */
      venID: z.string().nullable(),
      /** Whether the VTN notifies the console (it has a PUBLIC_URL), besides the polls. */
      subscribed: z.boolean(),
      lastPollAt: z.number().nullable(),
      lastOkAt: z.number().nullable(),
      lastError: z.string().nullable(),
      events: z.array(
        z.object({
          eventID: z.string(),
          programID: z.string(),
          eventName: z.string().nullable(),
          payloadType: z.string(),
          status: z.enum(['APPLIED', 'NOT_APPLIED', 'DELETED']),
          detail: z.string().nullable(),
          curtailmentIds: z.array(z.number()),
          reportID: z.string().nullable(),
          receivedAt: z.number(),
          updatedAt: z.number(),
        }),
      ),
    })
    .nullable(),
});
export type OpenadrOverview = z.infer<typeof openadrOverview>;
export const openadrOverviewReply = okReply(openadrOverview);
export const venVppsBody = z.object({
  vppIds: z
    .array(
      z
        .number()
        .int()
        .min(1)
        .max(2 ** 31 - 1),
    )
    .max(1000)
    .default([]),
});
