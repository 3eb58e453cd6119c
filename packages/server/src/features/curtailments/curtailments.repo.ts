import { type AnyCurtailmentComponent, CURTAILMENT } from '@vpp/shared/curtailments/messages';
import { sql } from 'kysely';
import type { Database } from '../../db/database.ts';
import { EVENT_COLUMNS, type EventRow, eventTimes } from '../events/index.ts';

// The curtailments' SQL: their rows, their nodes' history lines and answers, the engine's marks and the settlement.

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

function curtailmentQuery(db: Database) {
  return db
    .selectFrom('events')
    .innerJoin('curtailments as c', 'c.event_id', 'events.id')
    .leftJoin('powerstations as ps', 'ps.id', 'events.powerstation_id')
    .leftJoin('users as u', (j) => j.onRef('u.id', '=', 'c.created_by').onRef('u.organisation_id', '=', 'events.organisation_id'))
    .select((eb) => [
      ...EVENT_COLUMNS,
      'c.component',
      'c.real_power_p',
      'c.triggered',
      'c.reason',
      'c.created_by',
      'c.orders_sent_at',
      'c.checked_at',
      'u.given_name as creator_given_name',
      'u.surname as creator_surname',
      eb
        .selectFrom('limit_nodes as ln')
        .select(eb.fn.countAll<number>().as('n'))
        .where('ln.source', '=', sql<string>`${'curtailment:'} || cast(events.id as text)`)
        .where('ln.dropped_at', 'is', null)
        .as('deployments'),
    ])
    .where('events.type', '=', CURTAILMENT);
}

type Raw = Awaited<ReturnType<ReturnType<typeof curtailmentQuery>['executeTakeFirstOrThrow']>>;
export interface CurtailmentRow extends EventRow {
  component: AnyCurtailmentComponent;
  real_power_p: number;
  triggered: boolean;
  reason: string | null;
  created_by: number | null;
  orders_sent_at: number | null;
  checked_at: number | null;
  deployments: number;
}

const toRow = (r: Raw): CurtailmentRow => ({
  ...r,
  ...eventTimes(r),
  component: r.component === 'solar' || r.component === 'import' ? r.component : 'grid',
  real_power_p: Number(r.real_power_p),
  triggered: Number(r.triggered) === 1,
  orders_sent_at: num(r.orders_sent_at),
  checked_at: num(r.checked_at),
  deployments: Number(r.deployments ?? 0),
});

/** One curtailment of the organisation (any organisation when `orgId` is null: the engine's view). */
export async function findCurtailment(db: Database, orgId: number | null, id: number): Promise<CurtailmentRow | undefined> {
  let q = curtailmentQuery(db).where('events.id', '=', id);
  if (orgId !== null) q = q.where('events.organisation_id', '=', orgId);
  const r = await q.executeTakeFirst();
  return r ? toRow(r) : undefined;
}

/** The organisation's curtailments, latest start first, a page of them, and how many there are. */
export async function listCurtailments(db: Database, orgId: number, q: { limit: number; offset: number }) {
  const [rows, total] = await Promise.all([
    curtailmentQuery(db)
      .where('events.organisation_id', '=', orgId)
      .orderBy('events.start_time', 'desc')
      .orderBy('events.id', 'desc')
      .limit(q.limit)
      .offset(q.offset)
      .execute(),
    db
      .selectFrom('events')
      .where('events.organisation_id', '=', orgId)
      .where('events.type', '=', CURTAILMENT)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows: rows.map(toRow), total: Number(total.n) };
}

/** A new curtailment's details beside its event. */
/** A curtailment's row; one with a reason is triggered (by a network's OpenADR VTN, with no user). */
export async function insertCurtailment(
  db: Database,
  row: { event_id: number; component: string; real_power_p: number; created_by: number | null; reason: string | null },
): Promise<void> {
  await db
    .insertInto('curtailments')
    .values({ ...row, ...(row.reason ? { triggered: 1 } : {}), orders_sent_at: null, checked_at: null })
    .execute();
}

/** Lines in the nodes' history (one per node) at `ts`. */
export async function logNodeEvents(
  db: Database,
  nodeIds: readonly number[],
  e: { ts: number; description: (nodeId: number) => string; duration: number | null },
) {
  for (let i = 0; i < nodeIds.length; i += 1000)
    await db
      .insertInto('node_events')
      .values(
        nodeIds.slice(i, i + 1000).map((id) => ({
          node_id: id,
          ts: e.ts,
          event_type: CURTAILMENT,
          description: e.description(id),
          duration: e.duration,
        })),
      )
      .execute();
}

/** The curtailment's nodes in id order, a page of them, how many there are, and which of the page accepted their limit. */
export async function curtailmentNodes(db: Database, source: string, q: { limit: number; offset: number }) {
  const [rows, total] = await Promise.all([
    db
      .selectFrom('limit_nodes as ln')
      .innerJoin('nodes', 'nodes.id', 'ln.node_id')
      .select(['nodes.id', 'nodes.nmi', 'nodes.serial_number', 'nodes.street', 'nodes.suburb', 'nodes.state', 'nodes.postcode'])
      .where('ln.source', '=', source)
      .orderBy('nodes.id')
      .limit(q.limit)
      .offset(q.offset)
      .execute(),
    db
      .selectFrom('limit_nodes')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('source', '=', source)
      .executeTakeFirstOrThrow(),
  ]);
  const answers = rows.length
    ? await db
        .selectFrom('node_commands')
        .select('node_id')
        .where('source', '=', source)
        .where(
          'node_id',
          'in',
          rows.map((r) => r.id),
        )
        .where((eb) => eb.or([eb('status', '=', 'ACCEPTED'), eb.and([eb('status', '=', 'CANCELLED'), eb('responded_at', 'is not', null)])]))
        .execute()
    : [];
  return { rows, total: Number(total.n), responded: new Set(answers.map((a) => a.node_id)) };
}

/** The windows each node held a source's limits in: its commands the device accepted, as they ran. */
export async function acceptedWindows(db: Database, source: string) {
  const rows = await db
    .selectFrom('node_commands')
    .select(['node_id', 'start_ts', 'end_ts'])
    .where('source', '=', source)
    .where('status', '=', 'ACCEPTED')
    .execute();
  return rows.map((r) => ({ node_id: r.node_id, start: Number(r.start_ts), end: Number(r.end_ts) }));
}

/** The curtailment's stored settlement, or undefined before it is settled. */
export async function findCurtailmentSettlement(db: Database, id: number) {
  return db.selectFrom('curtailment_settlements').selectAll().where('event_id', '=', id).executeTakeFirst();
}

/** A curtailment (any organisation's) as settlement reads it. */
export async function settlingCurtailment(db: Database, id: number) {
  const e = await db
    .selectFrom('events')
    .innerJoin('curtailments as c', 'c.event_id', 'events.id')
    .select(['events.id', 'events.organisation_id', 'events.start_time', 'events.duration', 'events.cancelled_at', 'c.component'])
    .where('events.id', '=', id)
    .where('events.type', '=', CURTAILMENT)
    .executeTakeFirst();
  return e
    ? {
        id: e.id,
        component: e.component,
        organisation_id: e.organisation_id,
        start_time: Number(e.start_time),
        duration: Number(e.duration),
        cancelled_at: e.cancelled_at === null ? null : Number(e.cancelled_at),
      }
    : undefined;
}

/** Writes a curtailment's settlement keyed by its event, unless one is there: answers whether this call wrote it. */
export async function insertSettlement(
  db: Database,
  row: {
    event_id: number;
    settled_at: number;
    period_start: number;
    period_end: number;
    curtailed_kwh: number;
    credit: number;
    nodes_limited: number;
    nodes_curtailed: number;
  },
): Promise<boolean> {
  const written = await db
    .insertInto('curtailment_settlements')
    .values(row)
    .onConflict((oc) => oc.column('event_id').doNothing())
    .returning('event_id')
    .executeTakeFirst();
  return written !== undefined;
}
