import { type Database, nowS } from '../../db/database.ts';
import type { AppContext } from '../../platform/context.ts';
import { crashPoint } from '../../platform/crash-points.ts';
import { enqueue, type JobDefinition } from '../../platform/jobs.ts';
import { type SettledEvent, writeGridCredits } from '../billing/index.ts';
import * as repo from './events.repo.ts';

// The settlement of an event, for every kind that settles: the queue that finds the events due, and
// the step that settles one. Each kind measures its own figures and writes its own rows; the checks
// before, the transaction keyed by the event and the customers' grid credits are the kernel's.

/** The settled window of an event: its start to its end, or to its cancel when cancelled earlier. */
export const settledEnd = (e: { start_time: number; duration: number; cancelled_at: number | null }) =>
  Math.max(e.start_time, Math.min(e.start_time + e.duration, e.cancelled_at ?? Number.POSITIVE_INFINITY));

/** The market's interval: settlement prices each 5 minutes. */
const PRICE_INTERVAL_S = 300;

/**
 * Whether every interval a settled window ending at `end` prices has an actual price by `now`: the
 * interval a cancel fell in must have ended too. Settlement never reads a forecast; until then it waits.
 */
export const pricesActual = (end: number, now: number) => Math.ceil(end / PRICE_INTERVAL_S) * PRICE_INTERVAL_S <= now;

/** An event as its settlement reads it, before the kind's own columns. */
export interface SettlingEvent {
  id: number;
  organisation_id: number;
  start_time: number;
  duration: number;
  cancelled_at: number | null;
}

/** What the settlement queue and step need to know of a kind of event. */
export interface SettlementKind<E extends SettlingEvent = SettlingEvent> {
  /** The events' types. */
  types: readonly string[];
  /** The table of their settlements, keyed by event_id. */
  table: 'dispatch_settlements' | 'curtailment_settlements';
  job: JobDefinition<{ id: number; at: number }>;
  /** Whether the fleet's telemetry covers the event's settled window [.., end). */
  covers: (db: Database, id: number, end: number) => Promise<boolean>;
  /** Whether the settlement values its energy at actual spot prices, so waits until they exist (`pricesActual`). */
  spotPriced?: boolean;
  /** The event as the kind's settlement reads it (any organisation's), or undefined when it is none of the kind's. */
  load: (db: Database, id: number) => Promise<E | undefined>;
  /** What the crash point between the kind's rows and the credits is narrowed by (`CRASH_AT=settlement:1:<crash>`). */
  crash: string;
}

/** What a kind's settlement writes, from its own measured figures: its rows, and its customers' grid credits. */
export interface MeasuredSettlement {
  /** Writes the kind's settlement rows in the transaction, the first insert keyed by the event: whether this call wrote them. */
  write: (trx: Database) => Promise<boolean>;
  /** The grid credits written with them (the event's organisation and id are the kernel's to add); null: none (the row says what it earned). */
  credits: Omit<SettledEvent, 'organisationId' | 'eventId'> | null;
}

/**
 * Settles an event of a kind once it is due (SETTLEMENT_DELAY_S after its end or its cancel, the
 * interval prices actual for a spot-priced kind, not settled yet, and the fleet's telemetry covering
 * its window): `measure` computes the kind's figures (nothing written), then its rows and its
 * customers' grid credits are written in one transaction whose first insert is keyed by the event,
 * so a second run, a concurrent run (another worker) or a rerun after a crash writes nothing.
 * Answers whether this call wrote it.
 */
export async function settleEvent<E extends SettlingEvent>(
  ctx: AppContext,
  kind: SettlementKind<E>,
  id: number,
  now: number,
  measure: (e: E) => Promise<MeasuredSettlement>,
): Promise<boolean> {
  const e = await kind.load(ctx.db, id);
  if (!e) return false;
  const end = settledEnd(e);
  if (end + ctx.config.SETTLEMENT_DELAY_S > now) return false;
  if (kind.spotPriced && !pricesActual(end, now)) return false;
  if (await repo.isSettled(ctx.db, kind.table, id)) return false;
  if (!(await kind.covers(ctx.db, id, end))) return false;
  const m = await measure(e);
  return ctx.db.transaction().execute(async (trx) => {
    if (!(await m.write(trx))) return false;
    // The grid credits of the customers, in the same transaction: written with the settlement or not at all.
    crashPoint('settlement', kind.crash);
    if (m.credits) await writeGridCredits(trx, { organisationId: e.organisation_id, eventId: id, ...m.credits });
    return true;
  });
}

/** Events read per page of the settlement queue. */
const QUEUE_PAGE = 500;

/**
 * Queues the settlement of every event of a kind that is due and not settled, whatever their number
 * (keyset pages by id). The job's unique key queues each event's once, whatever the number of processes.
 */
export async function queueSettlements(ctx: AppContext, kind: SettlementKind, now = nowS()): Promise<number[]> {
  const prefix = `${kind.job.kind}:`;
  const endedBy = now - ctx.config.SETTLEMENT_DELAY_S;
  const queued: number[] = [];
  for (let after = 0; ; ) {
    const rows = await repo.unsettledEvents(ctx.db, { types: kind.types, table: kind.table, jobPrefix: prefix, endedBy, after, limit: QUEUE_PAGE });
    for (const r of rows) {
      // Not yet covered by the fleet's telemetry: asked again at the next run of the engine.
      const end = settledEnd(r);
      if (kind.spotPriced && !pricesActual(end, now)) continue;
      if (!(await kind.covers(ctx.db, r.id, end))) continue;
      if ((await enqueue(ctx.db, kind.job.kind, { id: r.id, at: now }, { uniqueKey: `${prefix}${r.id}` })) !== null) queued.push(r.id);
    }
    if (rows.length < QUEUE_PAGE) return queued;
    after = rows[rows.length - 1].id;
  }
}
