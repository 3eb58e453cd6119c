import type { Database } from '../../db/database.ts';

/** A RERT dispatch's event inside a transaction, locked until it ends when `lock` (PostgreSQL; SQLite runs one writer at a time). */
export async function lockedRert(trx: Database, id: number, lock: boolean) {
  let q = trx
    .selectFrom('events')
    .innerJoin('dispatches', 'dispatches.event_id', 'events.id')
    .select(['events.start_time', 'events.duration', 'events.cancelled_at', 'dispatches.orders_sent_at'])
    .where('events.id', '=', id);
  if (lock) q = q.forUpdate();
  const r = await q.executeTakeFirstOrThrow();
  return {
    start: Number(r.start_time),
    duration: Number(r.duration),
    cancelled: r.cancelled_at !== null,
    ordersSent: r.orders_sent_at !== null,
  };
}
