import { GRID_OUTAGE } from '@vpp/shared/outages/messages';
import { sql } from 'kysely';
import type { Database } from '../../db/database.ts';
import { EVENT_COLUMNS, eventTimes } from '../events/index.ts';
import { fleetNodes } from '../nodes/index.ts';
import { memberNodes, type PowerstationRow } from '../vpps/index.ts';

// The grid outages' SQL: their rows, their nodes and opt-outs, the customer app's tokens, the engine's marks.

function outageQuery(db: Database) {
  return db
    .selectFrom('events')
    .innerJoin('grid_outages as g', 'g.event_id', 'events.id')
    .leftJoin('powerstations as ps', 'ps.id', 'events.powerstation_id')
    .leftJoin('users as u', 'u.id', 'g.created_by')
    .select([
      ...EVENT_COLUMNS,
      'g.outage_reason',
      'g.message_title',
      'g.customer_message',
      'g.orders_sent_at',
      'u.given_name as creator_given_name',
      'u.surname as creator_surname',
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
  ...eventTimes(r),
  orders_sent_at: num(r.orders_sent_at),
});

/** One outage of the organisation (any organisation when `orgId` is null: the engine's view). */
export async function findOutage(db: Database, orgId: number | null, id: number): Promise<OutageRow | undefined> {
  let q = outageQuery(db).where('events.id', '=', id);
  if (orgId !== null) q = q.where('events.organisation_id', '=', orgId);
  const r = await q.executeTakeFirst();
  return r ? toRow(r) : undefined;
}

/** The organisation's outages, latest start first, then the longest. */
export async function listOutages(db: Database, orgId: number): Promise<OutageRow[]> {
  const rows = await outageQuery(db)
    .where('events.organisation_id', '=', orgId)
    .orderBy('events.start_time', 'desc')
    .orderBy('events.duration', 'desc')
    .orderBy('events.id', 'desc')
    .execute();
  return rows.map(toRow);
}

/** The VPP's commissioned member nodes with a battery: those an outage prepares. */
export async function batteryMembers(db: Database, ps: PowerstationRow) {
  return memberNodes(db, ps)
    .select(['nodes.id', 'nodes.battery_usable_kwh', 'nodes.battery_kw'])
    .where('nodes.unit_state', '=', 'COMMISSIONED')
    .where('nodes.battery_usable_kwh', '>', 0)
    .where('nodes.battery_kw', '>', 0)
    .orderBy('nodes.id')
    .execute();
}

/** The organisation's name (the default customer message names it). */
export async function organisationName(db: Database, orgId: number): Promise<string> {
  return (await db.selectFrom('organisations').select('name').where('id', '=', orgId).executeTakeFirstOrThrow()).name;
}

/** Locks the VPP's row until the transaction ends (PostgreSQL). */
export async function lockPowerstation(db: Database, id: number): Promise<void> {
  await db.selectFrom('powerstations').select('id').where('id', '=', id).forUpdate().execute();
}

/** An outage of the VPP, not cancelled, that overlaps [start, end): the earliest. */
export async function overlappingOutage(db: Database, powerstationId: number, start: number, end: number): Promise<number | undefined> {
  const other = await db
    .selectFrom('events')
    .select('id')
    .where('powerstation_id', '=', powerstationId)
    .where('type', '=', GRID_OUTAGE)
    .where('cancelled_at', 'is', null)
    .where('start_time', '<', end)
    .where(sql<number>`start_time + duration`, '>', start)
    .orderBy('start_time')
    .limit(1)
    .executeTakeFirst();
  return other?.id;
}

/** A new outage's details and the nodes it prepares, beside its event. */
export async function insertOutage(
  db: Database,
  row: { event_id: number; outage_reason: string; message_title: string; customer_message: string; created_by: number },
  nodeIds: readonly number[],
): Promise<void> {
  await db
    .insertInto('grid_outages')
    .values({ ...row, orders_sent_at: null })
    .execute();
  for (let i = 0; i < nodeIds.length; i += 1000)
    await db
      .insertInto('outage_nodes')
      .values(
        nodeIds
          .slice(i, i + 1000)
          .map((n) => ({ event_id: row.event_id, node_id: n, prepare_from: null, orders_sent_at: null, opted_out_at: null, opted_out_by: null })),
      )
      .execute();
}

/** An outage's nodes with their NMI and opt-out, in node order. */
export async function outageNodes(db: Database, id: number) {
  return db
    .selectFrom('outage_nodes as o')
    .innerJoin('nodes', 'nodes.id', 'o.node_id')
    .select(['o.node_id', 'o.opted_out_at', 'nodes.nmi'])
    .where('o.event_id', '=', id)
    .orderBy('o.node_id')
    .execute();
}

/** Replaces a node's customer app token hash. */
export async function storeAppToken(db: Database, nodeId: number, tokenHash: string, at: number): Promise<void> {
  await db
    .insertInto('node_app_tokens')
    .values({ node_id: nodeId, token_hash: tokenHash, created_at: at })
    .onConflict((oc) => oc.column('node_id').doUpdateSet((eb) => ({ token_hash: eb.ref('excluded.token_hash'), created_at: eb.ref('excluded.created_at') })))
    .execute();
}

/** The node a customer app token's hash pairs, if any. */
export async function pairedNode(db: Database, tokenHash: string): Promise<number | undefined> {
  return (await db.selectFrom('node_app_tokens').select('node_id').where('token_hash', '=', tokenHash).executeTakeFirst())?.node_id;
}

/** A node's part in an outage: the event's window and cancel, and the node's opt-out. */
export async function outageNode(db: Database, eventId: number, nodeId: number) {
  return db
    .selectFrom('outage_nodes as o')
    .innerJoin('events', 'events.id', 'o.event_id')
    .select(['events.start_time', 'events.duration', 'events.cancelled_at', 'o.opted_out_at'])
    .where('o.event_id', '=', eventId)
    .where('o.node_id', '=', nodeId)
    .where('events.type', '=', GRID_OUTAGE)
    .executeTakeFirst();
}

/** When a node opted out of an outage. */
export async function optedOutAt(db: Database, eventId: number, nodeId: number): Promise<number> {
  const after = await db
    .selectFrom('outage_nodes')
    .select('opted_out_at')
    .where('event_id', '=', eventId)
    .where('node_id', '=', nodeId)
    .executeTakeFirstOrThrow();
  return Number(after.opted_out_at);
}

/** Records these nodes' opt-outs (the first time stands). */
export async function markOptedOut(db: Database, id: number, nodeIds: readonly number[], by: 'APP' | 'SIMULATED', at: number): Promise<void> {
  for (let i = 0; i < nodeIds.length; i += 1000) {
    await db
      .updateTable('outage_nodes')
      .set({ opted_out_at: at, opted_out_by: by })
      .where('event_id', '=', id)
      .where('node_id', 'in', nodeIds.slice(i, i + 1000))
      .where('opted_out_at', 'is', null)
      .execute();
  }
}

/** An outage's nodes with their batteries, as the engine orders them. */
export async function engineNodes(db: Database, id: number) {
  return db
    .selectFrom('outage_nodes as o')
    .innerJoin('nodes', 'nodes.id', 'o.node_id')
    .select(['o.node_id', 'o.opted_out_at', 'nodes.battery_usable_kwh', 'nodes.battery_kw'])
    .where('o.event_id', '=', id)
    .execute();
}

/** A node's orders for an outage went out at `now`, preparing from `prepareFrom`. */
export async function markNodeSent(db: Database, id: number, nodeId: number, prepareFrom: number, now: number): Promise<void> {
  await db
    .updateTable('outage_nodes')
    .set({ prepare_from: prepareFrom, orders_sent_at: now })
    .where('event_id', '=', id)
    .where('node_id', '=', nodeId)
    .execute();
}

/** Whether the node is one of the organisation's fleet. */
export async function isOrganisationNode(db: Database, orgId: number, nodeId: number): Promise<boolean> {
  return (await fleetNodes(db, orgId).select('nodes.id').where('nodes.id', '=', nodeId).executeTakeFirst()) !== undefined;
}
