import type { Insertable } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { DispatchSettlementNodeTable, DispatchSettlementTable } from './dispatches.tables.ts';

// The SQL of measuring and settling a dispatch: its nodes' orders, their other dispatches (the
// baseline leaves those days out), whether telemetry covers the window, and the settlement written once.

/** A dispatch's nodes and their orders, in node order. */
export async function dispatchOrders(db: Database, id: number) {
  return db.selectFrom('dispatch_nodes').select(['node_id', 'intervals']).where('event_id', '=', id).orderBy('node_id').execute();
}

/** The windows of other dispatches (not `eventId`) that held these nodes, started in [since, before). */
export async function otherDispatchWindows(db: Database, nodeIds: readonly number[], eventId: number, since: number, before: number) {
  const out: { node_id: number; start_time: number; duration: number; cancelled_at: number | null }[] = [];
  for (let i = 0; i < nodeIds.length; i += 1000) {
    const rows = await db
      .selectFrom('dispatch_nodes as dn')
      .innerJoin('events as e', 'e.id', 'dn.event_id')
      .select(['dn.node_id', 'e.start_time', 'e.duration', 'e.cancelled_at'])
      .where('dn.node_id', 'in', nodeIds.slice(i, i + 1000))
      .where('e.id', '!=', eventId)
      .where('e.start_time', '<', before)
      .where('e.start_time', '>=', since)
      .execute();
    for (const r of rows)
      out.push({
        node_id: r.node_id,
        start_time: Number(r.start_time),
        duration: Number(r.duration),
        cancelled_at: r.cancelled_at === null ? null : Number(r.cancelled_at),
      });
  }
  return out;
}

/**
 * Whether every node of a dispatch's allocation that is connected (not offline) has a reading at or
 * after `end` (see the settlement's telemetryCovers).
 */
export async function telemetryCovers(db: Database, id: number, end: number): Promise<boolean> {
  const behind = await db
    .selectFrom('dispatch_nodes as dn')
    .innerJoin('nodes as n', 'n.id', 'dn.node_id')
    .leftJoin('tel_latest as l', 'l.node_id', 'dn.node_id')
    .select('dn.node_id')
    .where('dn.event_id', '=', id)
    .where('n.connection_offline', '=', 0)
    .where((eb) => eb.or([eb('l.ts', 'is', null), eb('l.ts', '<', end)]))
    .limit(1)
    .executeTakeFirst();
  return behind === undefined;
}

/** The dispatch's stored settlement, or undefined before it is settled. */
export async function findSettlement(db: Database, id: number) {
  const row = await db.selectFrom('dispatch_settlements').selectAll().where('event_id', '=', id).executeTakeFirst();
  return row ? { ...row, settled_at: Number(row.settled_at), period_start: Number(row.period_start), period_end: Number(row.period_end) } : undefined;
}

/** A dispatch or RERT dispatch (any organisation's) as settlement reads it. */
export async function settlingDispatch(db: Database, id: number, types: readonly string[]) {
  const e = await db
    .selectFrom('events')
    .innerJoin('dispatches as d', 'd.event_id', 'events.id')
    .select([
      'events.id',
      'events.organisation_id',
      'events.type',
      'events.start_time',
      'events.duration',
      'events.cancelled_at',
      'd.orders_sent_at',
      'd.real_power_p',
    ])
    .where('events.id', '=', id)
    .where('events.type', 'in', types)
    .executeTakeFirst();
  return e
    ? {
        id: e.id,
        organisation_id: e.organisation_id,
        type: e.type,
        start_time: Number(e.start_time),
        duration: Number(e.duration),
        cancelled_at: e.cancelled_at === null ? null : Number(e.cancelled_at),
        orders_sent_at: e.orders_sent_at === null ? null : Number(e.orders_sent_at),
        real_power_p: e.real_power_p,
      }
    : undefined;
}

/** Writes a settlement keyed by its event, unless one is there: answers whether this call wrote it. */
export async function insertSettlement(db: Database, row: Insertable<DispatchSettlementTable>): Promise<boolean> {
  const written = await db
    .insertInto('dispatch_settlements')
    .values(row)
    .onConflict((oc) => oc.column('event_id').doNothing())
    .returning('event_id')
    .executeTakeFirst();
  return written !== undefined;
}

/** A settlement's rows per node and local day. */
export async function insertSettlementNodes(db: Database, rows: readonly Insertable<DispatchSettlementNodeTable>[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 500)
    await db
      .insertInto('dispatch_settlement_nodes')
      .values(rows.slice(i, i + 500))
      .execute();
}

/** The accepted orders of these nodes that held them at some time in [from, before): the baseline's floor leaves those windows out. */
export async function acceptedOrdersBetween(db: Database, nodeIds: readonly number[], from: number, before: number) {
  const out: { node_id: number; start_ts: number; end_ts: number; params: string }[] = [];
  for (let i = 0; i < nodeIds.length; i += 1000)
    out.push(
      ...(await db
        .selectFrom('node_commands')
        .select(['node_id', 'start_ts', 'end_ts', 'params'])
        .where('node_id', 'in', nodeIds.slice(i, i + 1000))
        .where('status', '=', 'ACCEPTED')
        .where('start_ts', '<', before)
        .where('end_ts', '>', from)
        .execute()),
    );
  return out;
}
