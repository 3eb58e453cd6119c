import type { VppEventState } from '@vpp/shared/events/schemas';
import { sql } from 'kysely';
import { type Database, readInIdPages } from '../../db/database.ts';
import { memberNodes, type PowerstationRow } from '../vpps/index.ts';

/** The columns every kind's query selects of the event and its VPP (joined as `ps`), before its own. */
export const EVENT_COLUMNS = [
  'events.id',
  'events.organisation_id',
  'events.powerstation_id',
  'ps.name as powerstation_name',
  'events.start_time',
  'events.duration',
  'events.cancelled_at',
  'events.created_at',
] as const;

/** An event row's times as numbers (PostgreSQL answers bigint columns as strings). */
export const eventTimes = (r: { start_time: unknown; duration: unknown; cancelled_at: unknown; created_at: unknown }) => ({
  start_time: Number(r.start_time),
  duration: Number(r.duration),
  cancelled_at: r.cancelled_at === null || r.cancelled_at === undefined ? null : Number(r.cancelled_at),
  created_at: Number(r.created_at),
});

/** Events of the organisation (or of one VPP) in a state; INCOMPLETE is upcoming or in progress. Cancelled events are left out. */
export async function listEvents(db: Database, orgId: number, opts: { powerstationId?: number; state?: VppEventState | 'INCOMPLETE'; now: number }) {
  let q = db
    .selectFrom('events')
    .leftJoin('powerstations', 'powerstations.id', 'events.powerstation_id')
    .select(['events.id', 'events.type', 'events.start_time', 'events.duration', 'events.powerstation_id', 'powerstations.name as powerstation_name'])
    .where('events.organisation_id', '=', orgId)
    .where('events.cancelled_at', 'is', null);
  if (opts.powerstationId !== undefined) q = q.where('events.powerstation_id', '=', opts.powerstationId);
  const end = sql<number>`events.start_time + events.duration`;
  if (opts.state === 'INCOMPLETE') q = q.where(end, '>', opts.now);
  else if (opts.state === 'UPCOMING') q = q.where('events.start_time', '>', opts.now);
  else if (opts.state === 'INPROGRESS') q = q.where('events.start_time', '<=', opts.now).where(end, '>', opts.now);
  else if (opts.state === 'COMPLETED') q = q.where(end, '<=', opts.now);
  return q.orderBy('events.start_time').orderBy('events.id').execute();
}

/** A new event's row; answers its id. */
export async function insertEvent(
  db: Database,
  e: { organisation_id: number; powerstation_id: number | null; type: string; start_time: number; duration: number; created_at: number },
): Promise<number> {
  const { id } = await db
    .insertInto('events')
    .values({ ...e, cancelled_at: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** An event's type, when it is one of the organisation's. */
export async function eventType(db: Database, orgId: number, id: number): Promise<string | undefined> {
  const e = await db.selectFrom('events').select('type').where('id', '=', id).where('organisation_id', '=', orgId).executeTakeFirst();
  return e?.type;
}

/**
 * Marks an event cancelled at `now`, unless it already is (or, `upcomingOnly`, has started by
 * `now`): the update's own condition decides, so two cancels racing change it once. Answers whether
 * this call cancelled it.
 */
export async function cancelEvent(db: Database, id: number, now: number, upcomingOnly = false): Promise<boolean> {
  let q = db.updateTable('events').set({ cancelled_at: now }).where('id', '=', id).where('cancelled_at', 'is', null);
  if (upcomingOnly) q = q.where('start_time', '>', now);
  return Number((await q.executeTakeFirst()).numUpdatedRows) === 1;
}

/** Moves an event not cancelled that has not started by `now` to a new window; answers whether it moved. */
export async function moveUpcomingEvent(db: Database, id: number, startTime: number, duration: number, now: number): Promise<boolean> {
  const moved = await db
    .updateTable('events')
    .set({ start_time: startTime, duration })
    .where('id', '=', id)
    .where('cancelled_at', 'is', null)
    .where('start_time', '>', now)
    .executeTakeFirst();
  return Number(moved.numUpdatedRows) === 1;
}

export type AuditAction = 'CREATED' | 'CHANGED' | 'CANCELLED';

/** Records who did what to an event, and when; never changed afterwards. */
export async function audit(db: Database, eventId: number, action: AuditAction, userId: number | null, at: number, detail: string | null = null) {
  await db.insertInto('event_audit').values({ event_id: eventId, action, user_id: userId, at, detail }).execute();
}

/** An event's audit, oldest first, with the names of users still in the organisation. */
export async function auditOf(db: Database, orgId: number, eventId: number) {
  const rows = await db
    .selectFrom('event_audit as a')
    .leftJoin('users as u', (j) => j.onRef('u.id', '=', 'a.user_id').on('u.organisation_id', '=', orgId))
    .select(['a.action', 'a.at', 'a.detail', 'u.given_name', 'u.surname'])
    .where('a.event_id', '=', eventId)
    .orderBy('a.id')
    .execute();
  return rows.map((r) => ({ ...r, at: Number(r.at) }));
}

/**
 * A page (by id, after `after`) of the events of these types whose settled window ended by `endedBy`,
 * with no row in their settlement table and no settlement job queued under `jobPrefix` || id (a job
 * queued, or failed for good, is not asked again).
 */
/** Whether an event's settlement is stored in its kind's table. */
export async function isSettled(db: Database, table: 'dispatch_settlements' | 'curtailment_settlements', id: number): Promise<boolean> {
  const row = await db
    .selectFrom(table as 'dispatch_settlements')
    .select('event_id')
    .where('event_id', '=', id)
    .executeTakeFirst();
  return row !== undefined;
}

export async function unsettledEvents(
  db: Database,
  q: { types: readonly string[]; table: 'dispatch_settlements' | 'curtailment_settlements'; jobPrefix: string; endedBy: number; after: number; limit: number },
) {
  const rows = await db
    .selectFrom('events')
    .leftJoin(`${q.table} as s` as 'dispatch_settlements as s', 's.event_id', 'events.id')
    .select(['events.id', 'events.start_time', 'events.duration', 'events.cancelled_at'])
    .where('events.type', 'in', q.types)
    .where('events.id', '>', q.after)
    .where('s.event_id', 'is', null)
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('jobs').select('jobs.id').where('jobs.unique_key', '=', sql<string>`${q.jobPrefix} || events.id`))),
    )
    .where(
      sql<number>`case when events.cancelled_at is not null and events.cancelled_at < events.start_time + events.duration then events.cancelled_at else events.start_time + events.duration end`,
      '<=',
      q.endedBy,
    )
    .orderBy('events.id')
    .limit(q.limit)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    start_time: Number(r.start_time),
    duration: Number(r.duration),
    cancelled_at: r.cancelled_at === null ? null : Number(r.cancelled_at),
  }));
}

/** The VPP an event is on, as the engines read it (no caller: the event's own organisation's VPP). */
export async function eventPowerstation(db: Database, powerstationId: number | null) {
  if (powerstationId === null) return undefined;
  return db.selectFrom('powerstations').selectAll().where('id', '=', powerstationId).executeTakeFirst();
}

/** What the kinds measure and settle an event's nodes by: region, time zone and battery, per node id. */
export async function nodeFacts(db: Database, ids: readonly number[]) {
  const out = new Map<number, { id: number; region: string; timezone: string; battery_kw: number; battery_usable_kwh: number }>();
  for (let i = 0; i < ids.length; i += 1000)
    for (const r of await db
      .selectFrom('nodes')
      .select(['id', 'region', 'timezone', 'battery_kw', 'battery_usable_kwh'])
      .where('id', 'in', ids.slice(i, i + 1000))
      .execute())
      out.set(r.id, r);
  return out;
}

/** The tables of the kinds whose engines send orders: each keyed by event_id, with when its orders went out. */
export type OrderedTable = 'dispatches' | 'curtailments' | 'grid_outages';
/** Of those, the ones whose engines re-check an event under way once per 5 minutes. */
export type CheckedTable = 'dispatches' | 'curtailments';

/**
 * Events of these types (details in `table`), not cancelled, that start within `leadS` of `now` and
 * have not ended, soonest first; `unsent`: only those whose orders have not gone out. With when
 * their orders went out and, for a checked kind, when they were last checked.
 */
export async function dueEvents(db: Database, q: { types: readonly string[]; table: OrderedTable; now: number; leadS: number; unsent?: boolean }) {
  const checked = q.table !== 'grid_outages';
  return db
    .selectFrom('events')
    .innerJoin(`${q.table} as k` as 'dispatches as k', 'k.event_id', 'events.id')
    .select(['events.id', 'events.start_time', 'k.orders_sent_at'])
    .$if(checked, (qb) => qb.select('k.checked_at'))
    .where('events.type', 'in', q.types)
    .where('events.cancelled_at', 'is', null)
    .$if(q.unsent === true, (qb) => qb.where('k.orders_sent_at', 'is', null))
    .where('events.start_time', '<=', q.now + q.leadS)
    .where(sql<number>`events.start_time + events.duration`, '>', q.now)
    .orderBy('events.start_time')
    .execute();
}

/** Marks an event's orders sent at `now`, once: answers whether this call marked them (a second run, or another process, sends nothing). */
export async function markOrdersSent(db: Database, table: OrderedTable, id: number, now: number): Promise<boolean> {
  const mark = await db
    .updateTable(table as 'dispatches')
    .set({ orders_sent_at: now })
    .where('event_id', '=', id)
    .where('orders_sent_at', 'is', null)
    .executeTakeFirst();
  return Number(mark.numUpdatedRows) === 1;
}

/** Marks an event under way checked in the 5-minute bucket `bucket`, once per bucket: answers whether this call marked it. */
export async function markChecked(db: Database, table: CheckedTable, id: number, bucket: number): Promise<boolean> {
  const mark = await db
    .updateTable(table as 'dispatches')
    .set({ checked_at: bucket })
    .where('event_id', '=', id)
    .where((eb) => eb.or([eb('checked_at', 'is', null), eb('checked_at', '<', bucket)]))
    .executeTakeFirst();
  return Number(mark.numUpdatedRows) === 1;
}

/** A node last heard from longer ago than this is not reporting: it cannot receive an order in time. */
export const REPORTING_WINDOW_S = 900;

/** One member node's equipment and state, as the constraints and the forecast need them. */
export interface NodeStateRow {
  id: number;
  lat: number;
  lng: number;
  region: string;
  timezone: string;
  solar_kw: number;
  inverter_kw: number;
  battery_usable_kwh: number;
  battery_kw: number;
  postcode: string;
  ts: number;
  remaining: number | null;
}

/**
 * The VPP's commissioned member nodes that are reporting (online, a reading within
 * REPORTING_WINDOW_S of `now`), with their equipment and latest stored energy: one query for a VPP of
 * up to PAGE nodes, keyset pages beyond (a covering index, migration 010, serves it).
 */
export async function reportingNodes(db: Database, ps: PowerstationRow, now: number): Promise<NodeStateRow[]> {
  return readInIdPages(async (after, size) => {
    const rows = await reporting(db, ps, now, after)
      .select([
        'nodes.lat',
        'nodes.lng',
        'nodes.region',
        'nodes.timezone',
        'nodes.solar_kw',
        'nodes.inverter_kw',
        'nodes.battery_usable_kwh',
        'nodes.battery_kw',
        'nodes.postcode',
        'l.ts',
        'l.remaining',
      ])
      .orderBy('nodes.id')
      .limit(size)
      .execute();
    return rows.map((r) => ({ ...r, ts: Number(r.ts) }));
  }, PAGE);
}

/** A reporting member node's battery: the constraints need no more. */
export type BatteryRow = Pick<NodeStateRow, 'id' | 'inverter_kw' | 'battery_usable_kwh' | 'battery_kw' | 'remaining'>;

/** The reporting member nodes that have a battery, with its power, usable and stored energy. */
export async function reportingBatteries(db: Database, ps: PowerstationRow, now: number): Promise<BatteryRow[]> {
  return readInIdPages(
    (after, size) =>
      reporting(db, ps, now, after)
        .select(['nodes.inverter_kw', 'nodes.battery_usable_kwh', 'nodes.battery_kw', 'l.remaining'])
        .where('nodes.battery_usable_kwh', '>', 0)
        .where('nodes.battery_kw', '>', 0)
        .orderBy('nodes.id')
        .limit(size)
        .execute(),
    PAGE,
  );
}

/** A VPP of up to this many nodes is read in one query; larger ones in keyset pages. */
const PAGE = 20_000;

/** Commissioned member nodes, online, with a reading within REPORTING_WINDOW_S of `now`, after an id. */
function reporting(db: Database, ps: PowerstationRow, now: number, after: number) {
  return reportingNow(memberNodes(db, ps), now).select('nodes.id').where('nodes.unit_state', '=', 'COMMISSIONED').where('nodes.id', '>', after);
}

/** A query of a VPP's member nodes narrowed to those reporting now: online, their latest reading (`l`) within REPORTING_WINDOW_S of `now`. */
export function reportingNow(members: ReturnType<typeof memberNodes>, now: number) {
  return members
    .innerJoin('tel_latest as l', 'l.node_id', 'nodes.id')
    .where('nodes.connection_offline', '=', 0)
    .where('l.ts', '>=', now - REPORTING_WINDOW_S);
}
