import { sql } from 'kysely';
import type { Database } from '../../db/database.ts';
import { PRECEDENCE } from '../../devices/index.ts';
import type { TelemetryStore } from '../../telemetry/index.ts';

/** The type of a dispatch's row in `events`. */
export const DISPATCH_EVENT = 'DISPATCH';
/** The type of a RERT dispatch's row: another kind of the same event, on the same engine. */
export const RERT_EVENT = 'RERT';
/** The event types the dispatch engine allocates, sends orders for and settles. */
export const ENGINE_EVENTS: readonly string[] = [DISPATCH_EVENT, RERT_EVENT];

/** One dispatch: its event row, its request and its VPP's name. */
export interface DispatchRow {
  id: number;
  organisation_id: number;
  /** The event's kind: DISPATCH or RERT. */
  type: string;
  powerstation_id: number;
  powerstation_name: string;
  start_time: number;
  duration: number;
  cancelled_at: number | null;
  created_at: number;
  real_power_p: number;
  power_factor: number | null;
  power_factor_lead_lag: string | null;
  strategy: string;
  message_title: string | null;
  customer_message: string | null;
  created_by: number | null;
  creator_given_name: string | null;
  creator_surname: string | null;
  orders_sent_at: number | null;
  checked_at: number | null;
  /** 'AUTOMATIC' for a trading plan's dispatch; null for a person's. */
  origin: string | null;
  deployments: number;
}

function dispatchQuery(db: Database, types: readonly string[] = [DISPATCH_EVENT]) {
  return db
    .selectFrom('events')
    .innerJoin('dispatches as d', 'd.event_id', 'events.id')
    .innerJoin('powerstations as ps', 'ps.id', 'events.powerstation_id')
    .leftJoin('users as u', (j) => j.onRef('u.id', '=', 'd.created_by').onRef('u.organisation_id', '=', 'events.organisation_id'))
    .select((eb) => [
      'events.id',
      'events.organisation_id',
      'events.type',
      'ps.id as powerstation_id',
      'ps.name as powerstation_name',
      'events.start_time',
      'events.duration',
      'events.cancelled_at',
      'events.created_at',
      'd.real_power_p',
      'd.power_factor',
      'd.power_factor_lead_lag',
      'd.strategy',
      'd.message_title',
      'd.customer_message',
      'd.created_by',
      'u.given_name as creator_given_name',
      'u.surname as creator_surname',
      'd.orders_sent_at',
      'd.origin',
      'd.checked_at',
      eb
        .selectFrom('dispatch_nodes as dn')
        .select((e) => e.fn.countAll<number>().as('n'))
        .whereRef('dn.event_id', '=', 'events.id')
        .where('dn.dropped_at', 'is', null)
        .as('deployments'),
    ])
    .where('events.type', 'in', types);
}

// PostgreSQL answers bigint and count columns as strings.
const toRow = (r: Record<string, unknown>): DispatchRow =>
  ({
    ...r,
    start_time: Number(r.start_time),
    duration: Number(r.duration),
    cancelled_at: r.cancelled_at === null ? null : Number(r.cancelled_at),
    created_at: Number(r.created_at),
    orders_sent_at: r.orders_sent_at === null ? null : Number(r.orders_sent_at),
    checked_at: r.checked_at === null ? null : Number(r.checked_at),
    deployments: Number(r.deployments ?? 0),
  }) as DispatchRow;

/** The organisation's dispatches, latest start first (then the longest), a page of them, and how many there are. */
export async function listDispatches(db: Database, orgId: number, limit: number, offset: number, type = DISPATCH_EVENT) {
  const rows = await dispatchQuery(db, [type])
    .where('events.organisation_id', '=', orgId)
    .orderBy('events.start_time', 'desc')
    .orderBy('events.duration', 'desc')
    .orderBy('events.id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
  const total = await db
    .selectFrom('events')
    .select((e) => e.fn.countAll<number>().as('n'))
    .where('organisation_id', '=', orgId)
    .where('type', '=', type)
    .executeTakeFirstOrThrow();
  return { rows: rows.map(toRow), total: Number(total.n) };
}

/** One dispatch of the organisation (any organisation when `orgId` is null: the engine's view) of one of these event types. */
export async function findDispatch(
  db: Database,
  orgId: number | null,
  id: number,
  types: readonly string[] = [DISPATCH_EVENT],
): Promise<DispatchRow | undefined> {
  let q = dispatchQuery(db, types).where('events.id', '=', id);
  if (orgId !== null) q = q.where('events.organisation_id', '=', orgId);
  const row = await q.executeTakeFirst();
  return row ? toRow(row) : undefined;
}

/** The organisation's dispatches not cancelled that are under way at `now` or start by `until`, soonest first. */
export async function activeDispatches(db: Database, orgId: number, now: number, until: number): Promise<DispatchRow[]> {
  const rows = await dispatchQuery(db)
    .where('events.organisation_id', '=', orgId)
    .where('events.cancelled_at', 'is', null)
    .where('events.start_time', '<=', until)
    .where(sql<number>`events.start_time + events.duration`, '>', now)
    .orderBy('events.start_time')
    .orderBy('events.id')
    .limit(500)
    .execute();
  return rows.map(toRow);
}

/** Allocations of these nodes held by dispatches (not cancelled, not dropped, not `exceptId`) during [start, end). */
function heldDuring(db: Database, nodeIds: readonly number[], start: number, end: number, exceptId: number) {
  return db
    .selectFrom('dispatch_nodes as dn')
    .innerJoin('events', 'events.id', 'dn.event_id')
    .where('dn.node_id', 'in', nodeIds)
    .where('dn.dropped_at', 'is', null)
    .where('events.cancelled_at', 'is', null)
    .where('events.id', '!=', exceptId)
    .where('events.start_time', '<', end)
    .where(sql<number>`events.start_time + events.duration`, '>', start);
}

/**
 * A dispatch of the organisation, not cancelled, that has one of these nodes in its allocation and
 * overlaps [start, end). Another organisation's events are never answered here (docs/precedence.md):
 * they stand beside the organisation's own, each node following the one with precedence.
 */
export async function overlapping(
  db: Database,
  orgId: number,
  nodeIds: readonly number[],
  start: number,
  end: number,
  exceptId = 0,
): Promise<number | undefined> {
  for (let i = 0; i < nodeIds.length; i += 1000) {
    const hit = await heldDuring(db, nodeIds.slice(i, i + 1000), start, end, exceptId)
      .where('events.organisation_id', '=', orgId)
      .select('events.id')
      .orderBy('events.start_time')
      .limit(1)
      .executeTakeFirst();
    if (hit) return hit.id;
  }
  return undefined;
}

/** How many nodes the organisation's lockouts (0 kW dispatches, not cancelled) hold at some time in [start, end). */
export async function lockoutNodesDuring(db: Database, orgId: number, start: number, end: number): Promise<number> {
  const r = await db
    .selectFrom('dispatch_nodes as dn')
    .innerJoin('events', 'events.id', 'dn.event_id')
    .innerJoin('dispatches as d', 'd.event_id', 'events.id')
    .select((eb) => eb.fn.count<number>('dn.node_id').distinct().as('n'))
    .where('events.organisation_id', '=', orgId)
    .where('events.cancelled_at', 'is', null)
    .where('dn.dropped_at', 'is', null)
    .where('d.real_power_p', '=', 0)
    .where('events.start_time', '<', end)
    .where(sql<number>`events.start_time + events.duration`, '>', start)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/**
 * Of these nodes, those that during [start, end) follow another event than a dispatch of `orgId`
 * (of precedence `precedence`, id `exceptId`) would be: one of the organisation's own dispatches,
 * a grid outage's reserve (whoever's), or another organisation's dispatch with precedence (a lower
 * rank, or the same rank and given earlier). Split by whose they are, so that a screen can say how
 * many nodes other organisations hold without saying what holds them.
 */
export async function heldNodes(
  db: Database,
  orgId: number,
  precedence: number,
  nodeIds: readonly number[],
  start: number,
  end: number,
  exceptId = 0,
): Promise<{ own: Set<number>; others: Set<number> }> {
  const own = new Set<number>();
  const others = new Set<number>();
  for (let i = 0; i < nodeIds.length; i += 1000) {
    const ids = nodeIds.slice(i, i + 1000);
    const dispatches = await heldDuring(db, ids, start, end, exceptId)
      .innerJoin('organisations as o', 'o.id', 'events.organisation_id')
      .select(['dn.node_id', 'events.id', 'events.organisation_id', 'o.suborg_type'])
      .execute();
    for (const r of dispatches) {
      if (r.organisation_id === orgId) own.add(r.node_id);
      else if (PRECEDENCE[r.suborg_type] < precedence || (PRECEDENCE[r.suborg_type] === precedence && (exceptId === 0 || r.id < exceptId)))
        others.add(r.node_id);
    }
    const outages = await db
      .selectFrom('outage_nodes as g')
      .innerJoin('events', 'events.id', 'g.event_id')
      .select(['g.node_id', 'events.organisation_id'])
      .where('g.node_id', 'in', ids)
      .where('g.opted_out_at', 'is', null)
      .where('events.cancelled_at', 'is', null)
      .where('events.start_time', '<', end)
      .where(sql<number>`events.start_time + events.duration`, '>', start)
      .execute();
    for (const r of outages) (r.organisation_id === orgId ? own : others).add(r.node_id);
  }
  return { own, others };
}

/**
 * Locks these nodes' rows (PostgreSQL) until the transaction ends, in id order so that two
 * transactions never wait on each other crosswise: a dispatch's overlap check and its insert then
 * run one at a time for any two dispatches sharing a node. SQLite needs no lock: its one writer
 * (and the one connection a process holds) already runs such transactions one after the other.
 */
export async function lockNodes(db: Database, nodeIds: readonly number[]): Promise<void> {
  const ids = [...nodeIds].sort((a, b) => a - b);
  for (let i = 0; i < ids.length; i += 1000)
    await db
      .selectFrom('nodes')
      .select('id')
      .where('id', 'in', ids.slice(i, i + 1000))
      .orderBy('id')
      .forUpdate()
      .execute();
}

/** A node's share and orders as stored. */
export interface DispatchNodeInput {
  nodeId: number;
  shareKw: number;
  intervals: { start: number; end: number; kw: number }[];
}

/** Replaces a dispatch's allocation (before its orders go out, a newer allocation supersedes the stored one). */
export async function storeAllocation(db: Database, eventId: number, nodes: readonly DispatchNodeInput[]): Promise<void> {
  await db.deleteFrom('dispatch_nodes').where('event_id', '=', eventId).execute();
  for (let i = 0; i < nodes.length; i += 500)
    await db
      .insertInto('dispatch_nodes')
      .values(
        nodes.slice(i, i + 500).map((n) => ({
          event_id: eventId,
          node_id: n.nodeId,
          share_kw: n.shareKw,
          intervals: JSON.stringify(n.intervals),
          orders_sent_at: null,
          dropped_at: null,
          message_sent_at: null,
          opted_out_at: null,
        })),
      )
      .execute();
}

/** The organisation's previous customer messages, newest first, each text once. */
export async function previousMessages(db: Database, orgId: number, limit = 50, type = DISPATCH_EVENT) {
  const rows = await db
    .selectFrom('events')
    .innerJoin('dispatches as d', 'd.event_id', 'events.id')
    .select(['d.customer_message', 'd.message_title', 'events.created_at'])
    .where('events.organisation_id', '=', orgId)
    .where('events.type', '=', type)
    .where('d.customer_message', 'is not', null)
    .orderBy('events.created_at', 'desc')
    .orderBy('events.id', 'desc')
    .limit(500)
    .execute();
  const seen = new Set<string>();
  const out: { customerMessage: string; title: string; createdAt: number }[] = [];
  for (const r of rows) {
    const text = r.customer_message as string;
    if (seen.has(text)) continue;
    seen.add(text);
    out.push({ customerMessage: text, title: r.message_title ?? '', createdAt: Number(r.created_at) });
    if (out.length >= limit) break;
  }
  return out;
}

/**
 * Of these nodes, those another dispatch of the organisation holds during [start, end). Another
 * organisation's events do not take a node out of an allocation: the node gets the orders and
 * follows, for each window, the event with precedence (devices/devices.commands.ts, docs/precedence.md).
 */
export async function busyNodes(db: Database, orgId: number, nodeIds: readonly number[], start: number, end: number, exceptId: number): Promise<Set<number>> {
  const out = new Set<number>();
  for (let i = 0; i < nodeIds.length; i += 1000) {
    const rows = await heldDuring(db, nodeIds.slice(i, i + 1000), start, end, exceptId)
      .where('events.organisation_id', '=', orgId)
      .select('dn.node_id')
      .execute();
    for (const r of rows) out.add(r.node_id);
  }
  return out;
}

/** Per 5-minute bucket of [from, to), the summed stored energy (kWh) of a dispatch's nodes. */
export async function remainingSums(db: Database, telemetry: TelemetryStore, eventId: number, from: number, to: number): Promise<Map<number, number>> {
  const ids = (await db.selectFrom('dispatch_nodes').select('node_id').where('event_id', '=', eventId).execute()).map((r) => r.node_id);
  const sums = await telemetry.historySums(ids, ['remaining'], from, to, 300);
  return new Map([...sums].flatMap(([ts, b]) => (b.remaining === null ? [] : [[ts, Math.round(b.remaining * 1000) / 1000] as [number, number]])));
}

/** The baseline errors (fractions) of a VPP's dispatches settled since `since` that had undisturbed homes to compare. */
export async function vppBaselineErrors(db: Database, powerstationId: number, since: number): Promise<number[]> {
  const rows = await db
    .selectFrom('dispatch_settlements as s')
    .innerJoin('events as e', 'e.id', 's.event_id')
    .select('s.baseline_error')
    .where('e.powerstation_id', '=', powerstationId)
    .where('s.period_start', '>=', since)
    .where('s.baseline_error', 'is not', null)
    .execute();
  return rows.map((r) => Number(r.baseline_error));
}

/** A RERT dispatch's instruction and contract, or undefined (a dispatch, or a RERT dispatch recorded without them). */
export async function rertActivation(db: Database, eventId: number) {
  const r = await db.selectFrom('rert_activations').selectAll().where('event_id', '=', eventId).executeTakeFirst();
  return r ? { ...r, pre_activated_at: Number(r.pre_activated_at), activated_at: Number(r.activated_at) } : undefined;
}
export type RertActivation = NonNullable<Awaited<ReturnType<typeof rertActivation>>>;

/** Records a RERT dispatch's instruction and contract. */
export async function storeRertActivation(db: Database, row: RertActivation): Promise<void> {
  await db.insertInto('rert_activations').values(row).execute();
}

/** A new dispatch's details beside its event. */
export async function insertDispatch(
  db: Database,
  row: {
    event_id: number;
    real_power_p: number;
    power_factor: number | null;
    power_factor_lead_lag: string | null;
    strategy: string;
    message_title: string | null;
    customer_message: string | null;
    created_by: number;
    origin: string | null;
  },
): Promise<void> {
  await db
    .insertInto('dispatches')
    .values({ ...row, orders_sent_at: null, checked_at: null })
    .execute();
}

/** A node's part in a dispatch or RERT dispatch, as its customer's app may act on it (issue 34 item 12). */
export async function appDispatchNode(db: Database, eventId: number, nodeId: number) {
  return db
    .selectFrom('dispatch_nodes as dn')
    .innerJoin('events as e', 'e.id', 'dn.event_id')
    .select(['e.start_time', 'e.duration', 'e.cancelled_at', 'dn.message_sent_at', 'dn.opted_out_at'])
    .where('dn.event_id', '=', eventId)
    .where('dn.node_id', '=', nodeId)
    .where('e.type', 'in', [...ENGINE_EVENTS])
    .executeTakeFirst();
}

/** Records a customer's opt-out (the first stands); true when this call recorded it. */
export async function markOptedOut(db: Database, eventId: number, nodeId: number, at: number): Promise<boolean> {
  const done = await db
    .updateTable('dispatch_nodes')
    .set({ opted_out_at: at })
    .where('event_id', '=', eventId)
    .where('node_id', '=', nodeId)
    .where('opted_out_at', 'is', null)
    .executeTakeFirst();
  return Number(done.numUpdatedRows) === 1;
}
