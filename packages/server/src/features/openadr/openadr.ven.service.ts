import { createHmac, timingSafeEqual } from 'node:crypto';
import { MAX_DISPATCH_DURATION_S } from '@vpp/shared/dispatches/schemas';
import { durationSeconds, isoDuration, type OadrEvent, OPENADR_MAX_LIMIT, type Program, type Report, type Ven } from '@vpp/shared/openadr/schemas';
import type { Config } from '../../config.ts';
import { nowS } from '../../db/database.ts';
import type { AppContext } from '../../platform/context.ts';
import {
  type CurtailmentActor,
  cancelCurtailment,
  createCurtailment,
  createImportLimit,
  curtailmentConstraint,
  curtailmentResponse,
  findCurtailment,
} from '../curtailments/index.ts';
import type { PowerstationRow } from '../vpps/index.ts';
import * as repo from './openadr.ven.repo.ts';

// The console as a VEN of a network's VTN (issue 31 item 4, docs/openadr.md "The console as a VEN"):
// it registers, subscribes, polls the VTN's events, makes curtailments of the capacity limits
// targeted at it, follows their changes and deletions, and reports its response back.

type Settings = NonNullable<Config['openadrVtn']>;

const STEP_S = 300;
/** How long one poll may hold its lease (a process that dies mid-poll lets the next one in after this). */
const LEASE_S = 120;
/** The most events one poll reads (pages of the document's maximum, 50). */
const MAX_EVENTS = 1000;
/** The path at which the VTN's notifications reach the console (no session: the callback's bearer token). */
export const VEN_CALLBACK_PATH = '/openadr/ven/notifications';
export const VEN_SYNC_KIND = 'openadr.ven.sync';

/**
 * The event payload types the console turns into curtailments, and the component each limits: an
 * import capacity limit becomes a curtailment of component import, held by the VPP's batteries.
 */
const LIMITS: Record<string, 'grid' | 'solar' | 'import'> = {
  EXPORT_CAPACITY_LIMIT: 'grid',
  GENERATION_CAPACITY_LIMIT: 'solar',
  IMPORT_CAPACITY_LIMIT: 'import',
};
const DEFAULT_NAMES = { grid: 'Export limit', solar: 'Generation limit', import: 'Import limit' } as const;

export const VEN_MESSAGES = {
  namesNoVpp: (org: string) =>
    `The event names no VPP of ${org} (a RESOURCE_NAME target), no NMI (NMI or POWER_SERVICE_LOCATION) and no postcode (POSTCODE): it is not applied.`,
  noVppCovers: (org: string) => `No VPP of ${org} is named by or covers the event's targets: it is not applied.`,
  ended: 'The event had ended when it was received.',
  noValue: 'The event has no numeric limit in its intervals.',
  organisation: (name: string) => `OPENADR_VEN_ORGANISATION names no organisation: ${name}.`,
};

const iso = (s: number) => new Date(s * 1000).toISOString().replace('.000Z', 'Z');
const seconds = (text: string) => Math.floor(Date.parse(text) / 1000);

/** The bearer token the VTN must send with its notifications: derived from the console's own key. */
export const callbackToken = (ctx: AppContext) => createHmac('sha256', ctx.keys.access).update('openadr-ven-callback').digest('base64url');

export function validCallbackToken(ctx: AppContext, authorization: string | undefined): boolean {
  const given = Buffer.from(authorization?.startsWith('Bearer ') ? authorization.slice(7).trim() : '');
  const want = Buffer.from(callbackToken(ctx));
  return given.length === want.length && timingSafeEqual(given, want);
}

/** An answer of the VTN that is not a success. */
class VtnError extends Error {}

/** The VTN's client: a token by client credentials (renewed before it expires), JSON over fetch. */
function vtnClient(s: Settings) {
  let token: { value: string; until: number } | null = null;
  async function getToken(): Promise<string> {
    if (token && token.until > nowS() + 30) return token.value;
    const res = await fetch(`${s.url}/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: s.clientId, client_secret: s.clientSecret }).toString(),
      redirect: 'error',
      signal: AbortSignal.timeout(10_000),
    });
    const body = (await res.json().catch(() => ({}))) as { access_token?: string; expires_in?: number; error?: string; error_description?: string };
    if (!res.ok || !body.access_token)
      throw new VtnError(
        `The VTN refused the client credentials (${res.status}${body.error ? ` ${body.error}` : ''}${body.error_description ? `: ${body.error_description}` : ''}).`,
      );
    token = { value: body.access_token, until: nowS() + (body.expires_in ?? 3600) };
    return token.value;
  }
  async function call<T>(method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${s.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${await getToken()}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      redirect: 'error',
      signal: AbortSignal.timeout(10_000),
    });
    const text = await res.text();
    if (!res.ok) {
      let detail = text.slice(0, 300);
      try {
        detail = (JSON.parse(text) as { detail?: string }).detail ?? detail;
      } catch {}
      throw new VtnError(`${method} ${path}: ${res.status} ${detail}`);
    }
    return JSON.parse(text) as T;
  }
  return { call };
}
type Client = ReturnType<typeof vtnClient>;
const clients = new Map<string, Client>();
const clientOf = (s: Settings) => {
  const key = `${s.url} ${s.clientId}`;
  const known = clients.get(key);
  if (known) return known;
  const made = vtnClient(s);
  clients.set(key, made);
  return made;
};

/** Every page of a search (the VTN answers at most 50 at once). */
async function searchAll<T>(client: Client, path: string, query = ''): Promise<T[]> {
  const out: T[] = [];
  for (let skip = 0; skip < MAX_EVENTS; skip += OPENADR_MAX_LIMIT) {
    const page = await client.call<T[]>('GET', `${path}?skip=${skip}&limit=${OPENADR_MAX_LIMIT}${query}`);
    out.push(...page);
    if (page.length < OPENADR_MAX_LIMIT) break;
  }
  return out;
}

/** The VEN's id at the VTN: found by its name, or registered. */
async function ensureVen(client: Client, venName: string): Promise<string> {
  const found = await client.call<Ven[]>('GET', `/vens?venName=${encodeURIComponent(venName)}`);
  const mine = found.find((v) => v.venName === venName);
  if (mine) return mine.id;
  return (await client.call<Ven>('POST', '/vens', { venName, attributes: [], targets: [] })).id;
}

/**
 * Subscribes to each program's events (once per program) when the console has a public URL the VTN
 * can call, adding each program to `out` as it is subscribed to.
 */
async function ensureSubscriptions(ctx: AppContext, client: Client, venName: string, out: string[]): Promise<void> {
  if (!ctx.config.PUBLIC_URL) return;
  const programs = await searchAll<Program>(client, '/programs');
  for (const p of programs) {
    if (out.includes(p.id)) continue;
    await client.call('POST', '/subscriptions', {
      clientName: venName,
      programID: p.id,
      objectOperations: [
        {
          objects: ['EVENT'],
          operations: ['CREATE', 'UPDATE', 'DELETE'],
          callbackUrl: `${ctx.config.publicUrl}${VEN_CALLBACK_PATH}`,
          bearerToken: callbackToken(ctx),
        },
      ],
    });
    out.push(p.id);
  }
}

/** The capacity limit an event carries: its payload type and each interval's window and kW. */
function limitsOf(e: OadrEvent): { type: string; windows: { start: number; end: number; kw: number }[] } | null {
  const type = Object.keys(LIMITS).find((t) => e.intervals.some((i) => i.payloads.some((p) => p.type === t)));
  if (!type) return null;
  const units = (e.payloadDescriptors ?? []).find((d) => d.payloadType === type)?.units?.toUpperCase() ?? 'KW';
  const scale = units === 'W' ? 0.001 : units === 'MW' ? 1000 : 1;
  const eventStart = e.intervalPeriod ? seconds(e.intervalPeriod.start) : Number.NaN;
  const eventDuration = e.intervalPeriod?.duration ? durationSeconds(e.intervalPeriod.duration) : null;
  const windows: { start: number; end: number; kw: number }[] = [];
  e.intervals.forEach((interval, i) => {
    const value = interval.payloads.find((p) => p.type === type)?.values.find((v) => typeof v === 'number');
    if (typeof value !== 'number') return;
    // An interval without its own period follows the event's, one duration after the other.
    const own = interval.intervalPeriod;
    const duration = (own?.duration ? durationSeconds(own.duration) : null) ?? eventDuration;
    const start = own ? seconds(own.start) : eventStart + i * (eventDuration ?? 0);
    if (!Number.isFinite(start)) return;
    // No duration, or one past the longest curtailment: as long as a curtailment may be.
    const length = duration === null || duration <= 0 || duration > MAX_DISPATCH_DURATION_S ? MAX_DISPATCH_DURATION_S : duration;
    windows.push({ start, end: start + length, kw: Math.abs(value) * scale });
  });
  return { type, windows };
}

/** The organisation's VPPs an event's targets name (RESOURCE_NAME) or cover (NMIs, postcodes); null when it has none of those targets. */
async function targetedVpps(ctx: AppContext, organisationId: number, e: OadrEvent): Promise<PowerstationRow[] | null> {
  const values = (...types: string[]) => (e.targets ?? []).filter((t) => types.includes(t.type)).flatMap((t) => t.values.map(String));
  const names = values('RESOURCE_NAME');
  const nmis = values('NMI', 'POWER_SERVICE_LOCATION');
  const postcodes = values('POSTCODE');
  if (!names.length && !nmis.length && !postcodes.length) return null;
  const out: PowerstationRow[] = [];
  for (const ps of await repo.organisationVpps(ctx.db, organisationId)) {
    if (ps.type === 'FCAS') continue;
    if (names.includes(ps.name) || (await repo.vppCovers(ctx.db, ps, { nmis, postcodes }))) out.push(ps);
  }
  return out;
}

const list = (json: string) => (JSON.parse(json) as unknown[]).filter((v): v is number => typeof v === 'number');

/** Cancels the curtailments made of an event that are still to come or running. */
async function withdraw(ctx: AppContext, actor: CurtailmentActor, ids: number[], now: number): Promise<void> {
  for (const id of ids) {
    const c = await findCurtailment(ctx.db, actor.organisationId, id);
    if (c && c.cancelled_at === null && c.start_time + c.duration > now) await cancelCurtailment(ctx, actor, id);
  }
}

/**
 * Makes the curtailments of a capacity-limit event: one per targeted VPP and interval, from the
 * current 5-minute step at the earliest, an export limit rounded to the 0.1 kW step toward less
 * export and never beyond what the VPP can put out (a looser limit does not bind), an import limit
 * (the VPP's maximum net import) toward less import. Answers the curtailments made and, when none, why.
 */
async function apply(ctx: AppContext, org: { id: number; name: string }, host: string, e: OadrEvent, now: number) {
  const limits = limitsOf(e);
  if (!limits) return { status: 'NOT_APPLIED' as const, detail: VEN_MESSAGES.noValue, ids: [] as number[], end: null };
  const component = LIMITS[limits.type];
  const end = Math.max(0, ...limits.windows.map((w) => w.end));
  if (!limits.windows.length) return { status: 'NOT_APPLIED' as const, detail: VEN_MESSAGES.noValue, ids: [], end };
  const vpps = await targetedVpps(ctx, org.id, e);
  if (vpps === null) return { status: 'NOT_APPLIED' as const, detail: VEN_MESSAGES.namesNoVpp(org.name), ids: [], end };
  if (!vpps.length) return { status: 'NOT_APPLIED' as const, detail: VEN_MESSAGES.noVppCovers(org.name), ids: [], end };
  const name = (e.eventName ?? '').trim().slice(0, 120) || DEFAULT_NAMES[component];
  const actor: CurtailmentActor = { id: null, organisationId: org.id, reason: `${name} (OpenADR ${e.id} from ${host})` };
  const ids: number[] = [];
  const problems: string[] = [];
  const step = now - (now % STEP_S);
  for (const w of limits.windows) {
    const start = Math.max(w.start - (w.start % STEP_S), step);
    const stop = Math.ceil(w.end / STEP_S) * STEP_S;
    if (stop - start < STEP_S) continue;
    for (const ps of vpps) {
      const duration = Math.min(stop - start, MAX_DISPATCH_DURATION_S);
      if (component === 'import') {
        // Any value is taken: the batteries hold what they can, and the response shows what was achieved.
        try {
          ids.push((await createImportLimit(ctx, actor, { powerstation: ps.id, startTime: start, duration, importKw: w.kw }, now)).id);
        } catch (err) {
          problems.push(`${ps.name}: ${(err as Error).message}`);
        }
        continue;
      }
      const { constraint } = await curtailmentConstraint(ctx, actor, ps.id);
      if (constraint === 0) {
        problems.push(`${ps.name} has no curtailable nodes.`);
        continue;
      }
      const realPowerP = Math.max(Math.ceil(-w.kw * 10 - 1e-9) / 10, constraint) + 0;
      try {
        ids.push((await createCurtailment(ctx, actor, { powerstation: ps.id, startTime: start, duration, realPowerP, component }, now)).id);
      } catch (err) {
        problems.push(`${ps.name}: ${(err as Error).message}`);
      }
    }
  }
  if (!ids.length) return { status: 'NOT_APPLIED' as const, detail: problems.join(' ') || VEN_MESSAGES.ended, ids, end };
  return { status: 'APPLIED' as const, detail: problems.length ? problems.join(' ') : null, ids, end };
}

/**
 * The console's response as an OpenADR report: one resource per curtailed VPP (named as the VPP),
 * the VPP's curtailed nodes' net meter power (DEMAND, kW, import positive; for an import limit every
 * home of the VPP, those without a battery too) in each 5-minute interval measured so far. Answers null when no interval has been measured since the last report.
 */
async function responseReport(ctx: AppContext, row: repo.VtnEventRow, venName: string, now: number) {
  const resources: Report['resources'] = [];
  let latest = row.reported_until ?? 0;
  let accepted = 0;
  let asked = 0;
  for (const id of list(row.curtailment_ids)) {
    const c = await findCurtailment(ctx.db, row.organisation_id, id);
    if (!c || c.start_time > now) continue;
    const r = await curtailmentResponse(ctx, { organisationId: row.organisation_id }, id);
    accepted += r.deploymentsAccepted;
    asked += r.deploymentsRequested;
    const end = Math.min(c.start_time + c.duration, c.cancelled_at ?? Number.POSITIVE_INFINITY);
    const intervals: Report['resources'][number]['intervals'] = [];
    for (let ts = c.start_time; ts + STEP_S <= Math.min(end, now); ts += STEP_S) {
      const kw = r.meterPower[ts];
      if (kw === null || kw === undefined) continue;
      intervals.push({ id: intervals.length, intervalPeriod: { start: iso(ts), duration: isoDuration(STEP_S) }, payloads: [{ type: 'DEMAND', values: [kw] }] });
      latest = Math.max(latest, ts + STEP_S);
    }
    resources.push({ resourceName: c.powerstation_name ?? `VPP ${c.powerstation_id}`, intervals });
  }
  if (latest <= (row.reported_until ?? 0) && row.report_id !== null) return null;
  if (!resources.some((r) => r.intervals.length) && row.report_id !== null) return null;
  return {
    latest,
    body: {
      programID: row.program_id,
      eventID: row.vtn_event_id,
      clientName: venName,
      reportName: `Curtailment response, ${accepted} of ${asked} nodes accepted the limit`,
      payloadDescriptors: [{ payloadType: 'DEMAND', readingType: 'DIRECT_READ', units: 'KW' }],
      resources,
    },
  };
}

/**
 * One poll of the VTN (the sync job, on its period and at once when the VTN notifies): the VEN
 * registered, the programs subscribed to, every event read; a new or changed capacity limit targeted
 * at the console becomes curtailments (a changed one's earlier curtailments cancelled), a deleted
 * one's are cancelled, and each applied event's report is posted and then updated as its
 * intervals are measured. One process polls at a time. The outcome is kept for the OpenADR screen.
 */
export async function syncWithVtn(ctx: AppContext, now = nowS()): Promise<void> {
  const s = ctx.config.openadrVtn;
  if (!s) return;
  if (!(await repo.takeLease(ctx.db, s.url, now, now + LEASE_S))) return;
  const db = ctx.db;
  try {
    const org = await repo.organisationByName(db, s.organisation);
    if (!org) throw new VtnError(VEN_MESSAGES.organisation(s.organisation));
    const venName = s.venName ?? org.name;
    const client = clientOf(s);
    const host = new URL(s.url).host;
    const state = await repo.state(db, s.url);
    const venId = state?.ven_id ?? (await ensureVen(client, venName));
    // A VTN that refuses the subscription (say, the console's callback URL) is still polled.
    const subscribed = state ? (JSON.parse(state.subscribed) as string[]) : [];
    let subscribeError: string | null = null;
    try {
      await ensureSubscriptions(ctx, client, venName, subscribed);
    } catch (err) {
      if (!(err instanceof VtnError)) throw err;
      subscribeError = `The VTN refused the subscription, so the console only polls: ${err.message}`;
    }
    await repo.saveState(db, s.url, { ven_id: venId, subscribed: JSON.stringify(subscribed) });

    const events = await searchAll<OadrEvent>(client, '/events');
    const known = new Map((await repo.vtnEvents(db, s.url)).map((r) => [r.vtn_event_id, r]));
    const actor: CurtailmentActor = { id: null, organisationId: org.id };
    const seen = new Set<string>();
    for (const e of events) {
      const payloadType = Object.keys(LIMITS).find((t) => e.intervals.some((i) => i.payloads.some((p) => p.type === t)));
      if (!payloadType) continue;
      const venTargets = (e.targets ?? []).filter((t) => t.type === 'VEN_NAME');
      if (venTargets.length && !venTargets.some((t) => t.values.includes(venName))) continue;
      seen.add(e.id);
      const old = known.get(e.id);
      if (old && old.modified === e.modificationDateTime && old.status !== 'DELETED') continue;
      if (old) await withdraw(ctx, actor, list(old.curtailment_ids), now);
      const made = await apply(ctx, org, host, e, now);
      const fields = {
        program_id: e.programID,
        event_name: e.eventName ?? null,
        modified: e.modificationDateTime,
        payload_type: payloadType,
        status: made.status,
        detail: made.detail,
        curtailment_ids: JSON.stringify(made.ids),
        end_time: made.end,
        updated_at: now,
      };
      if (old) await repo.updateVtnEvent(db, old.id, { ...fields, reported_until: null });
      else
        await repo.insertVtnEvent(db, {
          ...fields,
          vtn_url: s.url,
          organisation_id: org.id,
          vtn_event_id: e.id,
          report_id: null,
          reported_until: null,
          received_at: now,
        });
    }
    // Gone from the VTN: deleted there (a cancelled event), so its curtailments are cancelled.
    for (const [id, row] of known) {
      if (seen.has(id) || row.status === 'DELETED') continue;
      await withdraw(ctx, actor, list(row.curtailment_ids), now);
      await repo.updateVtnEvent(db, row.id, { status: 'DELETED', updated_at: now });
    }
    await reportBack(ctx, client, venName, now);
    await repo.saveState(db, s.url, { last_ok_at: now, last_error: subscribeError?.slice(0, 500) ?? null, lease_until: null });
  } catch (err) {
    const message = err instanceof VtnError ? err.message : `The VTN could not be reached: ${(err as Error).message}`;
    await repo.saveState(db, s.url, { last_error: message.slice(0, 500), lease_until: null });
  }
}

/** Posts (then updates) the report of each applied event whose intervals have been measured since its last report. */
async function reportBack(ctx: AppContext, client: Client, venName: string, now: number): Promise<void> {
  const s = ctx.config.openadrVtn as Settings;
  for (const row of await repo.vtnEvents(ctx.db, s.url)) {
    if (row.curtailment_ids === '[]' || row.end_time === null) continue;
    // Reported to the end of the event (or of its cancellation) once: nothing more to measure.
    if (row.reported_until !== null && row.reported_until >= row.end_time) continue;
    const out = await responseReport(ctx, row, venName, now);
    if (!out) continue;
    if (row.report_id === null) {
      const created = await client.call<Report>('POST', '/reports', out.body);
      await repo.updateVtnEvent(ctx.db, row.id, { report_id: created.id, reported_until: out.latest || null });
    } else {
      await client.call<Report>('PUT', `/reports/${encodeURIComponent(row.report_id)}`, out.body);
      await repo.updateVtnEvent(ctx.db, row.id, { reported_until: out.latest });
    }
  }
}

/** What the OpenADR screen shows of the VEN side: the connection and the latest events received. */
export async function venOverview(ctx: AppContext, organisationId: number) {
  const s = ctx.config.openadrVtn;
  if (!s) return null;
  const org = await repo.organisationByName(ctx.db, s.organisation);
  if (org?.id !== organisationId) return null;
  const [state, events] = await Promise.all([repo.state(ctx.db, s.url), repo.latestVtnEvents(ctx.db, organisationId, 20)]);
  return {
    vtnUrl: s.url,
    venName: s.venName ?? org.name,
    venID: state?.ven_id ?? null,
    subscribed: ctx.config.PUBLIC_URL !== undefined,
    lastPollAt: state?.last_poll_at ?? null,
    lastOkAt: state?.last_ok_at ?? null,
    lastError: state?.last_error ?? null,
    events: events.map((e) => ({
      eventID: e.vtn_event_id,
      programID: e.program_id,
      eventName: e.event_name,
      payloadType: e.payload_type,
      status: e.status,
      detail: e.detail,
      curtailmentIds: list(e.curtailment_ids),
      reportID: e.report_id,
      receivedAt: e.received_at,
      updatedAt: e.updated_at,
    })),
  };
}
