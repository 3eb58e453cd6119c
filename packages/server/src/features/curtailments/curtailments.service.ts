import { type AnyCurtailmentComponent, CURTAILMENT, CURTAILMENT_MESSAGES } from '@vpp/shared/curtailments/messages';
import {
  type CreateCurtailmentBody,
  type CreateSetpointBody,
  type CurtailmentConstraint,
  type CurtailmentDetail,
  type CurtailmentNode,
  type CurtailmentPrediction,
  type CurtailmentResponse,
  type CurtailmentSetpoint,
  type CurtailmentSummary,
  createCurtailmentBody,
  createSetpointBody,
} from '@vpp/shared/curtailments/schemas';
import { PREDICTION_HORIZON_S } from '@vpp/shared/dispatches/rules';
import { MAX_REQUEST_KW } from '@vpp/shared/dispatches/schemas';
import { type Database, nowS } from '../../db/database.ts';
import { commandResponses, endCommands } from '../../devices/index.ts';
import type { AppContext } from '../../platform/context.ts';
import { badRequest, notFound } from '../../platform/errors.ts';
import type { AuthUser } from '../../platform/guard.ts';
import type { TelemetryStore } from '../../telemetry/index.ts';
import {
  audit,
  auditTrail,
  DEFAULT_TIME_ZONE,
  type EventKind,
  eventPowerstation,
  type ForecastAdjustment,
  type ForecastNode,
  forecastWindow,
  insertEvent,
  predictionWarning,
  presentEvent,
  reportingNodes,
  requireEvent,
  STEP_S,
  toForecastNode,
  withdrawEvent,
} from '../events/index.ts';
import { type PowerstationRow, requirePowerstation } from '../vpps/index.ts';
import * as limits from './curtailments.limits.repo.ts';
import { batteryHomes, curtailableNodes, curtailmentConstraint, splitLimit } from './curtailments.limits.service.ts';
import * as repo from './curtailments.repo.ts';
import { type CurtailmentRow, findCurtailment } from './curtailments.repo.ts';
import * as setpoints from './curtailments.setpoints.repo.ts';

export { type CurtailmentRow, findCurtailment };

// Curtailments and default setpoints (spec 3 §2.7, §3.6, §3.7, §4.3, §5, §7): created, read, cancelled.

/** The source of a curtailment's per-node limits in the fleet control interface. */
export const curtailmentSource = (id: number) => `curtailment:${id}`;
/** The source of a default setpoint's per-node limits. */
export const setpointSource = (id: number) => `setpoint:${id}`;

const r3 = (v: number) => Math.round(v * 1000) / 1000 + 0;

/** A curtailment as an event kind (its 404). */
const CURTAILMENT_KIND: EventKind<CurtailmentRow> = { noun: 'curtailment', find: findCurtailment };

/**
 * Who creates or cancels a curtailment: a signed-in user, or a system outside the console (a
 * network's OpenADR VTN) with no user, whose `reason` marks the curtailment as triggered by it.
 */
export interface CurtailmentActor {
  id: number | null;
  organisationId: number;
  reason?: string;
}

const requireCurtailment = (ctx: AppContext, user: Pick<AuthUser, 'organisationId'>, id: number) => requireEvent(ctx, user, CURTAILMENT_KIND, id);

function summary(c: CurtailmentRow, now: number): CurtailmentSummary {
  const e = presentEvent(c, now);
  return {
    id: e.id,
    state: e.state,
    triggered: c.triggered,
    reason: c.reason,
    powerstation: e.powerstation,
    createdAt: e.createdAt,
    createdBy: e.createdBy,
    cancelledAt: e.cancelledAt,
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
  const ps = await checkWindow(ctx, user, body, now);
  if (!onStep(body.realPowerP)) throw badRequest(CURTAILMENT_MESSAGES.powerStep);
  const c = await curtailmentConstraint(ctx.db, ps);
  if (c.constraint === 0) throw badRequest(CURTAILMENT_MESSAGES.noCurtailableNodes);
  if (body.realPowerP < c.constraint - 1e-9) throw badRequest(CURTAILMENT_MESSAGES.belowConstraint(c.constraint));
  const nodes = await curtailableNodes(ctx.db, ps);
  const shares = splitLimit(-body.realPowerP, nodes);
  const net = body.component === 'grid';
  return insertCurtailment(ctx, user, ps, { ...body, realPowerP: body.realPowerP + 0 }, now, (id) =>
    nodes.map((n) => ({
      source: curtailmentSource(id),
      node_id: n.id,
      net_kw: net ? (shares.get(n.id) ?? 0) : null,
      gross_kw: net ? null : (shares.get(n.id) ?? 0),
      import_kw: null,
    })),
  );
}

/** The VPP, its kind and the window's steps, checked as every curtailment's. */
async function checkWindow(ctx: AppContext, user: CurtailmentActor, body: { powerstation: number; startTime: number; duration: number }, now: number) {
  const ps = await requirePowerstation(ctx, user, body.powerstation);
  if (ps.type === 'FCAS') throw badRequest(CURTAILMENT_MESSAGES.fcasNotCurtailable);
  if (body.startTime % STEP_S !== 0) throw badRequest(CURTAILMENT_MESSAGES.startStep);
  if (body.duration % STEP_S !== 0) throw badRequest(CURTAILMENT_MESSAGES.durationStep);
  if (body.startTime < now - (now % STEP_S)) throw badRequest(CURTAILMENT_MESSAGES.startInPast);
  return ps;
}

/** The curtailment's event, row, node rows and audit, in one transaction. */
async function insertCurtailment(
  ctx: AppContext,
  user: CurtailmentActor,
  ps: PowerstationRow,
  body: { startTime: number; duration: number; realPowerP: number; component: AnyCurtailmentComponent },
  now: number,
  nodeRows: (id: number) => Parameters<typeof limits.insertLimitNodes>[1],
): Promise<{ id: number }> {
  return ctx.db.transaction().execute(async (trx) => {
    const id = await insertEvent(trx, {
      organisation_id: user.organisationId,
      powerstation_id: ps.id,
      type: CURTAILMENT,
      start_time: body.startTime,
      duration: body.duration,
      created_at: now,
    });
    await repo.insertCurtailment(trx, {
      event_id: id,
      component: body.component,
      real_power_p: body.realPowerP,
      created_by: user.id,
      reason: user.reason ?? null,
    });
    await limits.insertLimitNodes(trx, nodeRows(id));
    await audit(trx, id, 'CREATED', user.id, now);
    return { id };
  });
}

/** The most an import limit records, kW: the request's bound (a looser limit binds no home anyway). */
const MAX_IMPORT_KW = MAX_REQUEST_KW;

/**
 * Creates an import limit (component import; only a network's VTN asks for one, through the
 * console's VEN): the VPP's net import held to at most `importKw` (any value is taken: negative as 0,
 * beyond the request bound as that bound, rounded down to the 0.1 kW step), split among its homes
 * with a battery in proportion to their battery power. Homes without one get no order but are
 * counted in its prediction and response. Refused only for a VPP with no home with a battery.
 */
export async function createImportLimit(
  ctx: AppContext,
  actor: CurtailmentActor,
  body: { powerstation: number; startTime: number; duration: number; importKw: number },
  now = nowS(),
): Promise<{ id: number }> {
  const ps = await checkWindow(ctx, actor, body, now);
  const nodes = await batteryHomes(ctx.db, ps);
  if (!nodes.length) throw badRequest(CURTAILMENT_MESSAGES.noBatteryHomes);
  const kw = Math.floor(Math.min(MAX_IMPORT_KW, Math.max(0, body.importKw)) * 10 + 1e-9) / 10 + 0;
  const shares = splitLimit(kw, nodes);
  return insertCurtailment(ctx, actor, ps, { ...body, realPowerP: kw, component: 'import' }, now, (id) =>
    nodes.map((n) => ({ source: curtailmentSource(id), node_id: n.id, net_kw: null, gross_kw: null, import_kw: shares.get(n.id) ?? 0 })),
  );
}

/** The organisation's curtailments, latest start first. */
export async function listCurtailments(ctx: AppContext, user: AuthUser, q: { limit: number; offset: number }) {
  const { rows, total } = await repo.listCurtailments(ctx.db, user.organisationId, q);
  const now = nowS();
  return { curtailments: rows.map((r) => summary(r, now)), total };
}

/** A curtailment with its response now and its audit. */
export async function curtailmentDetail(ctx: AppContext, user: AuthUser, id: number): Promise<CurtailmentDetail> {
  const c = await requireCurtailment(ctx, user, id);
  const now = nowS();
  const [trail, response] = await Promise.all([auditTrail(ctx.db, user.organisationId, id), measure(ctx.db, ctx.telemetry, c, now)]);
  return {
    ...summary(c, now),
    currentResponse: response.currentResponse,
    audit: trail,
  };
}

/** Cancels an upcoming or in-progress curtailment: its nodes' limits end now (what they did before stands). */
export async function cancelCurtailment(ctx: AppContext, user: CurtailmentActor, id: number): Promise<void> {
  const c = await requireCurtailment(ctx, user, id);
  const now = nowS();
  if (c.cancelled_at !== null || c.start_time + c.duration <= now) throw badRequest(CURTAILMENT_MESSAGES.notCancellable);
  await ctx.db.transaction().execute(async (trx) => {
    // The nodes that were told of it hear that it is off.
    const told = await limits.toldNodes(trx, curtailmentSource(id));
    if (!(await withdrawEvent(trx, { id, source: curtailmentSource(id), userId: user.id, now, end: true })))
      throw badRequest(CURTAILMENT_MESSAGES.notCancellable);
    await repo.logNodeEvents(trx, told, { ts: now, description: () => `Curtailment ${id} was cancelled: the limit is lifted.`, duration: null });
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
  const nodes = await limits.sourceNodes(db, source);
  const accepted = await respondedNodes(db, source);
  // An import limit is on the VPP's net import: its homes without a battery (no order) are measured too.
  const ps = c.component === 'import' && c.powerstation_id !== null ? await eventPowerstation(db, c.powerstation_id) : null;
  const measured = ps ? [...new Set([...nodes, ...(await limits.vppNodeIds(db, ps))])].sort((a, b) => a - b) : nodes;
  const end = Math.min(c.start_time + c.duration, c.cancelled_at ?? Number.POSITIVE_INFINITY);
  const from = c.start_time - 3600;
  const to = Math.min(end + 3600, now);
  const solar = new Map<number, number>();
  const meter = new Map<number, number>();
  const count = new Map<number, number>();
  if (from < to) {
    for (const [ts, b] of await telemetry.historySums(measured, ['solar_p', 'meter_p'], from, to, 300)) {
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
 * The solar and meter power expected over a window (an hour either side), from the weather forecast:
 * the event kernel's forecast of each reporting node (the console's forecast of its solar and household
 * from its history, the sun and the clouds, and its battery). With no import limit, the VPP's
 * curtailable nodes with no curtailment; under an import limit (`importKw`), every home of the VPP
 * (those without a battery too, as the limit is on the VPP's net import), each home with a battery
 * holding its share (`importCaps`). A window already begun is forecast from its start, so the detail
 * can set what was expected beside what was measured; its batteries then start from their stored
 * energy now (their state at the start is not kept).
 */
async function predict(
  ctx: AppContext,
  user: AuthUser,
  ps: PowerstationRow,
  start: number,
  duration: number,
  importKw: number | null = null,
): Promise<CurtailmentPrediction> {
  const now = nowS();
  if (start > now + PREDICTION_HORIZON_S) throw badRequest(CURTAILMENT_MESSAGES.predictionHorizon);
  const reporting = (await reportingNodes(ctx.db, ps, now)).map(toForecastNode);
  const nodes = importKw === null ? reporting.filter((n) => n.solarKw > 0 && n.inverterKw > 0) : reporting;
  const windowStart = start - 3600 - (start % STEP_S);
  const req = { from: Math.min(now - (now % STEP_S), windowStart), dayStart: windowStart, end: start + duration + 3600 };
  const f = await forecastWindow(ctx, nodes, req, importKw === null ? undefined : importCaps(nodes, importKw, start, duration));
  const solarPower: Record<string, number | null> = {};
  const meterPower: Record<string, number | null> = {};
  for (const [ts, p] of Object.entries(f.adjustedPrediction ?? f.prediction)) {
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

/**
 * An import limit as the forecast applies it: each home with a battery capped over the window at its
 * share of the limit (kW, split by battery power as the engine splits it); the homes without one
 * import what they use.
 */
export function importCaps(
  nodes: readonly Pick<ForecastNode, 'id' | 'usableKwh' | 'batteryKw'>[],
  limitKw: number,
  start: number,
  duration: number,
): ForecastAdjustment {
  const batteries = nodes.filter((n) => n.usableKwh > 0 && n.batteryKw > 0).map((n) => ({ id: n.id, capacityKw: n.batteryKw }));
  const shares = splitLimit(Math.max(0, limitKw), batteries);
  const caps = new Map([...shares].map(([id, kw]) => [id, [{ start, end: start + duration, importCapKw: kw }]]));
  return { start, orders: () => caps };
}

export async function newPrediction(ctx: AppContext, user: AuthUser, q: { powerstation: number; startTime: number; duration: number }) {
  return predict(ctx, user, await requirePowerstation(ctx, user, q.powerstation), q.startTime, q.duration);
}

export async function curtailmentPrediction(ctx: AppContext, user: AuthUser, id: number): Promise<CurtailmentPrediction> {
  const c = await requireCurtailment(ctx, user, id);
  if (c.powerstation_id === null) throw notFound('Virtual Power Plant');
  const ps = await requirePowerstation(ctx, user, c.powerstation_id);
  return predict(ctx, user, ps, c.start_time, c.duration, c.component === 'import' ? c.real_power_p : null);
}

/** The curtailment's nodes in id order, a page of them, and whether each accepted its limit. */
export async function curtailmentNodes(ctx: AppContext, user: AuthUser, id: number, q: { limit: number; offset: number }) {
  await requireCurtailment(ctx, user, id);
  const source = curtailmentSource(id);
  const { rows, total, responded } = await repo.curtailmentNodes(ctx.db, source, q);
  const nodes: CurtailmentNode[] = rows.map((r) => ({
    id: r.id,
    nmi: r.nmi,
    serialNumber: r.serial_number,
    address: `${r.street}, ${r.suburb} ${r.state} ${r.postcode}`,
    responded: responded.has(r.id),
  }));
  return { nodes, total };
}

// Default setpoints.

/** Setpoints newest first; within the same creation time the ACTIVE one first. */
async function pageSetpoints(ctx: AppContext, user: AuthUser, q: { limit: number; offset: number }, powerstationId?: number) {
  const { list, total } = await setpoints.pageSetpoints(ctx.db, user.organisationId, q, powerstationId);
  const page: CurtailmentSetpoint[] = list.map((r) => ({
    id: r.id,
    powerstation: r.powerstation_id as number,
    powerstationName: r.powerstation_name ?? CURTAILMENT_MESSAGES.unknownVpp,
    created_at: Number(r.created_at),
    status: Number(r.inactive) === 1 ? 'INACTIVE' : 'ACTIVE',
    ramp_duration: Number(r.ramp_duration),
    solar_limit: Number(r.solar_limit) + 0,
    grid_limit: Number(r.grid_limit) + 0,
  }));
  return { setpoints: page, total };
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
  const id = await setpoints.insertSetpoint(ctx.db, {
    organisation_id: user.organisationId,
    powerstation_id: ps.id,
    created_at: nowS(),
    created_by: user.id,
    ramp_duration: body.rampDuration,
    solar_limit: body.inverterRealPowerP + 0,
    grid_limit: body.meterRealPowerP + 0,
  });
  return { id };
}

/**
 * Removes a VPP's ACTIVE default setpoint: its standing limits are lifted now and its nodes hear so;
 * the VPP then has no ACTIVE setpoint until a new one is created (a superseded one does not return).
 * A superseded or removed setpoint holds no limit, so removing it is refused with the reason.
 */
export async function removeSetpoint(ctx: AppContext, user: AuthUser, id: number): Promise<void> {
  const s = await setpoints.findSetpoint(ctx.db, user.organisationId, id);
  if (!s) throw notFound('setpoint');
  if (Number(s.inactive) === 1) throw badRequest(CURTAILMENT_MESSAGES.setpointNotActive);
  const now = nowS();
  const source = setpointSource(id);
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await setpoints.markRemoved(trx, id, now))) throw badRequest(CURTAILMENT_MESSAGES.setpointNotActive);
    await endCommands(trx, source, now);
    const told = await limits.toldNodes(trx, source);
    await limits.dropAll(trx, source, now);
    await repo.logNodeEvents(trx, told, { ts: now, description: () => `Default setpoint ${id} was removed: its standing limit is lifted.`, duration: null });
  });
}
