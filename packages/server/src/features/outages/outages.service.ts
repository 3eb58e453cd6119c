import { createHash, randomBytes } from 'node:crypto';
import {
  type CreateOutageBody,
  createOutageBody,
  defaultOutageMessage,
  defaultOutageTitle,
  eventStateAt,
  GRID_OUTAGE,
  type GridOutage,
  type GridOutageResponse,
  hasPermission,
  OUTAGE_EDIT,
  OUTAGE_MESSAGES,
  type OutageReason,
} from '@vpp/shared';
import { sql } from 'kysely';
import { type Database, nowS } from '../../db/database.ts';
import { cancelCommands, commandResponses } from '../../fleet/control.ts';
import type { AppContext } from '../../platform/context.ts';
import { ApiError, badRequest, forbidden, notFound } from '../../platform/errors.ts';
import type { AuthUser } from '../../platform/guard.ts';
import { fleetNodes } from '../nodes/index.ts';
import { memberNodes, requirePowerstation } from '../vpps/index.ts';
import { outageSource } from './outages.orders.ts';

// Grid outages (spec 3 §2.6, §3.5, §7): created, read, cancelled; customers opt out through their app.

const conflict = (message: string) => new ApiError(409, 'conflict', message);

export const stateOf = (d: { start_time: number; duration: number; cancelled_at: number | null }, now: number) =>
  eventStateAt(d.start_time, d.duration, now, d.cancelled_at);

const nameOf = (given: string | null, surname: string | null) => (given === null ? 'Unknown' : `${given} ${surname ?? ''}`.trim());

function outageQuery(db: Database) {
  return db
    .selectFrom('events')
    .innerJoin('grid_outages as g', 'g.event_id', 'events.id')
    .leftJoin('powerstations as ps', 'ps.id', 'events.powerstation_id')
    .leftJoin('users as u', 'u.id', 'g.created_by')
    .select([
      'events.id',
      'events.organisation_id',
      'events.powerstation_id',
      'ps.name as powerstation_name',
      'events.start_time',
      'events.duration',
      'events.cancelled_at',
      'events.created_at',
      'g.outage_reason',
      'g.message_title',
      'g.customer_message',
      'g.orders_sent_at',
      'u.given_name',
      'u.surname',
    ])
    .where('events.type', '=', GRID_OUTAGE);
}

type Row = Awaited<ReturnType<ReturnType<typeof outageQuery>['executeTakeFirstOrThrow']>>;
export type OutageRow = Omit<Row, 'start_time' | 'duration' | 'cancelled_at' | 'created_at' | 'orders_sent_at'> & {
  start_time: number;
  duration: number;
  cancelled_at: number | null;
  created_at: number;
  orders_sent_at: number | null;
};

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
const toRow = (r: Row): OutageRow => ({
  ...r,
  start_time: Number(r.start_time),
  duration: Number(r.duration),
  cancelled_at: num(r.cancelled_at),
  created_at: Number(r.created_at),
  orders_sent_at: num(r.orders_sent_at),
});

/** One outage of the organisation (any organisation when `orgId` is null: the engine's view). */
export async function findOutage(db: Database, orgId: number | null, id: number): Promise<OutageRow | undefined> {
  let q = outageQuery(db).where('events.id', '=', id);
  if (orgId !== null) q = q.where('events.organisation_id', '=', orgId);
  const r = await q.executeTakeFirst();
  return r ? toRow(r) : undefined;
}

async function requireOutage(ctx: AppContext, user: AuthUser, id: number): Promise<OutageRow> {
  const o = await findOutage(ctx.db, user.organisationId, id);
  if (!o) throw notFound('grid outage');
  return o;
}

function present(o: OutageRow, now: number): GridOutage {
  return {
    id: o.id,
    request: { startTime: o.start_time, duration: o.duration },
    reason: o.message_title,
    outageReason: o.outage_reason as OutageReason,
    powerstation: o.powerstation_id === null || o.powerstation_name === null ? null : { id: o.powerstation_id, name: o.powerstation_name },
    state: stateOf(o, now),
    createdAt: o.created_at,
    createdBy: nameOf(o.given_name, o.surname),
    cancelledAt: o.cancelled_at,
    customerMessage: o.customer_message,
  };
}

/** The VPP's commissioned member nodes with a battery: those an outage prepares. */
async function batteryMembers(db: Database, ps: Parameters<typeof memberNodes>[1]) {
  return memberNodes(db, ps)
    .select(['nodes.id', 'nodes.battery_usable_kwh', 'nodes.battery_kw'])
    .where('nodes.unit_state', '=', 'COMMISSIONED')
    .where('nodes.battery_usable_kwh', '>', 0)
    .where('nodes.battery_kw', '>', 0)
    .orderBy('nodes.id')
    .execute();
}

/**
 * Creates an outage: its event, reason, title (default 'Storm Approaching', or 'Planned Outage'),
 * the customer message (the reason's default naming the organisation when none is given) and the
 * VPP's battery nodes it prepares. The engine sends their orders from 24 hours before the start.
 */
export async function createOutage(ctx: AppContext, user: AuthUser, raw: CreateOutageBody): Promise<{ id: number }> {
  const body = createOutageBody.parse(raw);
  const ps = await requirePowerstation(ctx, user, body.powerstation);
  // An FCAS VPP's batteries answer the market's frequency services, as for dispatches and curtailments.
  if (ps.type === 'FCAS') throw badRequest(OUTAGE_MESSAGES.fcasNoOutage);
  const now = nowS();
  if (body.startTime % 300 !== 0) throw badRequest(OUTAGE_MESSAGES.startStep);
  if (body.duration % 300 !== 0) throw badRequest(OUTAGE_MESSAGES.durationStep);
  if (body.startTime < now - (now % 300)) throw badRequest(OUTAGE_MESSAGES.startInPast);
  const nodes = await batteryMembers(ctx.db, ps);
  if (!nodes.length) throw badRequest(OUTAGE_MESSAGES.noBatteryNodes);
  const org = await ctx.db.selectFrom('organisations').select('name').where('id', '=', user.organisationId).executeTakeFirstOrThrow();
  return ctx.db.transaction().execute(async (trx) => {
    // One outage at a time per VPP: the VPP's row is locked (PostgreSQL; SQLite's one writer already
    // runs these one after the other) so that two overlapping requests cannot both pass the check.
    if (ctx.dialect === 'postgres') await trx.selectFrom('powerstations').select('id').where('id', '=', ps.id).forUpdate().execute();
    const other = await trx
      .selectFrom('events')
      .select('id')
      .where('powerstation_id', '=', ps.id)
      .where('type', '=', GRID_OUTAGE)
      .where('cancelled_at', 'is', null)
      .where('start_time', '<', body.startTime + body.duration)
      .where(sql<number>`start_time + duration`, '>', body.startTime)
      .orderBy('start_time')
      .limit(1)
      .executeTakeFirst();
    if (other) throw badRequest(OUTAGE_MESSAGES.overlaps(other.id), 'outage_overlaps');
    const { id } = await trx
      .insertInto('events')
      .values({
        organisation_id: user.organisationId,
        powerstation_id: ps.id,
        type: GRID_OUTAGE,
        start_time: body.startTime,
        duration: body.duration,
        cancelled_at: null,
        created_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('grid_outages')
      .values({
        event_id: id,
        outage_reason: body.outageReason,
        message_title: body.messageTitle?.trim() || defaultOutageTitle(body.outageReason),
        customer_message: body.customerMessage?.trim() || defaultOutageMessage(body.outageReason, org.name),
        created_by: user.id,
        orders_sent_at: null,
      })
      .execute();
    for (let i = 0; i < nodes.length; i += 1000)
      await trx
        .insertInto('outage_nodes')
        .values(
          nodes
            .slice(i, i + 1000)
            .map((n) => ({ event_id: id, node_id: n.id, prepare_from: null, orders_sent_at: null, opted_out_at: null, opted_out_by: null })),
        )
        .execute();
    await trx.insertInto('event_audit').values({ event_id: id, action: 'CREATED', user_id: user.id, at: now, detail: null }).execute();
    return { id };
  });
}

/** The organisation's outages, latest start first, then the longest. */
export async function listOutages(ctx: AppContext, user: AuthUser): Promise<{ outages: GridOutage[] }> {
  const rows = await outageQuery(ctx.db)
    .where('events.organisation_id', '=', user.organisationId)
    .orderBy('events.start_time', 'desc')
    .orderBy('events.duration', 'desc')
    .orderBy('events.id', 'desc')
    .execute();
  const now = nowS();
  return { outages: rows.map((r) => present(toRow(r), now)) };
}

export async function outageDetail(ctx: AppContext, user: AuthUser, id: number): Promise<GridOutage> {
  return present(await requireOutage(ctx, user, id), nowS());
}

/**
 * Who took part: `responded` counts the nodes whose device accepted the orders, `total_deployments`
 * the nodes the outage prepares, and the opted-out ones are listed with the time they opted out.
 */
export async function outageResponse(ctx: AppContext, user: AuthUser, id: number): Promise<GridOutageResponse> {
  await requireOutage(ctx, user, id);
  const nodes = await ctx.db
    .selectFrom('outage_nodes as o')
    .innerJoin('nodes', 'nodes.id', 'o.node_id')
    .select(['o.node_id', 'o.opted_out_at', 'nodes.nmi'])
    .where('o.event_id', '=', id)
    .orderBy('o.node_id')
    .execute();
  const answers = await commandResponses(ctx.db, outageSource(id));
  // A command withdrawn after its device answered (a cancel) had been accepted.
  const responded = new Set(answers.filter((a) => a.status === 'ACCEPTED' || (a.status === 'CANCELLED' && a.responded_at !== null)).map((a) => a.node_id));
  const cancelled = nodes
    .filter((n) => n.opted_out_at !== null)
    .map((n) => ({ nmi: n.nmi, deployment_uid: n.node_id, cancelled_at: Number(n.opted_out_at) }))
    .sort((a, b) => a.cancelled_at - b.cancelled_at || a.deployment_uid - b.deployment_uid);
  return {
    responded: nodes.filter((n) => n.opted_out_at === null && responded.has(n.node_id)).length,
    total_deployments: nodes.length,
    total_cancelled_deployments: cancelled.length,
    cancelled_deployments: cancelled,
  };
}

/** Whether an event of the organisation is a grid outage: `POST /dispatch/{id}/cancel` cancels both kinds. */
export async function isOutage(db: Database, orgId: number, id: number): Promise<boolean> {
  const e = await db.selectFrom('events').select('type').where('id', '=', id).where('organisation_id', '=', orgId).executeTakeFirst();
  return e?.type === GRID_OUTAGE;
}

/** Cancels an UPCOMING or INPROGRESS outage (409 otherwise): the nodes' orders are withdrawn, the audit says who. */
export async function cancelOutage(ctx: AppContext, user: AuthUser, id: number): Promise<void> {
  if (!hasPermission(user.permissions, OUTAGE_EDIT)) throw forbidden();
  const o = await requireOutage(ctx, user, id);
  const now = nowS();
  if (o.cancelled_at !== null || stateOf(o, now) === 'COMPLETED') throw conflict(OUTAGE_MESSAGES.notCancellable);
  await ctx.db.transaction().execute(async (trx) => {
    const done = await trx.updateTable('events').set({ cancelled_at: now }).where('id', '=', id).where('cancelled_at', 'is', null).executeTakeFirst();
    if (Number(done.numUpdatedRows) !== 1) throw conflict(OUTAGE_MESSAGES.notCancellable);
    await cancelCommands(trx, outageSource(id), now);
    await trx.insertInto('event_audit').values({ event_id: id, action: 'CANCELLED', user_id: user.id, at: now, detail: null }).execute();
  });
}

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** Pairs a node's customer app: a new token (answered once), whose hash replaces the node's previous one. */
export async function issueAppToken(ctx: AppContext, user: AuthUser, nodeId: number): Promise<{ token: string }> {
  const node = await fleetNodes(ctx.db, user.organisationId).select('nodes.id').where('nodes.id', '=', nodeId).executeTakeFirst();
  if (!node) throw notFound('node');
  const token = `nat_${randomBytes(24).toString('base64url')}`;
  await ctx.db
    .insertInto('node_app_tokens')
    .values({ node_id: nodeId, token_hash: hashToken(token), created_at: nowS() })
    .onConflict((oc) => oc.column('node_id').doUpdateSet((eb) => ({ token_hash: eb.ref('excluded.token_hash'), created_at: eb.ref('excluded.created_at') })))
    .execute();
  return { token };
}

/** The node whose customer app holds this token, or null. */
export async function nodeOfAppToken(db: Database, token: string): Promise<number | null> {
  const paired = await db.selectFrom('node_app_tokens').select('node_id').where('token_hash', '=', hashToken(token)).executeTakeFirst();
  return paired?.node_id ?? null;
}

/** Records opt-outs (once per node: the first time stands) and withdraws orders already sent. */
export async function optOutNodes(db: Database, id: number, nodeIds: readonly number[], by: 'APP' | 'SIMULATED', at: number): Promise<void> {
  for (let i = 0; i < nodeIds.length; i += 1000) {
    await db
      .updateTable('outage_nodes')
      .set({ opted_out_at: at, opted_out_by: by })
      .where('event_id', '=', id)
      .where('node_id', 'in', nodeIds.slice(i, i + 1000))
      .where('opted_out_at', 'is', null)
      .execute();
  }
  await cancelCommands(db, outageSource(id), at, nodeIds);
}

/**
 * The customer app opts its home out of an outage (issue 34 item 12 reaches it through the
 * customer-app area): the event must prepare that node (404) and not have ended or been cancelled (409).
 */
export async function optOutOfOutage(ctx: AppContext, nodeId: number, eventId: number): Promise<{ optedOutAt: number }> {
  const row = await ctx.db
    .selectFrom('outage_nodes as o')
    .innerJoin('events', 'events.id', 'o.event_id')
    .select(['events.start_time', 'events.duration', 'events.cancelled_at', 'o.opted_out_at'])
    .where('o.event_id', '=', eventId)
    .where('o.node_id', '=', nodeId)
    .where('events.type', '=', GRID_OUTAGE)
    .executeTakeFirst();
  if (!row) throw notFound('event');
  if (row.opted_out_at !== null) return { optedOutAt: Number(row.opted_out_at) };
  const now = nowS();
  if (row.cancelled_at !== null || Number(row.start_time) + Number(row.duration) <= now) throw conflict(OUTAGE_MESSAGES.optOutClosed);
  await ctx.db.transaction().execute((trx) => optOutNodes(trx, eventId, [nodeId], 'APP', now));
  const after = await ctx.db
    .selectFrom('outage_nodes')
    .select('opted_out_at')
    .where('event_id', '=', eventId)
    .where('node_id', '=', nodeId)
    .executeTakeFirstOrThrow();
  return { optedOutAt: Number(after.opted_out_at) };
}

/** Outages whose orders are due (within 24 hours of the start, not ended, not cancelled, not sent). */
export async function dueOutages(db: Database, now: number, leadS: number) {
  return db
    .selectFrom('events')
    .innerJoin('grid_outages as g', 'g.event_id', 'events.id')
    .select(['events.id'])
    .where('events.type', '=', GRID_OUTAGE)
    .where('events.cancelled_at', 'is', null)
    .where('g.orders_sent_at', 'is', null)
    .where('events.start_time', '<=', now + leadS)
    .where(sql<number>`events.start_time + events.duration`, '>', now)
    .orderBy('events.start_time')
    .execute();
}
