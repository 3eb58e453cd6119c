import type { Database } from '../../db/database.ts';
import type { DispatchNodeInput } from './dispatches.repo.ts';

// The dispatch engine's SQL beside the kernel's (which events are due, the marks that their orders went
// out or were checked): the nodes' orders as they stand.

/** A dispatch's message and orders to go out again: its message (when given) and the mark that its orders went out (`ordersSentAt`, or null: not yet). */
export async function resetOrders(db: Database, id: number, ordersSentAt: number | null, message: { customer_message?: string | null }): Promise<void> {
  await db
    .updateTable('dispatches')
    .set({ ...message, orders_sent_at: ordersSentAt, checked_at: null })
    .where('event_id', '=', id)
    .execute();
}

/** Each allocated node of a dispatch was sent its orders at `now`, and its customer the message when there is one. */
export async function markNodesSent(db: Database, id: number, now: number, withMessage: boolean): Promise<void> {
  await db
    .updateTable('dispatch_nodes')
    .set({ orders_sent_at: now, message_sent_at: withMessage ? now : null })
    .where('event_id', '=', id)
    .execute();
}

/** The nodes of a dispatch's allocation not dropped. */
export async function allocatedNodes(db: Database, id: number): Promise<number[]> {
  const rows = await db.selectFrom('dispatch_nodes').select('node_id').where('event_id', '=', id).where('dropped_at', 'is', null).execute();
  return rows.map((r) => r.node_id);
}

/** Marks these nodes of a dispatch dropped at `now`. */
export async function dropNodes(db: Database, id: number, nodeIds: readonly number[], now: number): Promise<void> {
  for (let i = 0; i < nodeIds.length; i += 1000)
    await db
      .updateTable('dispatch_nodes')
      .set({ dropped_at: now })
      .where('event_id', '=', id)
      .where('node_id', 'in', nodeIds.slice(i, i + 1000))
      .execute();
}

/** A node's orders in a dispatch as stored. */
export async function nodeIntervals(db: Database, id: number, nodeId: number): Promise<DispatchNodeInput['intervals']> {
  const row = await db.selectFrom('dispatch_nodes').select('intervals').where('event_id', '=', id).where('node_id', '=', nodeId).executeTakeFirst();
  return JSON.parse(row?.intervals ?? '[]') as DispatchNodeInput['intervals'];
}

/** Replaces a node's share and orders in a dispatch. */
export async function setNodeOrders(db: Database, id: number, nodeId: number, shareKw: number, intervals: DispatchNodeInput['intervals']): Promise<void> {
  await db
    .updateTable('dispatch_nodes')
    .set({ share_kw: shareKw, intervals: JSON.stringify(intervals) })
    .where('event_id', '=', id)
    .where('node_id', '=', nodeId)
    .execute();
}
