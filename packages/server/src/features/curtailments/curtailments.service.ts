import {
  type CreateCurtailmentBody,
  type CreateSetpointBody,
  CURTAILMENT,
  CURTAILMENT_MESSAGES,
  type CurtailmentComponent,
  type CurtailmentConstraint,
  type CurtailmentDetail,
  type CurtailmentNode,
  type CurtailmentPrediction,
  type CurtailmentResponse,
  type CurtailmentSetpoint,
  type CurtailmentSummary,
  createCurtailmentBody,
  createSetpointBody,
  eventStateAt,
  PREDICTION_HORIZON_S,
} from '@vpp/shared';
import { sql } from 'kysely';
import { type Database, nowS } from '../../db/database.ts';
import { commandResponses, endCommands } from '../../fleet/control.ts';
import { forecastPower } from '../../forecast/index.ts';
import type { AppContext } from '../../platform/context.ts';
import { badRequest, notFound } from '../../platform/errors.ts';
import type { AuthUser } from '../../platform/guard.ts';
import type { TelemetryStore } from '../../telemetry/index.ts';
import { audit, auditOf, DEFAULT_TIME_ZONE, forecast, forecastSteps, predictionWarning, reportingNodes, STEP_S, toForecastNode } from '../dispatches/index.ts';
import { type PowerstationRow, requirePowerstation } from '../vpps/index.ts';
import { curtailableNodes, curtailmentConstraint, splitLimit } from './curtailments.limits.ts';

// Curtailments and default setpoints (spec 3 §2.7, §3.6, §3.7, §4.3, §5, §7): created, read, cancelled.

/** The source of a curtailment's per-node limits in the fleet control interface. */
export const curtailmentSource = (id: number) => `curtailment:${id}`;
/** The source of a default setpoint's per-node limits. */
export const setpointSource = (id: number) => `setpoint:${id}`;

const nameOf = (given: string | null, surname: string | null) => (given === null ? 'Unknown' : `${given} ${surname ?? ''}`.trim());
const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
const r3 = (v: number) => Math.round(v * 1000) / 1000 + 0;

function curtailmentQuery(db: Database) {
  return db
    .selectFrom('events')
    .innerJoin('curtailments as c', 'c.event_id', 'events.id')
    .leftJoin('powerstations as ps', 'ps.id', 'events.powerstation_id')
    .leftJoin('users as u', (j) => j.onRef('u.id', '=', 'c.created_by').onRef('u.organisation_id', '=', 'events.organisation_id'))
    .select((eb) => [
      'events.id',
      'events.organisation_id',
      'events.powerstation_id',
      'ps.name as powerstation_name',
      'events.start_time',
      'events.duration',
      'events.cancelled_at',
      'events.created_at',
      'c.component',
      'c.real_power_p',
      'c.triggered',
      'c.reason',
      'c.created_by',
      'c.orders_sent_at',
      'c.checked_at',
      'u.given_name',
      'u.surname',
      eb
        .selectFrom('limit_nodes as ln')
        .select(eb.fn.countAll<number>().as('n'))
        .where('ln.source', '=', sql<string>`${'curtailment:'} || cast(events.id as text)`)
        .where('ln.dropped_at', 'is', null)
        .as('deployments'),
    ])
    .where('events.type', '=', CURTAILMENT);
}

type Raw = Awaited<ReturnType<ReturnType<typeof curtailmentQuery>['executeTakeFirstOrThrow']>>;
export interface CurtailmentRow {
  id: number;
  organisation_id: number;
  powerstation_id: number | null;
  powerstation_name: string | null;
  start_time: number;
  duration: number;
  cancelled_at: number | null;
  created_at: number;
  component: CurtailmentComponent;
  real_power_p: number;
  triggered: boolean;
  reason: string | null;
  created_by: number | null;
  orders_sent_at: number | null;
  checked_at: number | null;
  given_name: string | null;
  surname: string | null;
  deployments: number;
}

const toRow = (r: Raw): CurtailmentRow => ({
  ...r,
  start_time: Number(r.start_time),
  duration: Number(r.duration),
  cancelled_at: num(r.cancelled_at),
  created_at: Number(r.created_at),
  component: r.component === 'solar' ? 'solar' : 'grid',
  real_power_p: Number(r.real_power_p),
  triggered: Number(r.triggered) === 1,
  orders_sent_at: num(r.orders_sent_at),
  checked_at: num(r.checked_at),
  deployments: Number(r.deployments ?? 0),
});

/** One curtailment of the organisation (any organisation when `orgId` is null: the engine's view). */
export async function findCurtailment(db: Database, orgId: number | null, id: number): Promise<CurtailmentRow | undefined> {
  let q = curtailmentQuery(db).where('events.id', '=', id);
  if (orgId !== null) q = q.where('events.organisation_id', '=', orgId);
  const r = await q.executeTakeFirst();
  return r ? toRow(r) : undefined;
}

/**
 * Who creates or cancels a curtailment: a signed-in user, or a system outside the console (a
 * network's OpenADR VTN) with no user, whose `reason` marks the curtailment as triggered by it.
 */
export interface CurtailmentActor {
  id: number | null;
  organisationId: number;
  reason?: string;
}

async function requireCurtailment(ctx: AppContext, user: Pick<AuthUser, 'organisationId'>, id: number): Promise<CurtailmentRow> {
  const c = await findCurtailment(ctx.db, user.organisationId, id);
  if (!c) throw notFound('curtailment');
  return c;
}

function summary(c: CurtailmentRow, now: number): CurtailmentSummary {
  return {
    id: c.id,
    state: eventStateAt(c.start_time, c.duration, now, c.cancelled_at),
    triggered: c.triggered,
    reason: c.reason,
    powerstation: c.powerstation_id !== null && c.powerstation_name !== null ? { id: c.powerstation_id, name: c.powerstation_name } : null,
    createdAt: c.created_at,
    createdBy: nameOf(c.given_name, c.surname),
    cancelledAt: c.cancelled_at,
    component: c.component,
    request: { startTime: c.start_time, duration: c.duration, realPowerP: c.real_power_p, deploymentsRequested: c.deployments },
  };
}

/** The New Curtailment modal's constraint (spec 3 §3.6): see `curtailmentConstraint`. */
export async function constraint(ctx: AppContext, user: Pick<AuthUser, 'organisationId'>, powerstation: number): Promise<CurtailmentConstraint> {
  return curtailmentConstraint(ctx.db, await requirePowerstation(ctx, user, powerstation));
}

const onStep = (kw: number) => Math.abs(Math.round(kw * 10) - kw * 10) < 1e-6;

/**
 * Creates a curtailment: its event, limit and component, and the VPP's curtailable nodes with their
 * shares (the engine re-splits among those reporting when it sends the limits, from 24 hours
 * before the start). The limit must be on the 0.1 kW step, from the VPP's constraint to 0. `now`:
 * the demo's history creates one as at a past moment.
 */
export async function createCurtailment(ctx: AppContext, user: CurtailmentActor, raw: CreateCurtailmentBody, now = nowS()): Promise<{ id: number }> {
  const body = createCurtailmentBody.parse(raw);
  const ps = await requirePowerstation(ctx, user, body.powerstation);
  if (ps.type === 'FCAS') throw badRequest(CURTAILMENT_MESSAGES.fcasNotCurtailable);
  if (body.startTime % STEP_S !== 0) throw badRequest(CURTAILMENT_MESSAGES.startStep);
  if (body.duration % STEP_S !== 0) throw badRequest(CURTAILMENT_MESSAGES.durationStep);
  if (body.startTime < now - (now % STEP_S)) throw badRequest(CURTAILMENT_MESSAGES.startInPast);
  if (!onStep(body.realPowerP)) throw badRequest(CURTAILMENT_MESSAGES.powerStep);
  const c = await curtailmentConstraint(ctx.db, ps);
  if (c.constraint === 0) throw badRequest(CURTAILMENT_MESSAGES.noCurtailableNodes);
  if (body.realPowerP < c.constraint - 1e-9) throw badRequest(CURTAILMENT_MESSAGES.belowConstraint(c.constraint));
  const nodes = await curtailableNodes(ctx.db, ps);
  const shares = splitLimit(-body.realPowerP, nodes);
  const net = body.component === 'grid';
  return ctx.db.transaction().execute(async (trx) => {
    const { id } = await trx
      .insertInto('events')
      .values({
        organisation_id: user.organisationId,
        powerstation_id: ps.id,
        type: CURTAILMENT,
        start_time: body.startTime,
        duration: body.duration,
        cancelled_at: null,
        created_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('curtailments')
      .values({
        event_id: id,
        component: body.component,
        real_power_p: body.realPowerP + 0,
        ...(user.reason ? { triggered: 1 } : {}),
        reason: user.reason ?? null,
        created_by: user.id,
        orders_sent_at: null,
        checked_at: null,
      })
      .execute();
    const rows = nodes.map((n) => ({
      source: curtailmentSource(id),
      node_id: n.id,
      net_kw: net ? (shares.get(n.id) ?? 0) : null,
      gross_kw: net ? null : (shares.get(n.id) ?? 0),
      orders_sent_at: null,
      dropped_at: null,
    }));
    for (let i = 0; i < rows.length; i += 1000)
      await trx
        .insertInto('limit_nodes')
        .values(rows.slice(i, i + 1000))
        .execute();
    await audit(trx, id, 'CREATED', user.id, now);
    return { id };
  });
}

/** The organisation's curtailments, latest start first. */
export async function listCurtailments(ctx: AppContext, user: AuthUser, q: { limit: number; offset: number }) {
  const base = ctx.db.selectFrom('events').where('events.organisation_id', '=', user.organisationId).where('events.type', '=', CURTAILMENT);
  const [rows, total] = await Promise.all([
    curtailmentQuery(ctx.db)
      .where('events.organisation_id', '=', user.organisationId)
      .orderBy('events.start_time', 'desc')
      .orderBy('events.id', 'desc')
      .limit(q.limit)
      .offset(q.offset)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  const now = nowS();
  return { curtailments: rows.map((r) => summary(toRow(r), now)), total: Number(total.n) };
}

/** A curtailment with its response now and its audit. */
export async function curtailmentDetail(ctx: AppContext, user: AuthUser, id: number): Promise<CurtailmentDetail> {
  const c = await requireCurtailment(ctx, user, id);
  const now = nowS();
  const [trail, response] = await Promise.all([auditOf(ctx.db, user.organisationId, id), measure(ctx.db, ctx.telemetry, c, now)]);
  return {
    ...summary(c, now),
    currentResponse: response.currentResponse,
    audit: trail.map((a) => ({ action: a.action as 'CREATED', at: a.at, by: nameOf(a.given_name, a.surname), detail: a.detail })),
  };
}

/** Cancels an upcoming or in-progress curtailment: its nodes' limits end now (what they did before stands). */
export async function cancelCurtailment(ctx: AppContext, user: CurtailmentActor, id: number): Promise<void> {
  const c = await requireCurtailment(ctx, user, id);
  const now = nowS();
  if (c.cancelled_at !== null || c.start_time + c.duration <= now) throw badRequest(CURTAILMENT_MESSAGES.notCancellable);
  await ctx.db.transaction().execute(async (trx) => {
    const done = await trx.updateTable('events').set({ cancelled_at: now }).where('id', '=', id).where('cancelled_at', 'is', null).executeTakeFirst();
    if (Number(done.numUpdatedRows) !== 1) throw badRequest(CURTAILMENT_MESSAGES.notCancellable);
    await endCommands(trx, curtailmentSource(id), now);
    // The nodes that were told of it hear that it is off.
    const told = await trx
      .selectFrom('limit_nodes')
      .select('node_id')
      .where('source', '=', curtailmentSource(id))
      .where('orders_sent_at', 'is not', null)
      .where('dropped_at', 'is', null)
      .execute();
    for (let i = 0; i < told.length; i += 1000)
      await trx
        .insertInto('node_events')
        .values(
          told.slice(i, i + 1000).map((n) => ({
            node_id: n.node_id,
            ts: now,
            event_type: CURTAILMENT,
            description: `Curtailment ${id} was cancelled: the limit is lifted.`,
            duration: null,
          })),
        )
        .execute();
    await audit(trx, id, 'CANCELLED', user.id, now);
  });
}

/** Each node's answer to a source's limits: responded when its device accepted them (a limit ended after that still counts). */
async function respondedNodes(db: Database, source: string): Promise<Set<number>> {
  const out = new Set<number>();
  for (const r of await commandResponses(db, source)) if (r.status === 'ACCEPTED' || (r.status === 'CANCELLED' && r.responded_at !== null)) out.add(r.node_id);
  return out;
}

/**
 * The response measured from telemetry (the 5-minute rollups of the curtailment's nodes): their summed
 * solar and meter power per bucket from an hour before the start to an hour after the end (or now),
 * the nodes reporting in each, and now: the nodes that accepted their limit and the latest bucket
 * of the window that has data.
 */
async function measure(db: Database, telemetry: TelemetryStore, c: CurtailmentRow, now: number): Promise<CurtailmentResponse> {
  const source = curtailmentSource(c.id);
  const nodes = (await db.selectFrom('limit_nodes').select('node_id').where('source', '=', source).execute()).map((r) => r.node_id);
  const accepted = await respondedNodes(db, source);
  const end = Math.min(c.start_time + c.duration, c.cancelled_at ?? Number.POSITIVE_INFINITY);
  const from = c.start_time - 3600;
  const to = Math.min(end + 3600, now);
  const solar = new Map<number, number>();
  const meter = new Map<number, number>();
  const count = new Map<number, number>();
  if (from < to) {
    for (const [ts, b] of await telemetry.historySums(nodes, ['solar_p', 'meter_p'], from, to, 300)) {
      solar.set(ts, b.solar_p ?? 0);
      meter.set(ts, b.meter_p ?? 0);
      count.set(ts, b.nodes);
    }
  }
  const solarPower: Record<string, number | null> = {};
  const meterPower: Record<string, number | null> = {};
  const reporting: Record<string, number> = {};
  for (let ts = from; ts < to; ts += STEP_S) {
    solarPower[ts] = solar.has(ts) ? r3(solar.get(ts) as number) : null;
    meterPower[ts] = meter.has(ts) ? r3(meter.get(ts) as number) : null;
    reporting[ts] = count.get(ts) ?? 0;
  }
  let latest: number | null = null;
  for (let ts = c.start_time; ts < Math.min(end, now); ts += STEP_S) if (solar.has(ts)) latest = ts;
  return {
    interval: STEP_S,
    solarPower,
    meterPower,
    deploymentsReporting: reporting,
    // The nodes asked, as the node table lists them: those the VPP had at the start and any that joined it since.
    deploymentsRequested: nodes.length,
    deploymentsAccepted: accepted.size,
    currentResponse: {
      deploymentsAccepted: accepted.size,
      deploymentsAsked: nodes.length,
      solarPower: latest === null ? null : r3(solar.get(latest) as number),
      meterPower: latest === null ? null : r3(meter.get(latest) as number),
    },
  };
}

export async function curtailmentResponse(ctx: AppContext, user: Pick<AuthUser, 'organisationId'>, id: number): Promise<CurtailmentResponse> {
  return measure(ctx.db, ctx.telemetry, await requireCurtailment(ctx, user, id), nowS());
}

/**
 * The VPP's curtailable nodes' solar and meter power expected with no curtailment over a window (an
 * hour either side), from the weather forecast: the dispatch engine's forecast of each reporting
 * node (the console's forecast of its solar and household from its history, the sun and the clouds,
 * and its battery). A window already begun is
 * forecast from its start, so the detail can set what was expected beside what was measured; its
 * batteries then start from their stored energy now (their state at the start is not kept).
 */
async function predict(ctx: AppContext, user: AuthUser, ps: PowerstationRow, start: number, duration: number): Promise<CurtailmentPrediction> {
  const now = nowS();
  if (start > now + PREDICTION_HORIZON_S) throw badRequest(CURTAILMENT_MESSAGES.predictionHorizon);
  const nodes = (await reportingNodes(ctx.db, ps, now)).filter((r) => r.solar_kw > 0 && r.inverter_kw > 0).map(toForecastNode);
  const windowStart = start - 3600 - (start % STEP_S);
  const req = { from: Math.min(now - (now % STEP_S), windowStart), dayStart: windowStart, end: start + duration + 3600 };
  const f = forecast(nodes, req, await forecastPower(ctx, nodes, req.from, forecastSteps(req)));
  const solarPower: Record<string, number | null> = {};
  const meterPower: Record<string, number | null> = {};
  for (const [ts, p] of Object.entries(f.prediction)) {
    solarPower[ts] = p.solarPower;
    meterPower[ts] = p.meterPower;
  }
  return {
    interval: STEP_S,
    solarPower,
    meterPower,
    warning: predictionWarning(start, now, user.row.timezone ?? DEFAULT_TIME_ZONE, false),
    deployments: nodes.length,
  };
}

export async function newPrediction(ctx: AppContext, user: AuthUser, q: { powerstation: number; startTime: number; duration: number }) {
  return predict(ctx, user, await requirePowerstation(ctx, user, q.powerstation), q.startTime, q.duration);
}

export async function curtailmentPrediction(ctx: AppContext, user: AuthUser, id: number): Promise<CurtailmentPrediction> {
  const c = await requireCurtailment(ctx, user, id);
  if (c.powerstation_id === null) throw notFound('Virtual Power Plant');
  return predict(ctx, user, await requirePowerstation(ctx, user, c.powerstation_id), c.start_time, c.duration);
}

/** The curtailment's nodes in id order, a page of them, and whether each accepted its limit. */
export async function curtailmentNodes(ctx: AppContext, user: AuthUser, id: number, q: { limit: number; offset: number }) {
  await requireCurtailment(ctx, user, id);
  const source = curtailmentSource(id);
  const [rows, total] = await Promise.all([
    ctx.db
      .selectFrom('limit_nodes as ln')
      .innerJoin('nodes', 'nodes.id', 'ln.node_id')
      .select(['nodes.id', 'nodes.nmi', 'nodes.serial_number', 'nodes.street', 'nodes.suburb', 'nodes.state', 'nodes.postcode'])
      .where('ln.source', '=', source)
      .orderBy('nodes.id')
      .limit(q.limit)
      .offset(q.offset)
      .execute(),
    ctx.db
      .selectFrom('limit_nodes')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('source', '=', source)
      .executeTakeFirstOrThrow(),
  ]);
  const answers = rows.length
    ? await ctx.db
        .selectFrom('node_commands')
        .select('node_id')
        .where('source', '=', source)
        .where(
          'node_id',
          'in',
          rows.map((r) => r.id),
        )
        .where((eb) => eb.or([eb('status', '=', 'ACCEPTED'), eb.and([eb('status', '=', 'CANCELLED'), eb('responded_at', 'is not', null)])]))
        .execute()
    : [];
  const responded = new Set(answers.map((a) => a.node_id));
  const nodes: CurtailmentNode[] = rows.map((r) => ({
    id: r.id,
    nmi: r.nmi,
    serialNumber: r.serial_number,
    address: `${r.street}, ${r.suburb} ${r.state} ${r.postcode}`,
    responded: responded.has(r.id),
  }));
  return { nodes, total: Number(total.n) };
}

// Default setpoints.

function setpointQuery(db: Database, orgId: number) {
  return db
    .selectFrom('curtailment_setpoints as s')
    .leftJoin('powerstations as ps', 'ps.id', 's.powerstation_id')
    .select((eb) => [
      's.id',
      's.powerstation_id',
      'ps.name as powerstation_name',
      's.created_at',
      's.ramp_duration',
      's.solar_limit',
      's.grid_limit',
      's.removed_at',
      // A newer setpoint of the same VPP makes this one INACTIVE; so does its removal.
      eb
        .case()
        .when('s.removed_at', 'is not', null)
        .then(1)
        .when(
          eb.exists(
            eb
              .selectFrom('curtailment_setpoints as n')
              .select('n.id')
              .whereRef('n.powerstation_id', '=', 's.powerstation_id')
              .where((w) =>
                w.or([w('n.created_at', '>', w.ref('s.created_at')), w.and([w('n.created_at', '=', w.ref('s.created_at')), w('n.id', '>', w.ref('s.id'))])]),
              ),
          ),
        )
        .then(1)
        .else(0)
        .end()
        .as('inactive'),
    ])
    .where('s.organisation_id', '=', orgId)
    .where('s.powerstation_id', 'is not', null);
}

/** Setpoints newest first; within the same creation time the ACTIVE one first. */
async function pageSetpoints(ctx: AppContext, user: AuthUser, q: { limit: number; offset: number }, powerstationId?: number) {
  let rows = setpointQuery(ctx.db, user.organisationId);
  let count = ctx.db
    .selectFrom('curtailment_setpoints')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('organisation_id', '=', user.organisationId)
    .where('powerstation_id', 'is not', null);
  if (powerstationId !== undefined) {
    rows = rows.where('s.powerstation_id', '=', powerstationId);
    count = count.where('powerstation_id', '=', powerstationId);
  }
  const [list, total] = await Promise.all([
    rows.orderBy('s.created_at', 'desc').orderBy('inactive').orderBy('s.id', 'desc').limit(q.limit).offset(q.offset).execute(),
    count.executeTakeFirstOrThrow(),
  ]);
  const setpoints: CurtailmentSetpoint[] = list.map((r) => ({
    id: r.id,
    powerstation: r.powerstation_id as number,
    powerstationName: r.powerstation_name ?? CURTAILMENT_MESSAGES.unknownVpp,
    created_at: Number(r.created_at),
    status: Number(r.inactive) === 1 ? 'INACTIVE' : 'ACTIVE',
    ramp_duration: Number(r.ramp_duration),
    solar_limit: Number(r.solar_limit) + 0,
    grid_limit: Number(r.grid_limit) + 0,
  }));
  return { setpoints, total: Number(total.n) };
}

export const listSetpoints = (ctx: AppContext, user: AuthUser, q: { limit: number; offset: number }) => pageSetpoints(ctx, user, q);

export async function vppSetpoints(ctx: AppContext, user: AuthUser, id: number, q: { limit: number; offset: number }) {
  await requirePowerstation(ctx, user, id);
  return pageSetpoints(ctx, user, q, id);
}

/** Creates a VPP's default setpoint: it becomes the ACTIVE one, and the engine sends its per-node limits within the minute. */
export async function createSetpoint(ctx: AppContext, user: AuthUser, raw: CreateSetpointBody): Promise<{ id: number }> {
  const body = createSetpointBody.parse(raw);
  const ps = await requirePowerstation(ctx, user, body.powerstation);
  if (ps.type === 'FCAS') throw badRequest(CURTAILMENT_MESSAGES.fcasNotCurtailable);
  const { id } = await ctx.db
    .insertInto('curtailment_setpoints')
    .values({
      organisation_id: user.organisationId,
      powerstation_id: ps.id,
      created_at: nowS(),
      created_by: user.id,
      ramp_duration: body.rampDuration,
      solar_limit: body.inverterRealPowerP + 0,
      grid_limit: body.meterRealPowerP + 0,
      orders_sent_at: null,
      checked_at: null,
      removed_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id };
}

/**
 * Removes a VPP's ACTIVE default setpoint: its standing limits are lifted now and its nodes hear so;
 * the VPP then has no ACTIVE setpoint until a new one is created (a superseded one does not return).
 * A superseded or removed setpoint holds no limit, so removing it is refused with the reason.
 */
export async function removeSetpoint(ctx: AppContext, user: AuthUser, id: number): Promise<void> {
  const s = await setpointQuery(ctx.db, user.organisationId).where('s.id', '=', id).executeTakeFirst();
  if (!s) throw notFound('setpoint');
  if (Number(s.inactive) === 1) throw badRequest(CURTAILMENT_MESSAGES.setpointNotActive);
  const now = nowS();
  const source = setpointSource(id);
  await ctx.db.transaction().execute(async (trx) => {
    const done = await trx
      .updateTable('curtailment_setpoints')
      .set({ removed_at: now })
      .where('id', '=', id)
      .where('removed_at', 'is', null)
      .executeTakeFirst();
    if (Number(done.numUpdatedRows) !== 1) throw badRequest(CURTAILMENT_MESSAGES.setpointNotActive);
    await endCommands(trx, source, now);
    const told = await trx
      .selectFrom('limit_nodes')
      .select('node_id')
      .where('source', '=', source)
      .where('orders_sent_at', 'is not', null)
      .where('dropped_at', 'is', null)
      .execute();
    await trx.updateTable('limit_nodes').set({ dropped_at: now }).where('source', '=', source).where('dropped_at', 'is', null).execute();
    for (let i = 0; i < told.length; i += 1000)
      await trx
        .insertInto('node_events')
        .values(
          told.slice(i, i + 1000).map((n) => ({
            node_id: n.node_id,
            ts: now,
            event_type: CURTAILMENT,
            description: `Default setpoint ${id} was removed: its standing limit is lifted.`,
            duration: null,
          })),
        )
        .execute();
  });
}
