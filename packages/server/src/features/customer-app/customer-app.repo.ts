import { sql } from 'kysely';
import type { Database } from '../../db/database.ts';
import './customer-app.tables.ts';

/** One node's copy of an event's message: the event, the text, and what the customer did. */
export interface AppMessageRow {
  event: number;
  type: string;
  title: string | null;
  message: string | null;
  start_time: number;
  duration: number;
  cancelled_at: number | null;
  sent_at: number;
  delivered_at: number | null;
  read_at: number | null;
  opted_out_at: number | null;
  real_power_p: number | null;
}

/**
 * The copies of a kind's messages that went out, one a node and event (`x`), with when each was sent
 * and what the node's app said of it (its receipt, `r`): a dispatch's or RERT dispatch's with its
 * orders (none for a lockout), a grid outage's when the outage's orders went out (to every node of
 * it, including those that then opted out). The base of a node's messages and of an event's receipts.
 */
const copies = {
  dispatch: (db: Database) =>
    db
      .selectFrom('dispatch_nodes as x')
      .leftJoin('message_receipts as r', (j) => j.onRef('r.event_id', '=', 'x.event_id').onRef('r.node_id', '=', 'x.node_id'))
      .where('x.message_sent_at', 'is not', null)
      .select([sql<number>`x.message_sent_at`.as('sent_at'), 'r.delivered_at', 'r.read_at']),
  outage: (db: Database) =>
    db
      .selectFrom('outage_nodes as x')
      .innerJoin('grid_outages as g', 'g.event_id', 'x.event_id')
      .leftJoin('message_receipts as r', (j) => j.onRef('r.event_id', '=', 'x.event_id').onRef('r.node_id', '=', 'x.node_id'))
      .where('g.orders_sent_at', 'is not', null)
      .select([sql<number>`g.orders_sent_at`.as('sent_at'), 'r.delivered_at', 'r.read_at']),
};

/**
 * The messages sent to a node's customer, newest first (or one event's): a dispatch's or RERT
 * dispatch's with its orders (none for a lockout), a grid outage's when the outage's orders went
 * out (to every node of it, including those that then opted out).
 */
export async function nodeMessages(db: Database, nodeId: number, opts: { event?: number; limit: number }): Promise<AppMessageRow[]> {
  const dispatched = copies
    .dispatch(db)
    .innerJoin('events as e', 'e.id', 'x.event_id')
    .innerJoin('dispatches as d', 'd.event_id', 'x.event_id')
    .where('x.node_id', '=', nodeId)
    .select([
      'e.id as event',
      'e.type',
      'd.message_title as title',
      'd.customer_message as message',
      'e.start_time',
      'e.duration',
      'e.cancelled_at',
      'x.opted_out_at',
      sql<number | null>`d.real_power_p`.as('real_power_p'),
    ]);
  const outages = copies
    .outage(db)
    .innerJoin('events as e', 'e.id', 'x.event_id')
    .where('x.node_id', '=', nodeId)
    .select([
      'e.id as event',
      'e.type',
      'g.message_title as title',
      'g.customer_message as message',
      'e.start_time',
      'e.duration',
      'e.cancelled_at',
      'x.opted_out_at',
      sql<number | null>`cast(null as double precision)`.as('real_power_p'),
    ]);
  let q = db.selectFrom(dispatched.unionAll(outages).as('m')).selectAll();
  if (opts.event !== undefined) q = q.where('event', '=', opts.event);
  const rows = await q.orderBy('sent_at', 'desc').orderBy('event', 'desc').limit(opts.limit).execute();
  return rows.map((r) => ({
    ...r,
    event: Number(r.event),
    start_time: Number(r.start_time),
    duration: Number(r.duration),
    cancelled_at: r.cancelled_at === null ? null : Number(r.cancelled_at),
    sent_at: Number(r.sent_at),
    delivered_at: r.delivered_at === null ? null : Number(r.delivered_at),
    read_at: r.read_at === null ? null : Number(r.read_at),
    opted_out_at: r.opted_out_at === null ? null : Number(r.opted_out_at),
  }));
}

/** Records the node's app received these events' messages (the first time stands) and, with `read`, that it read them. */
export async function markReceipts(db: Database, nodeId: number, eventIds: readonly number[], at: number, read = false): Promise<void> {
  for (let i = 0; i < eventIds.length; i += 500)
    await db
      .insertInto('message_receipts')
      .values(eventIds.slice(i, i + 500).map((event_id) => ({ event_id, node_id: nodeId, delivered_at: at, read_at: read ? at : null })))
      .onConflict((oc) =>
        oc.columns(['event_id', 'node_id']).doUpdateSet({
          delivered_at: sql`coalesce(message_receipts.delivered_at, excluded.delivered_at)`,
          read_at: sql`coalesce(message_receipts.read_at, excluded.read_at)`,
        }),
      )
      .execute();
}

/** An event of the organisation: its kind, for the receipts' permission. */
export async function orgEvent(db: Database, orgId: number, eventId: number) {
  return db.selectFrom('events').select(['id', 'type']).where('id', '=', eventId).where('organisation_id', '=', orgId).executeTakeFirst();
}

/** The nodes sent an event's message, in node order (a customer who declined on the device counts as opted out), a page of them, with what became of each copy, and the counts of all. */
export async function eventReceipts(db: Database, eventId: number, type: string, limit: number, offset: number) {
  const base =
    type === 'GRID_OUTAGE'
      ? copies.outage(db).select('x.opted_out_at')
      : copies.dispatch(db).select(
          // Opted out in the app, or by the device's answer to the node's orders (OPTED_OUT, docs/devices.md).
          sql<
            number | null
          >`coalesce(x.opted_out_at, (select min(c.responded_at) from node_commands c where c.node_id = x.node_id and c.source = ${`dispatch:${eventId}`} and c.status = 'OPTED_OUT'))`.as(
            'opted_out_at',
          ),
        );
  const rows = base.innerJoin('nodes as n', 'n.id', 'x.node_id').where('x.event_id', '=', eventId).select(['x.node_id', 'n.nmi']);
  const [page, counts] = await Promise.all([
    rows.orderBy('x.node_id').limit(limit).offset(offset).execute(),
    db
      .selectFrom(rows.as('a'))
      .select((eb) => [
        eb.fn.countAll<number>().as('sent'),
        eb.fn.count<number>('a.delivered_at').as('delivered'),
        eb.fn.count<number>('a.read_at').as('read'),
        eb.fn.count<number>('a.opted_out_at').as('opted_out'),
      ])
      .executeTakeFirstOrThrow(),
  ]);
  return { page, counts };
}

/** An event's kind, whatever its organisation (the app's token names the node; the kind's own rules check the node is in the event). */
export async function eventType(db: Database, eventId: number) {
  return db.selectFrom('events').select('type').where('id', '=', eventId).executeTakeFirst();
}
