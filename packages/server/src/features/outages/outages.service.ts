import { createHash, randomBytes } from 'node:crypto';
import { eventStateAt } from '@vpp/shared/events/schemas';
import { defaultOutageMessage, defaultOutageTitle, GRID_OUTAGE, OUTAGE_MESSAGES, type OutageReason } from '@vpp/shared/outages/messages';
import { OUTAGE_EDIT } from '@vpp/shared/outages/permissions';
import { type CreateOutageBody, createOutageBody, type GridOutage, type GridOutageResponse } from '@vpp/shared/outages/schemas';
import { hasPermission } from '@vpp/shared/permissions/registry';
import { type Database, nowS } from '../../db/database.ts';
import { cancelCommands, commandResponses } from '../../devices/index.ts';
import type { AppContext } from '../../platform/context.ts';
import { ApiError, badRequest, forbidden, notFound } from '../../platform/errors.ts';
import type { AuthUser } from '../../platform/guard.ts';
import { audit, type EventKind, insertEvent, presentEvent, requireEvent, withdrawEvent } from '../events/index.ts';
import { requirePowerstation } from '../vpps/index.ts';
import { outageSource } from './outages.orders.ts';
import * as repo from './outages.repo.ts';

export type { OutageRow } from './outages.repo.ts';
export const findOutage = repo.findOutage;

// Grid outages (spec 3 §2.6, §3.5, §7): created, read, cancelled; customers opt out through their app.

const conflict = (message: string) => new ApiError(409, 'conflict', message);

export const stateOf = (d: { start_time: number; duration: number; cancelled_at: number | null }, now: number) =>
  eventStateAt(d.start_time, d.duration, now, d.cancelled_at);

/** A grid outage as an event kind (its 404). */
const OUTAGE: EventKind<repo.OutageRow> = { noun: 'grid outage', find: repo.findOutage };

const requireOutage = (ctx: AppContext, user: AuthUser, id: number) => requireEvent(ctx, user, OUTAGE, id);

function present(o: repo.OutageRow, now: number): GridOutage {
  const e = presentEvent(o, now);
  return {
    id: e.id,
    request: { startTime: o.start_time, duration: o.duration },
    reason: o.message_title,
    outageReason: o.outage_reason as OutageReason,
    powerstation: e.powerstation,
    state: e.state,
    createdAt: e.createdAt,
    createdBy: e.createdBy,
    cancelledAt: e.cancelledAt,
    customerMessage: o.customer_message,
  };
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
  const nodes = await repo.batteryMembers(ctx.db, ps);
  if (!nodes.length) throw badRequest(OUTAGE_MESSAGES.noBatteryNodes);
  const orgName = await repo.organisationName(ctx.db, user.organisationId);
  return ctx.db.transaction().execute(async (trx) => {
    // One outage at a time per VPP: the VPP's row is locked (PostgreSQL; SQLite's one writer already
    // runs these one after the other) so that two overlapping requests cannot both pass the check.
    if (ctx.dialect === 'postgres') await repo.lockPowerstation(trx, ps.id);
    const other = await repo.overlappingOutage(trx, ps.id, body.startTime, body.startTime + body.duration);
    if (other !== undefined) throw badRequest(OUTAGE_MESSAGES.overlaps(other), 'outage_overlaps');
    const id = await insertEvent(trx, {
      organisation_id: user.organisationId,
      powerstation_id: ps.id,
      type: GRID_OUTAGE,
      start_time: body.startTime,
      duration: body.duration,
      created_at: now,
    });
    await repo.insertOutage(
      trx,
      {
        event_id: id,
        outage_reason: body.outageReason,
        message_title: body.messageTitle?.trim() || defaultOutageTitle(body.outageReason),
        customer_message: body.customerMessage?.trim() || defaultOutageMessage(body.outageReason, orgName),
        created_by: user.id,
      },
      nodes.map((n) => n.id),
    );
    await audit(trx, id, 'CREATED', user.id, now);
    return { id };
  });
}

/** The organisation's outages, latest start first, then the longest. */
export async function listOutages(ctx: AppContext, user: AuthUser): Promise<{ outages: GridOutage[] }> {
  const rows = await repo.listOutages(ctx.db, user.organisationId);
  const now = nowS();
  return { outages: rows.map((r) => present(r, now)) };
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
  const nodes = await repo.outageNodes(ctx.db, id);
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

/** Cancels an UPCOMING or INPROGRESS outage (409 otherwise): the nodes' orders are withdrawn, the audit says who. */
export async function cancelOutage(ctx: AppContext, user: AuthUser, id: number): Promise<void> {
  if (!hasPermission(user.permissions, OUTAGE_EDIT)) throw forbidden();
  const o = await requireOutage(ctx, user, id);
  const now = nowS();
  if (o.cancelled_at !== null || stateOf(o, now) === 'COMPLETED') throw conflict(OUTAGE_MESSAGES.notCancellable);
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await withdrawEvent(trx, { id, source: outageSource(id), userId: user.id, now }))) throw conflict(OUTAGE_MESSAGES.notCancellable);
  });
}

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** Pairs a node's customer app: a new token (answered once), whose hash replaces the node's previous one. */
export async function issueAppToken(ctx: AppContext, user: AuthUser, nodeId: number): Promise<{ token: string }> {
  if (!(await repo.isOrganisationNode(ctx.db, user.organisationId, nodeId))) throw notFound('node');
  const token = `nat_${randomBytes(24).toString('base64url')}`;
  await repo.storeAppToken(ctx.db, nodeId, hashToken(token), nowS());
  return { token };
}

/** The node whose customer app holds this token, or null. */
export async function nodeOfAppToken(db: Database, token: string): Promise<number | null> {
  return (await repo.pairedNode(db, hashToken(token))) ?? null;
}

/** Records opt-outs (once per node: the first time stands) and withdraws orders already sent. */
export async function optOutNodes(db: Database, id: number, nodeIds: readonly number[], by: 'APP' | 'SIMULATED', at: number): Promise<void> {
  await repo.markOptedOut(db, id, nodeIds, by, at);
  await cancelCommands(db, outageSource(id), at, nodeIds);
}

/**
 * The customer app opts its home out of an outage (issue 34 item 12 reaches it through the
 * customer-app area): the event must prepare that node (404) and not have ended or been cancelled (409).
 */
export async function optOutOfOutage(ctx: AppContext, nodeId: number, eventId: number): Promise<{ optedOutAt: number }> {
  const row = await repo.outageNode(ctx.db, eventId, nodeId);
  if (!row) throw notFound('event');
  if (row.opted_out_at !== null) return { optedOutAt: Number(row.opted_out_at) };
  const now = nowS();
  if (row.cancelled_at !== null || Number(row.start_time) + Number(row.duration) <= now) throw conflict(OUTAGE_MESSAGES.optOutClosed);
  await ctx.db.transaction().execute((trx) => optOutNodes(trx, eventId, [nodeId], 'APP', now));
  return { optedOutAt: await repo.optedOutAt(ctx.db, eventId, nodeId) };
}
