import { eventStateAt, type VppEvent, type VppEventState } from '@vpp/shared/events/schemas';
import { type Database, nowS } from '../../db/database.ts';
import { cancelCommands, endCommands } from '../../devices/index.ts';
import type { AppContext } from '../../platform/context.ts';
import { notFound } from '../../platform/errors.ts';
import type { AuthUser } from '../../platform/guard.ts';
import { requirePowerstation } from '../vpps/index.ts';
import * as repo from './events.repo.ts';

/** Events of the organisation, or of one of its VPPs, in a state (INCOMPLETE: upcoming and in progress). */
export async function listEvents(
  ctx: AppContext,
  user: AuthUser,
  opts: { powerstationId?: number; state?: VppEventState | 'INCOMPLETE' },
): Promise<VppEvent[]> {
  if (opts.powerstationId !== undefined) await requirePowerstation(ctx, user, opts.powerstationId);
  const now = nowS();
  const rows = await repo.listEvents(ctx.db, user.organisationId, { ...opts, now });
  return rows.map((r) => ({
    id: r.id,
    type: r.type,
    startTime: Number(r.start_time),
    duration: Number(r.duration),
    state: eventStateAt(Number(r.start_time), Number(r.duration), now),
    powerstation: r.powerstation_id !== null ? { id: r.powerstation_id, name: r.powerstation_name ?? '' } : null,
  }));
}

// The kernel the kinds of event share (dispatches, RERT dispatches, grid outages, curtailments):
// find/require/present of an event of a kind, its audit trail, cancel by kind and the settlement queue.

/** The columns every kind's row carries from the events table, its VPP and its creator. */
export interface EventRow {
  id: number;
  organisation_id: number;
  powerstation_id: number | null;
  powerstation_name: string | null;
  start_time: number;
  duration: number;
  cancelled_at: number | null;
  created_at: number;
  creator_given_name: string | null;
  creator_surname: string | null;
}

/** A kind of event as the kernel knows it: the noun of its 404 and how its repository finds one (any organisation when `orgId` is null). */
export interface EventKind<Row extends EventRow> {
  noun: string;
  find: (db: Database, orgId: number | null, id: number) => Promise<Row | undefined>;
}

/** An event of this kind of the caller's organisation, or 404 naming the kind. */
export async function requireEvent<Row extends EventRow>(
  ctx: AppContext,
  user: Pick<AuthUser, 'organisationId'>,
  kind: EventKind<Row>,
  id: number,
): Promise<Row> {
  const row = await kind.find(ctx.db, user.organisationId, id);
  if (!row) throw notFound(kind.noun);
  return row;
}

/** A user's name as the screens show it; 'Unknown' for one no longer in the organisation. */
export const nameOf = (given: string | null, surname: string | null) => (given === null ? 'Unknown' : `${given} ${surname ?? ''}`.trim());

/** What every kind's summary says of its event: id, state at `now`, VPP, who created it and when, and its cancel. */
export function presentEvent(e: EventRow, now: number) {
  return {
    id: e.id,
    state: eventStateAt(e.start_time, e.duration, now, e.cancelled_at),
    powerstation: e.powerstation_id !== null && e.powerstation_name !== null ? { id: e.powerstation_id, name: e.powerstation_name } : null,
    createdBy: nameOf(e.creator_given_name, e.creator_surname),
    createdAt: e.created_at,
    cancelledAt: e.cancelled_at,
  };
}

/** An event's audit trail as the detail screens show it, oldest first. */
export async function auditTrail(db: Database, orgId: number, eventId: number) {
  const rows = await repo.auditOf(db, orgId, eventId);
  return rows.map((a) => ({ action: a.action as repo.AuditAction, at: a.at, by: nameOf(a.given_name, a.surname), detail: a.detail }));
}

export { type AuditAction, audit, insertEvent, moveUpcomingEvent } from './events.repo.ts';

/**
 * Cancels an event in the caller's transaction: marks it cancelled (see `cancelEvent`), withdraws
 * its orders from the nodes (`end`: ends them at `now` instead, what the nodes did before standing)
 * and records who in the audit. Answers false, changing nothing, when it was already cancelled
 * (or, `upcomingOnly`, had started): the caller says why.
 */
export async function withdrawEvent(
  trx: Database,
  e: { id: number; source: string; userId: number | null; now: number; upcomingOnly?: boolean; end?: boolean },
): Promise<boolean> {
  if (!(await repo.cancelEvent(trx, e.id, e.now, e.upcomingOnly))) return false;
  await (e.end ? endCommands : cancelCommands)(trx, e.source, e.now);
  await repo.audit(trx, e.id, 'CANCELLED', e.userId, e.now);
  return true;
}

/**
 * Cancel by kind: one call (`POST /dispatch/{id}/cancel`) cancels an event of any kind that
 * `kinds` names by its type, with that kind's permission and rules; any other (or none of the
 * organisation's) goes to `otherwise`, which answers 404 for what it does not know.
 */
export async function cancelByKind(
  ctx: AppContext,
  user: AuthUser,
  id: number,
  kinds: Readonly<Record<string, (ctx: AppContext, user: AuthUser, id: number) => Promise<void>>>,
  otherwise: (ctx: AppContext, user: AuthUser, id: number) => Promise<void>,
): Promise<void> {
  const type = await repo.eventType(ctx.db, user.organisationId, id);
  const cancel = type !== undefined ? kinds[type] : undefined;
  return (cancel ?? otherwise)(ctx, user, id);
}
