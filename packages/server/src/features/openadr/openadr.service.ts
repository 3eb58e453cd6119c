import { createHmac, randomUUID } from 'node:crypto';
import { CURTAILMENT } from '@vpp/shared/curtailments/messages';
import { NEM_REGIONS, type NemRegion } from '@vpp/shared/market/rules';
import {
  isoDuration,
  type OadrEvent,
  type OadrNotification,
  OBJECT_TYPES,
  OPENADR_BASE_PATH,
  OPENADR_SCOPES,
  type OpenadrOverview,
  type OpenadrScope,
  type Program,
  type Report,
  type Resource,
  type reportInput,
  type resourceInput,
  type SearchQuery,
  type Subscription,
  type subscriptionInput,
  type ValuesMap,
  type Ven,
  type venInput,
} from '@vpp/shared/openadr/schemas';
import { GRID_OUTAGE } from '@vpp/shared/outages/messages';
import { jwtVerify, SignJWT } from 'jose';
import type { z } from 'zod';
import { nowS } from '../../db/database.ts';
import type { AppContext } from '../../platform/context.ts';
import { notFound as consoleNotFound } from '../../platform/errors.ts';
import { enqueue, enqueueJob, type JobDefinition } from '../../platform/jobs.ts';
import { apiKeyCaller } from '../api-keys/index.ts';
import { callerOf } from '../auth/index.ts';
import { dispatchResponse } from '../dispatches/index.ts';
import { regionPrices } from '../market/index.ts';
import { notifyUser } from '../notifications/index.ts';
import * as repo from './openadr.repo.ts';
import { venOverview } from './openadr.ven.service.ts';
import { callbackUrlProblem, postCallback } from './openadr.webhooks.service.ts';

/** An OpenADR error: the document's problem reply (application/problem+json). */
export class VtnProblem extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    readonly detail: string,
  ) {
    super(detail);
  }
}
const badInput = (detail: string) => new VtnProblem(400, 'Bad Request', detail);
const notFound = (what: string) => new VtnProblem(404, 'Not Found', `No such ${what}.`);
const forbidden = (detail: string) => new VtnProblem(403, 'Forbidden', detail);

/** An OAuth 2 token endpoint refusal (RFC 6749 §5.2). */
export class OAuthError extends Error {
  constructor(
    readonly status: number,
    readonly error: 'invalid_request' | 'invalid_client' | 'invalid_scope' | 'unauthorized_client' | 'unsupported_grant_type',
    readonly description: string,
  ) {
    super(description);
  }
}

export const TOKEN_TTL_S = 3600;
const AUDIENCE = 'openadr3';

/** Who calls the VTN: an API key with OpenADR scopes, and the VENs it wrote (none for a business client). */
export interface VtnClient {
  keyId: number;
  organisationId: number;
  userId: number;
  scopes: OpenadrScope[];
  /** The VENs this client created: a client with any is a VEN's client and sees only what targets them. */
  venIds: number[];
}

const tokenKey = (ctx: AppContext) => createHmac('sha256', ctx.keys.access).update('openadr-vtn-token').digest();
const iso = (s: number) => new Date(s * 1000).toISOString().replace('.000Z', 'Z');
const parseScopes = (json: string) => repo.parseList(json).filter((s): s is OpenadrScope => (OPENADR_SCOPES as readonly unknown[]).includes(s));

// ---- the token endpoint and the bearer check ----

/**
 * The client-credentials grant: client_id is the API key's id, client_secret the key itself. The
 * token carries the asked scopes (all of the key's OpenADR scopes when none are asked).
 */
export async function issueToken(
  ctx: AppContext,
  input: { grantType?: string; clientId?: string; clientSecret?: string; scope?: string; address: string },
): Promise<{ access_token: string; token_type: 'Bearer'; expires_in: number; scope: string }> {
  if (!input.grantType) throw new OAuthError(400, 'invalid_request', 'grant_type is missing.');
  if (input.grantType !== 'client_credentials') throw new OAuthError(400, 'unsupported_grant_type', 'Only grant_type client_credentials is supported.');
  if (!input.clientId || !input.clientSecret) throw new OAuthError(400, 'invalid_request', 'client_id and client_secret are required.');
  const keyId = Number(input.clientId);
  const refused = new OAuthError(401, 'invalid_client', 'The client_id and client_secret do not match a valid API key.');
  if (!Number.isInteger(keyId) || keyId < 1 || keyId > 2 ** 31 - 1) throw refused;
  let owner: Awaited<ReturnType<typeof apiKeyCaller>>;
  try {
    owner = await apiKeyCaller(ctx, input.clientSecret, input.address);
  } catch {
    throw refused;
  }
  if (owner.via.kind !== 'api-key' || owner.via.keyId !== keyId) throw refused;
  const client = await repo.findClient(ctx.db, keyId);
  const held = client ? parseScopes(client.openadr_scopes) : [];
  if (!held.length) throw new OAuthError(400, 'unauthorized_client', 'This API key has no OpenADR scopes. An administrator gives them on the API keys screen.');
  const asked = (input.scope ?? '').split(/\s+/).filter(Boolean);
  const unknown = asked.find((s) => !held.includes(s as OpenadrScope));
  if (unknown !== undefined) throw new OAuthError(400, 'invalid_scope', `The scope ${unknown.slice(0, 64)} is not one of this key's OpenADR scopes.`);
  const scopes = asked.length ? (asked as OpenadrScope[]) : held;
  const now = nowS();
  const token = await new SignJWT({ scope: scopes.join(' '), org: owner.organisationId })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(String(keyId))
    .setAudience(AUDIENCE)
    .setIssuedAt(now)
    .setExpirationTime(now + TOKEN_TTL_S)
    .setJti(randomUUID())
    .sign(tokenKey(ctx));
  return { access_token: token, token_type: 'Bearer', expires_in: TOKEN_TTL_S, scope: scopes.join(' ') };
}

/**
 * The client of a bearer token: signed by this console, for the VTN, unexpired, of an API key that
 * is still valid and whose owner is active. Its scopes are those of the token the key still has.
 */
export async function authenticate(ctx: AppContext, authorization: string | undefined): Promise<VtnClient> {
  const bearer = authorization?.startsWith('Bearer ') ? authorization.slice(7).trim() : '';
  if (!bearer) throw new VtnProblem(401, 'Unauthorized', 'A bearer token from the token endpoint (auth/token) is required.');
  const invalid = new VtnProblem(401, 'Unauthorized', 'The bearer token is invalid or has expired. Ask the token endpoint for a new one.');
  let payload: { sub?: string; scope?: unknown; org?: unknown };
  try {
    ({ payload } = await jwtVerify(bearer, tokenKey(ctx), { algorithms: ['HS256'], audience: AUDIENCE, currentDate: new Date(nowS() * 1000) }));
  } catch {
    throw invalid;
  }
  const keyId = Number(payload.sub);
  if (!Number.isInteger(keyId) || typeof payload.scope !== 'string') throw invalid;
  const row = await repo.findClient(ctx.db, keyId);
  if (row?.status !== 'VALID' || !row.active || row.organisation_id !== payload.org) throw invalid;
  const held = parseScopes(row.openadr_scopes);
  const scopes = payload.scope.split(' ').filter((s): s is OpenadrScope => held.includes(s as OpenadrScope));
  const venIds = (await repo.vens(ctx.db, row.organisation_id, { clientKeyId: keyId })).map((v) => v.id);
  return { keyId, organisationId: row.organisation_id, userId: row.user_id, scopes, venIds };
}

export function requireScope(client: VtnClient, scope: OpenadrScope): void {
  if (!client.scopes.includes(scope)) throw forbidden(`This call needs the scope ${scope}.`);
}

// ---- programs ----

const REGION_SUBDIVISION: Record<NemRegion, string> = { NSW1: 'NSW', QLD1: 'QLD', VIC1: 'VIC', SA1: 'SA', TAS1: 'TAS' };
const STATE_REGION: Record<string, NemRegion> = { NSW: 'NSW1', ACT: 'NSW1', QLD: 'QLD1', VIC: 'VIC1', SA: 'SA1', TAS: 'TAS1' };
/** Standard time's offset from UTC by state (what the document's timeZoneOffset holds). */
const STATE_OFFSET_S: Record<string, number> = { NSW: 36000, ACT: 36000, QLD: 36000, VIC: 36000, TAS: 36000, SA: 34200, NT: 34200, WA: 28800 };
const HALF_HOUR = 1800;
/** How far ahead the price events reach. */
export const PRICE_HORIZON_S = 24 * 3600;
const VPP_INTERVAL_S = 300;

type VppRow = Awaited<ReturnType<typeof repo.vppsOf>>[number];

function vppProgram(v: VppRow): Program {
  const state = v.state ?? null;
  return {
    id: `vpp-${v.id}`,
    createdDateTime: iso(v.created_at),
    modificationDateTime: iso(v.updated_at),
    objectType: 'PROGRAM',
    programName: v.name,
    programLongName: `${v.name} (${v.type} virtual power plant${state && STATE_REGION[state] ? `, ${STATE_REGION[state]}` : ''})`,
    programType: 'VPP_DISPATCH',
    country: 'AU',
    principalSubdivision: state,
    ...(state && STATE_OFFSET_S[state] ? { timeZoneOffset: isoDuration(STATE_OFFSET_S[state]) } : {}),
    intervalPeriod: { start: iso(v.created_at), duration: isoDuration(VPP_INTERVAL_S) },
    bindingEvents: false,
    localPrice: false,
    payloadDescriptors: [
      { objectType: 'EVENT_PAYLOAD_DESCRIPTOR', payloadType: 'DISPATCH_SETPOINT', units: 'KW', currency: null },
      { objectType: 'EVENT_PAYLOAD_DESCRIPTOR', payloadType: 'EXPORT_CAPACITY_LIMIT', units: 'KW', currency: null },
      { objectType: 'EVENT_PAYLOAD_DESCRIPTOR', payloadType: 'CHARGE_STATE_SETPOINT', units: 'PERCENT', currency: null },
    ],
    targets: [],
  };
}

function priceProgram(region: NemRegion, now: number): Program {
  const current = now - (now % HALF_HOUR);
  const state = REGION_SUBDIVISION[region];
  return {
    id: `price-${region}`,
    createdDateTime: iso(current),
    modificationDateTime: iso(current),
    objectType: 'PROGRAM',
    programName: `${region} prices`,
    programLongName: `${region} forecast regional reference prices, 30 minutes`,
    programType: 'PRICING_TARIFF',
    country: 'AU',
    principalSubdivision: state,
    timeZoneOffset: isoDuration(STATE_OFFSET_S[state]),
    intervalPeriod: { start: iso(current), duration: isoDuration(HALF_HOUR) },
    bindingEvents: false,
    localPrice: false,
    payloadDescriptors: [{ objectType: 'EVENT_PAYLOAD_DESCRIPTOR', payloadType: 'PRICE', units: 'MWH', currency: 'AUD' }],
    targets: [],
  };
}

/** What a client may see of the organisation's VPPs: all of them, or a VEN's client's enrolled ones. */
async function visibleVppIds(ctx: AppContext, client: VtnClient): Promise<number[] | null> {
  if (!client.venIds.length) return null;
  return [...new Set((await repo.venVpps(ctx.db, client.venIds)).map((r) => r.powerstation_id))];
}

function matchesTargets(targets: ValuesMap[] | null | undefined, q: Pick<SearchQuery, 'targetType' | 'targetValues'>): boolean {
  if (!q.targetType) return true;
  const values = q.targetValues ?? [];
  return (targets ?? []).some((t) => t.type === q.targetType && (values.length === 0 || t.values.some((v) => values.includes(String(v)))));
}

const page = <T>(items: T[], q: SearchQuery) => items.slice(q.skip, q.skip + q.limit);

/** Every program the client sees: its organisation's VPPs (a VEN's client: those it takes part in) and the price programs. */
async function allPrograms(ctx: AppContext, client: VtnClient): Promise<Program[]> {
  const ids = await visibleVppIds(ctx, client);
  const vpps = await repo.vppsOf(ctx.db, client.organisationId, ids ?? undefined);
  const now = nowS();
  return [...NEM_REGIONS.map((r) => priceProgram(r, now)), ...vpps.map(vppProgram)];
}

export async function searchPrograms(ctx: AppContext, client: VtnClient, q: SearchQuery): Promise<Program[]> {
  requireScope(client, 'read_all');
  return page(
    (await allPrograms(ctx, client)).filter((p) => matchesTargets(p.targets, q)),
    q,
  );
}

export async function getProgram(ctx: AppContext, client: VtnClient, id: string): Promise<Program> {
  requireScope(client, 'read_all');
  const found = (await allPrograms(ctx, client)).find((p) => p.id === id);
  if (!found) throw notFound('program');
  return found;
}

/** Programs and events are the console's: written by its own screens, never through the VTN. */
export function refuseProgramWrite(client: VtnClient, what: 'program' | 'event'): never {
  requireScope(client, what === 'program' ? 'write_programs' : 'write_events');
  throw forbidden(
    `This VTN's ${what}s are written by the console itself (its VPPs, dispatches, RERT dispatches, curtailments and grid outages), not through the API.`,
  );
}

// ---- events ----

const parseId = (id: string, prefix: string): number | null => {
  const m = new RegExp(`^${prefix}-(\\d{1,10})$`).exec(id);
  const n = m ? Number(m[1]) : Number.NaN;
  return Number.isInteger(n) && n >= 1 && n <= 2 ** 31 - 1 ? n : null;
};
const parseRegion = (id: string, prefix: string): NemRegion | null => {
  const r = id.startsWith(`${prefix}-`) ? id.slice(prefix.length + 1) : '';
  return (NEM_REGIONS as readonly string[]).includes(r) ? (r as NemRegion) : null;
};

/**
 * The console's event as OpenADR's: its kind's payloads over its one interval, targeted at the VENs
 * of its VPP and, for a VPP made by postcode, at its postcodes (where a VEN's own sites are).
 */
export function consoleEvent(row: repo.ConsoleEventRow, vppName: string, venNames: string[], postcodes: string[] = []): OadrEvent {
  const payloads: ValuesMap[] = [];
  const descriptors: NonNullable<OadrEvent['payloadDescriptors']> = [];
  const add = (type: string, value: number | string, units: string | null) => {
    payloads.push({ type, values: [value] });
    descriptors.push({ objectType: 'EVENT_PAYLOAD_DESCRIPTOR', payloadType: type, units, currency: null });
  };
  let name: string;
  if (row.type === GRID_OUTAGE) {
    name = `Grid outage preparation on ${vppName}`;
    add('ALERT_POSSIBLE_OUTAGE', row.outage_reason ?? 'Grid outage expected', null);
    add('CHARGE_STATE_SETPOINT', 100, 'PERCENT');
  } else if (row.type === CURTAILMENT) {
    // An import limit (ours: made from a network's VTN) is published as what it came as.
    const kind = row.curtail_component === 'solar' ? 'GENERATION' : row.curtail_component === 'import' ? 'IMPORT' : 'EXPORT';
    name = `${kind === 'GENERATION' ? 'Generation' : kind === 'IMPORT' ? 'Import' : 'Export'} limit on ${vppName}`;
    add(`${kind}_CAPACITY_LIMIT`, row.curtail_kw ?? 0, 'KW');
  } else {
    const rert = row.type === 'RERT';
    name = `${rert ? 'RERT dispatch' : 'Dispatch'} on ${vppName}`;
    add('DISPATCH_SETPOINT', row.dispatch_kw ?? 0, 'KW');
    if (rert) add('ALERT_GRID_EMERGENCY', 'RERT activation', null);
  }
  return {
    id: `event-${row.id}`,
    createdDateTime: iso(row.created_at),
    modificationDateTime: iso(row.modified_at),
    objectType: 'EVENT',
    programID: `vpp-${row.powerstation_id}`,
    eventName: name,
    priority: row.type === 'RERT' ? 0 : 1,
    targets: [...(venNames.length ? [{ type: 'VEN_NAME', values: venNames }] : []), ...(postcodes.length ? [{ type: 'POSTCODE', values: postcodes }] : [])],
    reportDescriptors: [
      {
        payloadType: 'DEMAND',
        readingType: 'DIRECT_READ',
        units: 'KW',
        aggregate: false,
        startInterval: -1,
        numIntervals: -1,
        historical: true,
        frequency: -1,
        repeat: 1,
      },
    ],
    payloadDescriptors: descriptors,
    intervalPeriod: { start: iso(row.start_time), duration: isoDuration(row.duration) },
    intervals: [{ id: 0, payloads }],
  };
}

/** A region's price event: the forecast 30-minute prices (AUD/MWh) from the current half-hour on. */
async function priceEvent(ctx: AppContext, region: NemRegion, now: number): Promise<OadrEvent> {
  const start = now - (now % HALF_HOUR);
  const prices = await regionPrices(ctx, region, start, start + PRICE_HORIZON_S, now);
  const sums = new Map<number, { sum: number; n: number }>();
  for (const p of prices) {
    const slot = p.start - (p.start % HALF_HOUR);
    const s = sums.get(slot) ?? { sum: 0, n: 0 };
    sums.set(slot, { sum: s.sum + p.rrp, n: s.n + 1 });
  }
  const intervals = [...sums].map(([, s], i) => ({ id: i, payloads: [{ type: 'PRICE', values: [Math.round((s.sum / s.n) * 100) / 100] }] }));
  return {
    id: `prices-${region}`,
    createdDateTime: iso(start),
    modificationDateTime: iso(start),
    objectType: 'EVENT',
    programID: `price-${region}`,
    eventName: `${region} forecast prices`,
    priority: null,
    targets: [],
    payloadDescriptors: [{ objectType: 'EVENT_PAYLOAD_DESCRIPTOR', payloadType: 'PRICE', units: 'MWH', currency: 'AUD' }],
    intervalPeriod: { start: iso(start), duration: isoDuration(HALF_HOUR) },
    intervals,
  };
}

/** The VPP ids a search's programID and target filters leave, within what the client sees (null: all). */
async function eventVppFilter(ctx: AppContext, client: VtnClient, q: SearchQuery): Promise<number[] | null> {
  let ids = await visibleVppIds(ctx, client);
  const narrow = (to: number[]) => {
    ids = ids === null ? to : ids.filter((i) => to.includes(i));
  };
  if (q.programID !== undefined) {
    const vpp = parseId(q.programID, 'vpp');
    narrow(vpp === null ? [] : [vpp]);
  }
  if (q.targetType !== undefined) {
    const byVpp = await repo.venNamesByVpp(ctx.db, client.organisationId);
    const values = q.targetValues ?? [];
    if (q.targetType === 'VEN_NAME') narrow([...byVpp].filter(([, names]) => values.length === 0 || names.some((n) => values.includes(n))).map(([p]) => p));
    else if (q.targetType === 'RESOURCE_NAME') {
      const vens = await repo.vens(ctx.db, client.organisationId);
      const res = await repo.resources(
        ctx.db,
        vens.map((v) => v.id),
      );
      const venIds = new Set(res.filter((r) => values.length === 0 || values.includes(r.resource_name)).map((r) => r.ven_id));
      narrow([...new Set((await repo.venVpps(ctx.db, [...venIds])).map((r) => r.powerstation_id))]);
    } else if (q.targetType === 'POSTCODE') {
      const vpps = await repo.vppsOf(ctx.db, client.organisationId);
      const byVpp = await repo.vppPostcodes(
        ctx.db,
        vpps.map((v) => v.id),
      );
      narrow([...byVpp].filter(([, codes]) => (values.length === 0 ? codes.length > 0 : codes.some((c) => values.includes(c)))).map(([p]) => p));
    } else narrow([]);
  }
  return ids;
}

export async function searchEvents(ctx: AppContext, client: VtnClient, q: SearchQuery): Promise<OadrEvent[]> {
  requireScope(client, 'read_all');
  const now = nowS();
  // The price events first (untargeted: every client sees them), then the console's events by id.
  const regions = q.targetType !== undefined ? [] : NEM_REGIONS.filter((r) => q.programID === undefined || q.programID === `price-${r}`);
  const priceSlice = regions.slice(q.skip, q.skip + q.limit);
  const out: OadrEvent[] = [];
  for (const r of priceSlice) out.push(await priceEvent(ctx, r, now));
  const left = q.limit - out.length;
  if (left <= 0) return out;
  const vppIds = await eventVppFilter(ctx, client, q);
  const rows = await repo.consoleEvents(ctx.db, client.organisationId, { vppIds, skip: Math.max(0, q.skip - regions.length), limit: left });
  return [...out, ...(await eventObjects(ctx, client.organisationId, rows))];
}

async function eventObjects(ctx: AppContext, organisationId: number, rows: repo.ConsoleEventRow[]): Promise<OadrEvent[]> {
  if (!rows.length) return [];
  const vppIds = [...new Set(rows.map((r) => r.powerstation_id as number))];
  const [vpps, names, postcodes] = await Promise.all([
    repo.vppsOf(ctx.db, organisationId, vppIds),
    repo.venNamesByVpp(ctx.db, organisationId),
    repo.vppPostcodes(ctx.db, vppIds),
  ]);
  const vppName = new Map(vpps.map((v) => [v.id, v.name]));
  return rows.map((r) => {
    const vpp = r.powerstation_id as number;
    return consoleEvent(r, vppName.get(vpp) ?? '', names.get(vpp) ?? [], postcodes.get(vpp) ?? []);
  });
}

/** One event the client sees, or 404 (another organisation's, or one not targeted at a VEN's client, is not found). */
export async function getEvent(ctx: AppContext, client: VtnClient, id: string): Promise<OadrEvent> {
  requireScope(client, 'read_all');
  const region = parseRegion(id, 'prices');
  if (region) return priceEvent(ctx, region, nowS());
  const eventId = parseId(id, 'event');
  if (eventId === null) throw notFound('event');
  const rows = await repo.consoleEvents(ctx.db, client.organisationId, { vppIds: await visibleVppIds(ctx, client), id: eventId });
  if (!rows.length) throw notFound('event');
  return (await eventObjects(ctx, client.organisationId, rows))[0];
}

// ---- reports ----

function storedReport(r: repo.ReportRow): Report {
  return {
    id: `report-${r.id}`,
    createdDateTime: iso(r.created_at),
    modificationDateTime: iso(r.modified_at),
    objectType: 'REPORT',
    programID: r.program_id,
    eventID: r.event_id,
    clientName: r.client_name,
    reportName: r.report_name,
    payloadDescriptors: repo.parseList(r.payload_descriptors) as Report['payloadDescriptors'],
    resources: repo.parseList(r.resources) as Report['resources'],
  };
}

/** The console's own report of a dispatch: the fleet's measured response per 5 minutes (kW, kWh) and the nodes that responded. */
async function consoleReport(ctx: AppContext, client: VtnClient, event: OadrEvent): Promise<Report | null> {
  const eventId = parseId(event.id, 'event');
  if (eventId === null || !event.payloadDescriptors?.some((d) => d.payloadType === 'DISPATCH_SETPOINT')) return null;
  const user = await callerOf(ctx, client.userId, 'done', { kind: 'api-key', keyId: client.keyId, ownerPermissions: [] });
  if (!user) return null;
  const rert = event.payloadDescriptors.some((d) => d.payloadType === 'ALERT_GRID_EMERGENCY');
  const response = await dispatchResponse(ctx, user, eventId, rert ? 'RERT' : 'DISPATCH');
  const intervals = Object.entries(response.series)
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([start, p], i) => ({
      id: i,
      intervalPeriod: { start: iso(Number(start)), duration: isoDuration(response.interval) },
      payloads: [
        { type: 'DEMAND', values: [p.realPowerP] },
        { type: 'DELIVERED_ENERGY', values: [p.deliveredKwh] },
      ],
    }));
  return {
    id: `response-${eventId}`,
    createdDateTime: event.createdDateTime,
    modificationDateTime: iso(nowS()),
    objectType: 'REPORT',
    programID: event.programID,
    eventID: event.id,
    clientName: 'VTN',
    reportName: `Measured response, ${response.total.deploymentsResponded} nodes responded`,
    payloadDescriptors: [
      { objectType: 'REPORT_PAYLOAD_DESCRIPTOR', payloadType: 'DEMAND', readingType: 'DIRECT_READ', units: 'KW' },
      { objectType: 'REPORT_PAYLOAD_DESCRIPTOR', payloadType: 'DELIVERED_ENERGY', readingType: 'DIRECT_READ', units: 'KWH' },
      { objectType: 'REPORT_PAYLOAD_DESCRIPTOR', payloadType: 'RESPONDING_NODES', readingType: 'SUMMED', units: null },
    ],
    resources: [
      {
        resourceName: 'AGGREGATED_REPORT',
        intervalPeriod: { start: event.intervalPeriod?.start ?? event.createdDateTime, duration: event.intervalPeriod?.duration ?? 'PT0S' },
        intervals: [...intervals, { id: intervals.length, payloads: [{ type: 'RESPONDING_NODES', values: [response.total.deploymentsResponded] }] }],
      },
    ],
  };
}

/** A VEN's client reads its own reports (and the console's of events it sees); a business client reads all. */
export async function searchReports(ctx: AppContext, client: VtnClient, q: SearchQuery): Promise<Report[]> {
  requireScope(client, 'read_all');
  const own: Report[] = [];
  if (q.eventID !== undefined && (q.clientName === undefined || q.clientName === 'VTN')) {
    const event = await getEvent(ctx, client, q.eventID).catch(() => null);
    const r = event && (q.programID === undefined || q.programID === event.programID) ? await consoleReport(ctx, client, event) : null;
    if (r) own.push(r);
  }
  const slice = own.slice(q.skip, q.skip + q.limit);
  const rows = await repo.reports(ctx.db, client.organisationId, {
    clientKeyId: client.venIds.length ? client.keyId : undefined,
    programId: q.programID,
    eventId: q.eventID,
    clientName: q.clientName,
    skip: Math.max(0, q.skip - own.length),
    limit: q.limit - slice.length,
  });
  return [...slice, ...rows.map(storedReport)];
}

export async function getReport(ctx: AppContext, client: VtnClient, id: string): Promise<Report> {
  requireScope(client, 'read_all');
  const response = parseId(id, 'response');
  if (response !== null) {
    const r = await consoleReport(ctx, client, await getEvent(ctx, client, `event-${response}`).catch(() => Promise.reject(notFound('report'))));
    if (!r) throw notFound('report');
    return r;
  }
  return storedReport(await ownReport(ctx, client, id, false));
}

async function ownReport(ctx: AppContext, client: VtnClient, id: string, write: boolean) {
  const n = parseId(id, 'report');
  const row = n === null ? undefined : (await repo.reports(ctx.db, client.organisationId, { id: n }))[0];
  // Another client's report is not found by a VEN's client, nor changed by anyone but its writer.
  if (!row || ((write || client.venIds.length) && row.client_key_id !== client.keyId)) throw notFound('report');
  return row;
}

type ReportInput = z.infer<typeof reportInput>;

/** A report must be of an event the client sees, in that event's program, and not report on intervals before the event. */
async function checkReport(ctx: AppContext, client: VtnClient, body: ReportInput) {
  const event = await getEvent(ctx, client, body.eventID).catch(() => null);
  if (!event) throw badInput('eventID names no event this client can see.');
  if (event.programID !== body.programID) throw badInput(`programID must be the event's program, ${event.programID}.`);
  if (client.venIds.length) {
    const names = new Set((await repo.vens(ctx.db, client.organisationId, { ids: client.venIds })).map((v) => v.ven_name));
    if (!names.has(body.clientName)) throw badInput("clientName must be the venName of one of this client's VENs.");
  }
  const eventStart = Date.parse(event.intervalPeriod?.start ?? event.createdDateTime);
  body.resources.forEach((r, i) => {
    const starts = [r.intervalPeriod?.start, ...r.intervals.map((iv) => iv.intervalPeriod?.start)];
    starts.forEach((s, j) => {
      if (s !== undefined && Date.parse(s) < eventStart - 3600_000) {
        throw badInput(`resources[${i}]${j === 0 ? '' : `.intervals[${j - 1}]`}.intervalPeriod.start is before the event's start.`);
      }
    });
  });
  return event;
}

export async function createReport(ctx: AppContext, client: VtnClient, body: ReportInput): Promise<Report> {
  requireScope(client, 'write_reports');
  await checkReport(ctx, client, body);
  const now = nowS();
  const report = await ctx.db.transaction().execute(async (trx) => {
    const row = await repo.insertReport(trx, { organisationId: client.organisationId, clientKeyId: client.keyId, ...reportFields(body), now });
    const report = storedReport(row);
    await notifyReport(trx, client, report, 'CREATE');
    return report;
  });
  return report;
}

const reportFields = (b: ReportInput) => ({
  programId: b.programID,
  eventId: b.eventID,
  clientName: b.clientName,
  reportName: b.reportName ?? null,
  payloadDescriptors: b.payloadDescriptors ?? [],
  resources: b.resources,
});

export async function updateReport(ctx: AppContext, client: VtnClient, id: string, body: ReportInput): Promise<Report> {
  requireScope(client, 'write_reports');
  const row = await ownReport(ctx, client, id, true);
  await checkReport(ctx, client, body);
  return ctx.db.transaction().execute(async (trx) => {
    await repo.updateReport(trx, row.id, { ...reportFields(body), now: nowS() });
    const report = storedReport((await repo.reports(trx, client.organisationId, { id: row.id }))[0]);
    await notifyReport(trx, client, report, 'UPDATE');
    return report;
  });
}

export async function deleteReport(ctx: AppContext, client: VtnClient, id: string): Promise<Report> {
  requireScope(client, 'write_reports');
  const row = await ownReport(ctx, client, id, true);
  const report = storedReport(row);
  await ctx.db.transaction().execute(async (trx) => {
    await repo.deleteReport(trx, row.id);
    await notifyReport(trx, client, report, 'DELETE');
  });
  return report;
}

// ---- VENs and resources ----

function venObject(v: Awaited<ReturnType<typeof repo.vens>>[number], res: Resource[] | null): Ven {
  return {
    id: `ven-${v.id}`,
    createdDateTime: iso(v.created_at),
    modificationDateTime: iso(v.modified_at),
    objectType: 'VEN',
    venName: v.ven_name,
    attributes: repo.parseList(v.attributes) as ValuesMap[],
    targets: repo.parseList(v.targets) as ValuesMap[],
    resources: res,
  };
}

function resourceObject(r: Awaited<ReturnType<typeof repo.resources>>[number]): Resource {
  return {
    id: `resource-${r.id}`,
    createdDateTime: iso(r.created_at),
    modificationDateTime: iso(r.modified_at),
    objectType: 'RESOURCE',
    resourceName: r.resource_name,
    venID: `ven-${r.ven_id}`,
    attributes: repo.parseList(r.attributes) as ValuesMap[],
    targets: repo.parseList(r.targets) as ValuesMap[],
  };
}

/** A VEN's client sees and writes only its own VENs; a business client sees the organisation's. */
const venScope = (client: VtnClient) => (client.venIds.length ? { ids: client.venIds } : {});

export async function searchVens(ctx: AppContext, client: VtnClient, q: SearchQuery): Promise<Ven[]> {
  requireScope(client, 'read_all');
  const rows = (await repo.vens(ctx.db, client.organisationId, { ...venScope(client), venName: q.venName })).filter((v) =>
    matchesTargets(repo.parseList(v.targets) as ValuesMap[], q),
  );
  const slice = page(rows, q);
  const res = await repo.resources(
    ctx.db,
    slice.map((v) => v.id),
  );
  return slice.map((v) => venObject(v, res.filter((r) => r.ven_id === v.id).map(resourceObject)));
}

async function findVen(ctx: AppContext, client: VtnClient, id: string, write: boolean) {
  const n = parseId(id, 'ven');
  const row = n === null ? undefined : (await repo.vens(ctx.db, client.organisationId, { ids: [n] }))[0];
  if (!row || ((write || client.venIds.length) && row.client_key_id !== client.keyId)) throw notFound('VEN');
  return row;
}

export async function getVen(ctx: AppContext, client: VtnClient, id: string): Promise<Ven> {
  requireScope(client, 'read_all');
  const v = await findVen(ctx, client, id, false);
  return venObject(v, (await repo.resources(ctx.db, [v.id])).map(resourceObject));
}

const nameTaken = (what: string, field: string) => new VtnProblem(409, 'Conflict', `A ${what} with this ${field} exists already.`);

export async function createVen(ctx: AppContext, client: VtnClient, body: z.infer<typeof venInput>): Promise<Ven> {
  requireScope(client, 'write_vens');
  if ((await repo.vens(ctx.db, client.organisationId, { venName: body.venName })).length) throw nameTaken('VEN', 'venName');
  const now = nowS();
  return ctx.db.transaction().execute(async (trx) => {
    const v = await repo.insertVen(trx, {
      organisationId: client.organisationId,
      clientKeyId: client.keyId,
      venName: body.venName,
      attributes: body.attributes,
      targets: body.targets,
      now,
    });
    const res = [];
    const names = new Set<string>();
    for (const r of body.resources ?? []) {
      if (names.has(r.resourceName)) throw nameTaken('resource', 'resourceName');
      names.add(r.resourceName);
      res.push(resourceObject(await repo.insertResource(trx, { venId: v.id, ...r, now })));
    }
    return told(trx, client, venObject(v, res), 'CREATE');
  });
}

export async function updateVen(ctx: AppContext, client: VtnClient, id: string, body: z.infer<typeof venInput>): Promise<Ven> {
  requireScope(client, 'write_vens');
  const v = await findVen(ctx, client, id, true);
  const same = await repo.vens(ctx.db, client.organisationId, { venName: body.venName });
  if (same.some((o) => o.id !== v.id)) throw nameTaken('VEN', 'venName');
  await repo.updateVen(ctx.db, v.id, { venName: body.venName, attributes: body.attributes, targets: body.targets, now: nowS() });
  return told(ctx.db, client, await getVen(ctx, { ...client, scopes: [...client.scopes, 'read_all'] }, id), 'UPDATE');
}

export async function deleteVen(ctx: AppContext, client: VtnClient, id: string): Promise<Ven> {
  requireScope(client, 'write_vens');
  const v = await findVen(ctx, client, id, true);
  const res = (await repo.resources(ctx.db, [v.id])).map(resourceObject);
  await ctx.db.transaction().execute((trx) => repo.deleteVen(trx, v.id));
  return told(ctx.db, client, venObject(v, res), 'DELETE');
}

export async function searchResources(ctx: AppContext, client: VtnClient, venId: string, q: SearchQuery): Promise<Resource[]> {
  requireScope(client, 'read_all');
  const v = await findVen(ctx, client, venId, false);
  const rows = (await repo.resources(ctx.db, [v.id], { resourceName: q.resourceName })).filter((r) =>
    matchesTargets(repo.parseList(r.targets) as ValuesMap[], q),
  );
  return page(rows, q).map(resourceObject);
}

async function findResource(ctx: AppContext, client: VtnClient, venId: string, id: string, write: boolean) {
  const v = await findVen(ctx, client, venId, write);
  const n = parseId(id, 'resource');
  const row = n === null ? undefined : (await repo.resources(ctx.db, [v.id], { id: n }))[0];
  if (!row) throw notFound('resource');
  return row;
}

export async function getResource(ctx: AppContext, client: VtnClient, venId: string, id: string): Promise<Resource> {
  requireScope(client, 'read_all');
  return resourceObject(await findResource(ctx, client, venId, id, false));
}

export async function createResource(ctx: AppContext, client: VtnClient, venId: string, body: z.infer<typeof resourceInput>): Promise<Resource> {
  requireScope(client, 'write_vens');
  const v = await findVen(ctx, client, venId, true);
  if ((await repo.resources(ctx.db, [v.id], { resourceName: body.resourceName })).length) throw nameTaken('resource', 'resourceName');
  return told(ctx.db, client, resourceObject(await repo.insertResource(ctx.db, { venId: v.id, ...body, now: nowS() })), 'CREATE');
}

export async function updateResource(ctx: AppContext, client: VtnClient, venId: string, id: string, body: z.infer<typeof resourceInput>): Promise<Resource> {
  requireScope(client, 'write_vens');
  const r = await findResource(ctx, client, venId, id, true);
  const same = await repo.resources(ctx.db, [r.ven_id], { resourceName: body.resourceName });
  if (same.some((o) => o.id !== r.id)) throw nameTaken('resource', 'resourceName');
  await repo.updateResource(ctx.db, r.id, { ...body, now: nowS() });
  return told(ctx.db, client, resourceObject((await repo.resources(ctx.db, [r.ven_id], { id: r.id }))[0]), 'UPDATE');
}

export async function deleteResource(ctx: AppContext, client: VtnClient, venId: string, id: string): Promise<Resource> {
  requireScope(client, 'write_vens');
  const r = await findResource(ctx, client, venId, id, true);
  await repo.deleteResource(ctx.db, r.id);
  return told(ctx.db, client, resourceObject(r), 'DELETE');
}

// ---- subscriptions ----

function subscriptionObject(s: repo.SubscriptionRow): Subscription {
  return {
    id: `subscription-${s.id}`,
    createdDateTime: iso(s.created_at),
    modificationDateTime: iso(s.modified_at),
    objectType: 'SUBSCRIPTION',
    clientName: s.client_name,
    programID: s.program_id,
    objectOperations: repo.parseList(s.object_operations) as Subscription['objectOperations'],
    targets: repo.parseList(s.targets) as ValuesMap[],
  };
}

/** Subscriptions are their client's own: another client's is not found. */
export async function searchSubscriptions(ctx: AppContext, client: VtnClient, q: SearchQuery): Promise<Subscription[]> {
  requireScope(client, 'read_all');
  const rows = (await repo.subscriptions(ctx.db, client.organisationId, { clientKeyId: client.keyId, programId: q.programID, clientName: q.clientName }))
    .map(subscriptionObject)
    .filter((s) => matchesTargets(s.targets, q) && (!q.objects?.length || s.objectOperations.some((o) => o.objects.some((t) => q.objects?.includes(t)))));
  return page(rows, q);
}

async function ownSubscription(ctx: AppContext, client: VtnClient, id: string) {
  const n = parseId(id, 'subscription');
  const row = n === null ? undefined : (await repo.subscriptions(ctx.db, client.organisationId, { id: n, clientKeyId: client.keyId }))[0];
  if (!row) throw notFound('subscription');
  return row;
}

export async function getSubscription(ctx: AppContext, client: VtnClient, id: string): Promise<Subscription> {
  requireScope(client, 'read_all');
  return subscriptionObject(await ownSubscription(ctx, client, id));
}

async function checkSubscription(ctx: AppContext, client: VtnClient, body: z.infer<typeof subscriptionInput>) {
  const programs = await allPrograms(ctx, client);
  if (!programs.some((p) => p.id === body.programID)) throw badInput('programID names no program this client can see.');
  body.objectOperations.forEach((o, i) => {
    const problem = callbackUrlProblem(o.callbackUrl, ctx.config.OPENADR_CALLBACK_ALLOW);
    if (problem) throw badInput(`objectOperations[${i}].${problem}`);
  });
}

export async function createSubscription(ctx: AppContext, client: VtnClient, body: z.infer<typeof subscriptionInput>): Promise<Subscription> {
  requireScope(client, 'write_subscriptions');
  await checkSubscription(ctx, client, body);
  const row = await repo.insertSubscription(ctx.db, {
    organisationId: client.organisationId,
    clientKeyId: client.keyId,
    clientName: body.clientName,
    programId: body.programID,
    objectOperations: body.objectOperations,
    targets: body.targets,
    now: nowS(),
  });
  // The scan runs every 5 s while a subscription is active.
  await queueScan(ctx.db, nowS());
  return subscriptionObject(row);
}

export async function updateSubscription(ctx: AppContext, client: VtnClient, id: string, body: z.infer<typeof subscriptionInput>): Promise<Subscription> {
  requireScope(client, 'write_subscriptions');
  const row = await ownSubscription(ctx, client, id);
  await checkSubscription(ctx, client, body);
  await repo.updateSubscription(ctx.db, row.id, {
    clientName: body.clientName,
    programId: body.programID,
    objectOperations: body.objectOperations,
    targets: body.targets,
    now: nowS(),
  });
  await queueScan(ctx.db, nowS());
  return subscriptionObject(await ownSubscription(ctx, client, id));
}

export async function deleteSubscription(ctx: AppContext, client: VtnClient, id: string): Promise<Subscription> {
  requireScope(client, 'write_subscriptions');
  const row = await ownSubscription(ctx, client, id);
  await repo.deleteSubscription(ctx.db, row.id);
  return subscriptionObject(row);
}

// ---- notifications ----

const HTTP_OPERATION = { CREATE: 'POST', UPDATE: 'PUT', DELETE: 'DELETE', READ: 'GET' } as const;
type Operation = keyof typeof HTTP_OPERATION;

/** One callback of one subscription (the index of its objectOperations entry). */
export interface CallbackTarget {
  subscriptionId: number;
  callback: number;
}
/**
 * A delivery job: one notification to a batch of callbacks (a fan-out), or to one (a retry). A
 * batch posts its callbacks a few at a time; a callback of it that fails gets a job of its own,
 * retried with the queue's backoff.
 */
export interface DeliveryPayload {
  targets: CallbackTarget[];
  notification: unknown;
}
/** Callbacks per delivery job, and posted at once by one job. */
export const DELIVERY_BATCH = 50;
const DELIVERY_PARALLEL = 25;
/** A failed callback of a batch is tried again this long after (the queue's first backoff). */
const RETRY_AFTER_S = 30;

/** The webhook delivery job, set by the area's module (jobs import this service, not the other way round). */
let deliveryJob: JobDefinition<DeliveryPayload> | null = null;
export function useDeliveryJob(job: NonNullable<typeof deliveryJob>) {
  deliveryJob = job;
}

/**
 * Whether an object is of a subscription's program: an event or report by its programID, a program
 * by its id. A VEN or resource belongs to no program: any subscription that asks for VENs or
 * resources hears of them.
 */
function inProgram(s: repo.SubscriptionRow, object: OadrNotification['object']): boolean {
  if (object.objectType === 'VEN' || object.objectType === 'RESOURCE') return true;
  return s.program_id === ('programID' in object ? object.programID : object.id);
}

/**
 * Queues a notification for each callback of the subscriptions that ask for it, in jobs of
 * DELIVERY_BATCH callbacks (idempotent by key: the subscriptions are read in id order, so an
 * overlapping scan makes the same batches).
 */
async function fanOut(
  db: AppContext['db'],
  subs: repo.SubscriptionRow[],
  object: OadrNotification['object'],
  op: Operation,
  key: string,
  sees: (s: repo.SubscriptionRow) => boolean,
) {
  if (!deliveryJob) return;
  const notification: OadrNotification = { objectType: object.objectType, operation: HTTP_OPERATION[op], object };
  const targets: CallbackTarget[] = [];
  for (const s of subs) {
    if (s.status !== 'ACTIVE' || !inProgram(s, object) || !sees(s)) continue;
    const ops = repo.parseList(s.object_operations) as Subscription['objectOperations'];
    for (const [i, o] of ops.entries())
      if (o.objects.includes(object.objectType) && o.operations.includes(op)) targets.push({ subscriptionId: s.id, callback: i });
  }
  for (let i = 0; i < targets.length; i += DELIVERY_BATCH) {
    const batch = targets.slice(i, i + DELIVERY_BATCH);
    const first = batch[0];
    await enqueueJob(db, deliveryJob, { targets: batch, notification }, { uniqueKey: `oadr:${first.subscriptionId}:${first.callback}:${key}`, maxAttempts: 8 });
  }
}

async function notifyReport(db: AppContext['db'], client: VtnClient, report: Report, op: Operation) {
  const subs = await repo.activeSubscriptions(db, client.organisationId);
  const venClients = new Set((await repo.vens(db, client.organisationId)).map((v) => v.client_key_id));
  // A VEN's client hears of its own reports only.
  await fanOut(
    db,
    subs,
    report,
    op,
    `${report.id}:${op}:${report.modificationDateTime}:${randomUUID()}`,
    (s) => !venClients.has(s.client_key_id) || s.client_key_id === client.keyId,
  );
}

/** A VEN's or resource's change, told at once to the subscriptions that ask for it: a VEN's client hears of its own VENs only. */
async function notifyVenChange(db: AppContext['db'], client: VtnClient, object: Ven | Resource, op: Operation) {
  const subs = await repo.activeSubscriptions(db, client.organisationId);
  if (!subs.length) return;
  const venClients = new Set((await repo.vens(db, client.organisationId)).map((v) => v.client_key_id));
  venClients.add(client.keyId);
  await fanOut(
    db,
    subs,
    object,
    op,
    `${object.id}:${op}:${object.modificationDateTime}:${randomUUID()}`,
    (s) => !venClients.has(s.client_key_id) || s.client_key_id === client.keyId,
  );
}

/** Tells the subscriptions of a VEN's or resource's change, and answers the object. */
async function told<T extends Ven | Resource>(db: AppContext['db'], client: VtnClient, object: T, op: Operation): Promise<T> {
  await notifyVenChange(db, client, object, op);
  return object;
}

export const SCAN_KIND = 'openadr.scan';
export const SCAN_PERIOD_S = 5;

/** Queues the scan due at `at` (rounded up to the period), once: its unique key is the recurring run's. */
export async function queueScan(db: AppContext['db'], at: number): Promise<void> {
  const due = Math.ceil(at / SCAN_PERIOD_S) * SCAN_PERIOD_S;
  await enqueue(db, SCAN_KIND, { at: due }, { runAt: due, uniqueKey: `${SCAN_KIND}@${due}` });
}

export async function hasSubscriptions(ctx: AppContext): Promise<boolean> {
  return (await repo.subscribedOrganisations(ctx.db)).length > 0;
}

/** How far back a scan looks at most; changes are keyed, so overlapping scans queue each notification once. */
export const SCAN_WINDOW_S = 120;

/**
 * Finds the console's events and VPPs (programs) changed since the last scan (created, changed,
 * cancelled) in the organisations that have active subscriptions and queues their notifications: a
 * cancelled event as DELETE. It looks back to `since`, at most SCAN_WINDOW_S. Answers how many
 * changed objects it found.
 */
export async function scanChanges(ctx: AppContext, now = nowS(), since?: number): Promise<number> {
  const from = Math.max(now - SCAN_WINDOW_S, since ?? 0);
  let queued = 0;
  for (const org of await repo.subscribedOrganisations(ctx.db)) {
    const subs = await repo.activeSubscriptions(ctx.db, org);
    const rows = await repo.consoleEvents(ctx.db, org, { vppIds: null, changedSince: from, withCancelled: true });
    const vpps = await repo.changedVpps(ctx.db, org, from);
    if (!rows.length && !vpps.length) continue;
    const vens = await repo.vens(ctx.db, org);
    const enrolled = await repo.venVpps(
      ctx.db,
      vens.map((v) => v.id),
    );
    const vppsOfClient = new Map<number, Set<number>>();
    for (const v of vens) {
      const set = vppsOfClient.get(v.client_key_id) ?? new Set<number>();
      for (const e of enrolled) if (e.ven_id === v.id) set.add(e.powerstation_id);
      vppsOfClient.set(v.client_key_id, set);
    }
    // A VEN's client hears only of the VPPs (programs) its VENs are in, and of their events.
    const seesVpp = (vpp: number) => (s: repo.SubscriptionRow) => {
      const own = vppsOfClient.get(s.client_key_id);
      return !own || own.has(vpp);
    };
    const events = await eventObjects(ctx, org, rows);
    for (const [i, row] of rows.entries()) {
      const op: Operation = row.cancelled_at !== null ? 'DELETE' : row.modified_at > row.created_at ? 'UPDATE' : 'CREATE';
      await fanOut(ctx.db, subs, events[i], op, `${events[i].id}:${op}:${row.modified_at}`, seesVpp(row.powerstation_id as number));
      queued++;
    }
    for (const v of vpps) {
      const op: Operation = v.updated_at > v.created_at ? 'UPDATE' : 'CREATE';
      await fanOut(ctx.db, subs, vppProgram(v), op, `vpp-${v.id}:${op}:${v.updated_at}`, seesVpp(v.id));
      queued++;
    }
  }
  return queued;
}

/** A subscription that has failed for this long is suspended and its owner told. */
export const SUSPEND_AFTER_S = 24 * 3600;

/**
 * Delivers one queued notification to its callbacks, DELIVERY_PARALLEL at a time, and records each
 * subscription's last delivery (the successes in one write). A failure of a single-callback job
 * throws, so that the queue retries it with backoff; a failed callback of a batch gets a job of its
 * own instead (the others are not sent again). A subscription failing for a day is suspended.
 */
export async function deliver(ctx: AppContext, payload: DeliveryPayload): Promise<void> {
  const subs = new Map((await repo.findSubscriptions(ctx.db, [...new Set(payload.targets.map((t) => t.subscriptionId))])).map((s) => [s.id, s]));
  const now = nowS();
  const ok = new Map<string, number[]>();
  const failed: { target: CallbackTarget; result: string }[] = [];
  let next = 0;
  const lane = async () => {
    while (next < payload.targets.length) {
      const target = payload.targets[next++];
      const sub = subs.get(target.subscriptionId);
      if (sub?.status !== 'ACTIVE') continue;
      const op = (repo.parseList(sub.object_operations) as Subscription['objectOperations'])[target.callback];
      if (!op) continue;
      const r = await postCallback(op.callbackUrl, op.bearerToken ?? null, payload.notification, ctx.config.OPENADR_CALLBACK_ALLOW);
      if (r.ok) ok.set(r.result, [...(ok.get(r.result) ?? []), sub.id]);
      else failed.push({ target, result: r.result });
    }
  };
  await Promise.all(Array.from({ length: Math.min(DELIVERY_PARALLEL, payload.targets.length) }, lane));
  for (const [result, ids] of ok) await repo.recordDeliveries(ctx.db, ids, { result, at: now });
  for (const f of failed) {
    const sub = subs.get(f.target.subscriptionId) as repo.SubscriptionRow;
    await repo.recordDelivery(ctx.db, sub.id, { ok: false, result: f.result, at: now });
    if (now - (sub.failing_since ?? now) >= SUSPEND_AFTER_S) {
      await suspend(ctx, sub, f.result, now);
      continue;
    }
    if (payload.targets.length === 1) throw new Error(`OpenADR callback failed: ${f.result}`);
    if (deliveryJob)
      await enqueueJob(ctx.db, deliveryJob, { targets: [f.target], notification: payload.notification }, { runAt: now + RETRY_AFTER_S, maxAttempts: 8 });
  }
}

async function suspend(ctx: AppContext, sub: repo.SubscriptionRow, result: string, now: number): Promise<void> {
  if (!(await repo.suspendSubscription(ctx.db, sub.id, now))) return;
  const client = await repo.findClient(ctx.db, sub.client_key_id);
  if (client) {
    await notifyUser(ctx, client.user_id, {
      summary: 'OpenADR subscription suspended',
      body: `Deliveries to the subscription of ${sub.client_name} have failed for a day (last: ${result}), so it is suspended. The client updates the subscription to start it again.`,
    });
  }
}

// ---- the console's screen ----

export function baseUrl(ctx: AppContext, origin: string): string {
  return `${(ctx.config.PUBLIC_URL ?? origin).replace(/\/$/, '')}${OPENADR_BASE_PATH}`;
}

export async function overview(ctx: AppContext, organisationId: number, origin: string): Promise<OpenadrOverview> {
  const [vens, subs, vpps, ven] = await Promise.all([
    repo.vens(ctx.db, organisationId),
    repo.subscriptions(ctx.db, organisationId),
    repo.vppsOf(ctx.db, organisationId),
    venOverview(ctx, organisationId),
  ]);
  const ids = vens.map((v) => v.id);
  const [res, enrolled, keys] = await Promise.all([
    repo.resources(ctx.db, ids),
    repo.venVpps(ctx.db, ids),
    repo.keyNames(ctx.db, organisationId, [...new Set([...vens, ...subs].map((x) => x.client_key_id))]),
  ]);
  return {
    baseUrl: baseUrl(ctx, origin),
    vens: vens.map((v) => ({
      id: v.id,
      venName: v.ven_name,
      keyName: keys.get(v.client_key_id) ?? null,
      createdAt: v.created_at,
      resources: res.filter((r) => r.ven_id === v.id).map((r) => ({ id: r.id, resourceName: r.resource_name })),
      vppIds: enrolled.filter((e) => e.ven_id === v.id).map((e) => e.powerstation_id),
    })),
    subscriptions: subs.map((s) => {
      const ops = repo.parseList(s.object_operations) as Subscription['objectOperations'];
      return {
        id: s.id,
        clientName: s.client_name,
        programID: s.program_id,
        objects: [...new Set(ops.flatMap((o) => o.objects))].filter((o) => (OBJECT_TYPES as readonly string[]).includes(o)),
        callbackUrls: ops.map((o) => o.callbackUrl),
        status: s.status,
        lastDeliveryAt: s.last_delivery_at,
        lastDeliveryResult: s.last_delivery_result,
      };
    }),
    vpps: vpps.map((v) => ({ id: v.id, name: v.name })),
    ven,
  };
}

/** An administrator chooses the VPPs whose events a VEN receives; each must be the organisation's. */
export async function setVenVpps(ctx: AppContext, organisationId: number, venId: number, vppIds: number[]): Promise<void> {
  const ven = await repo.vens(ctx.db, organisationId, { ids: [venId] });
  if (!ven.length) throw consoleNotFound('VEN');
  const unique = [...new Set(vppIds)];
  const found = await repo.vppsOf(ctx.db, organisationId, unique);
  if (found.length !== unique.length) throw consoleNotFound('VPP');
  await ctx.db.transaction().execute((trx) => repo.setVenVpps(trx, venId, unique));
}
