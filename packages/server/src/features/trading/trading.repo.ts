import { type Selectable, sql } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { PowerstationRow } from '../vpps/index.ts';
import type { TradingBacktestTable, TradingPlanTable, TradingPolicyTable } from './trading.tables.ts';

export type PolicyRow = Selectable<TradingPolicyTable>;
export type PlanRow = Selectable<TradingPlanTable>;

export async function findPowerstation(db: Database, id: number): Promise<PowerstationRow | undefined> {
  return db.selectFrom('powerstations').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findPolicy(db: Database, powerstationId: number): Promise<PolicyRow | undefined> {
  return db.selectFrom('trading_policies').selectAll().where('powerstation_id', '=', powerstationId).executeTakeFirst();
}

/** Every automatic policy with its VPP, in one query: what the planning job walks. */
export async function automaticPolicies(db: Database): Promise<{ policy: PolicyRow; ps: PowerstationRow }[]> {
  const rows = await db
    .selectFrom('trading_policies as t')
    .innerJoin('powerstations as p', 'p.id', 't.powerstation_id')
    .selectAll('t')
    .select([
      'p.name as ps_name',
      'p.type as ps_type',
      'p.state as ps_state',
      'p.duid as ps_duid',
      'p.created_at as ps_created_at',
      'p.updated_at as ps_updated_at',
      'p.organisation_id as ps_organisation_id',
    ])
    .where('t.mode', '=', 'AUTOMATIC')
    .orderBy('t.powerstation_id')
    .execute();
  return rows.map(({ ps_name, ps_type, ps_state, ps_duid, ps_created_at, ps_updated_at, ps_organisation_id, ...policy }) => ({
    policy,
    ps: {
      id: policy.powerstation_id,
      organisation_id: ps_organisation_id,
      name: ps_name,
      type: ps_type,
      state: ps_state,
      duid: ps_duid,
      created_at: ps_created_at,
      updated_at: ps_updated_at,
    },
  }));
}

/** A user's name as the page shows who set a policy; undefined when the user is gone. */
export async function userName(db: Database, id: number): Promise<string | undefined> {
  const u = await db.selectFrom('users').select(['given_name', 'surname']).where('id', '=', id).executeTakeFirst();
  return u ? `${u.given_name} ${u.surname}`.trim() : undefined;
}

/** The user of this name and the VPP of this name in an organisation (the demo's trading VPP and its operator). */
export async function demoVppAndUser(db: Database, orgId: number, vppName: string, username: string) {
  const user = await db.selectFrom('users').select('id').where('username', '=', username).executeTakeFirst();
  const vpp = await db.selectFrom('powerstations').select('id').where('organisation_id', '=', orgId).where('name', '=', vppName).executeTakeFirst();
  return user && vpp ? { userId: user.id, vppId: vpp.id } : undefined;
}

/** The kind of an organisation (NETWORK, RETAILER, INSTALLER): the rank of its events on shared homes. */
export async function organisationType(db: Database, orgId: number): Promise<string | undefined> {
  return (await db.selectFrom('organisations').select('suborg_type').where('id', '=', orgId).executeTakeFirst())?.suborg_type;
}

/** A standing event of another VPP (any organisation's) on some of these homes: a dispatch's allocation or a grid outage's. */
export interface HeldNode {
  nodeId: number;
  start: number;
  end: number;
  organisationId: number;
  /** The organisation's kind; null for a grid outage, which binds whoever's it is. */
  organisationType: string | null;
}

/**
 * The homes among `nodeIds` that another VPP's events (not cancelled, in [from, to)) hold: dispatch
 * and RERT allocations not dropped, and grid outages not opted out of (docs/precedence.md).
 */
export async function heldElsewhere(db: Database, powerstationId: number, nodeIds: readonly number[], from: number, to: number): Promise<HeldNode[]> {
  const out: HeldNode[] = [];
  for (let i = 0; i < nodeIds.length; i += 1000) {
    const ids = nodeIds.slice(i, i + 1000);
    const dispatched = await db
      .selectFrom('dispatch_nodes as dn')
      .innerJoin('events', 'events.id', 'dn.event_id')
      .innerJoin('organisations as o', 'o.id', 'events.organisation_id')
      .select(['dn.node_id', 'events.start_time', 'events.duration', 'events.organisation_id', 'o.suborg_type'])
      .where('dn.node_id', 'in', ids)
      .where('dn.dropped_at', 'is', null)
      .where('events.cancelled_at', 'is', null)
      .where((eb) => eb.or([eb('events.powerstation_id', '!=', powerstationId), eb('events.powerstation_id', 'is', null)]))
      .where('events.start_time', '<', to)
      .where(sql<number>`events.start_time + events.duration`, '>', from)
      .execute();
    for (const r of dispatched)
      out.push({ nodeId: r.node_id, start: r.start_time, end: r.start_time + r.duration, organisationId: r.organisation_id, organisationType: r.suborg_type });
    const outages = await db
      .selectFrom('outage_nodes as g')
      .innerJoin('events', 'events.id', 'g.event_id')
      .select(['g.node_id', 'events.start_time', 'events.duration', 'events.organisation_id'])
      .where('g.node_id', 'in', ids)
      .where('g.opted_out_at', 'is', null)
      .where('events.cancelled_at', 'is', null)
      .where((eb) => eb.or([eb('events.powerstation_id', '!=', powerstationId), eb('events.powerstation_id', 'is', null)]))
      .where('events.start_time', '<', to)
      .where(sql<number>`events.start_time + events.duration`, '>', from)
      .execute();
    for (const r of outages)
      out.push({ nodeId: r.node_id, start: r.start_time, end: r.start_time + r.duration, organisationId: r.organisation_id, organisationType: null });
  }
  return out;
}

/** The location and equipment of these homes, as the console's forecast of their solar and load needs them. */
export async function modelNodes(db: Database, ids: readonly number[]) {
  const out = [];
  for (let i = 0; i < ids.length; i += 1000)
    out.push(
      ...(await db
        .selectFrom('nodes')
        .select(['id', 'lat', 'lng', 'postcode', 'timezone', 'solar_kw', 'inverter_kw'])
        .where('id', 'in', ids.slice(i, i + 1000))
        .orderBy('id')
        .execute()),
    );
  return out;
}

export async function savePolicy(db: Database, row: PolicyRow): Promise<void> {
  const { powerstation_id, ...rest } = row;
  await db
    .insertInto('trading_policies')
    .values(row)
    .onConflict((oc) => oc.column('powerstation_id').doUpdateSet(rest))
    .execute();
}

export async function markPlanned(db: Database, powerstationId: number, plannedAt: number | null, suspended: string | null): Promise<void> {
  const set = plannedAt === null ? { suspended } : { planned_at: plannedAt, suspended };
  await db.updateTable('trading_policies').set(set).where('powerstation_id', '=', powerstationId).execute();
}

/** Replaces the plan from `from` on with these intervals (in one transaction: a reader never sees half a plan). */
export async function replacePlan(db: Database, powerstationId: number, from: number, rows: readonly Omit<PlanRow, 'powerstation_id'>[]): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('trading_plan').where('powerstation_id', '=', powerstationId).where('interval_start', '>=', from).execute();
    for (let i = 0; i < rows.length; i += 200)
      await trx
        .insertInto('trading_plan')
        .values(rows.slice(i, i + 200).map((r) => ({ ...r, powerstation_id: powerstationId })))
        .execute();
  });
}

export async function planRows(db: Database, powerstationId: number, from: number, to: number): Promise<PlanRow[]> {
  return db
    .selectFrom('trading_plan')
    .selectAll()
    .where('powerstation_id', '=', powerstationId)
    .where('interval_start', '>=', from)
    .where('interval_start', '<', to)
    .orderBy('interval_start')
    .execute();
}

/** Plan rows older than this are of no more use (the page shows the last day). */
export async function prunePlan(db: Database, before: number): Promise<void> {
  await db.deleteFrom('trading_plan').where('interval_start', '<', before).execute();
}

/** The VPP's events standing in [from, to), cancelled ones left out: the plan works around them. */
export async function standingEvents(db: Database, powerstationId: number, from: number, to: number) {
  return db
    .selectFrom('events')
    .leftJoin('dispatches as d', 'd.event_id', 'events.id')
    .select(['events.id', 'events.type', 'events.start_time', 'events.duration', 'd.real_power_p', 'd.origin'])
    .where('events.powerstation_id', '=', powerstationId)
    .where('events.cancelled_at', 'is', null)
    .where('events.start_time', '<', to)
    .where((eb) => eb(eb('events.start_time', '+', eb.ref('events.duration')), '>', from))
    .orderBy('events.start_time')
    .execute();
}

/** The VPP's automatic dispatches not yet over at `now` and not cancelled. */
export async function liveAutomaticDispatches(db: Database, powerstationId: number, now: number) {
  return db
    .selectFrom('events')
    .innerJoin('dispatches as d', 'd.event_id', 'events.id')
    .select(['events.id', 'events.start_time', 'events.duration', 'd.real_power_p'])
    .where('events.powerstation_id', '=', powerstationId)
    .where('d.origin', '=', 'AUTOMATIC')
    .where('events.cancelled_at', 'is', null)
    .where((eb) => eb(eb('events.start_time', '+', eb.ref('events.duration')), '>', now))
    .orderBy('events.start_time')
    .execute();
}

/** The VPP's automatic dispatches that ran in [from, to). */
export async function automaticDispatchesIn(db: Database, powerstationId: number, from: number, to: number) {
  return db
    .selectFrom('events')
    .innerJoin('dispatches as d', 'd.event_id', 'events.id')
    .select(['events.id', 'events.start_time', 'events.duration', 'events.cancelled_at', 'd.real_power_p'])
    .where('events.powerstation_id', '=', powerstationId)
    .where('d.origin', '=', 'AUTOMATIC')
    .where('events.start_time', '<', to)
    .where((eb) => eb(eb('events.start_time', '+', eb.ref('events.duration')), '>', from))
    .orderBy('events.start_time')
    .execute();
}

export type BacktestRow = Selectable<TradingBacktestTable>;

/** Adds a backtest (RUNNING, nothing done yet) and answers its id. */
export async function insertBacktest(db: Database, row: Omit<BacktestRow, 'id' | 'status' | 'progress' | 'result' | 'error' | 'finished_at'>): Promise<number> {
  const r = await db
    .insertInto('trading_backtests')
    .values({ ...row, status: 'RUNNING', progress: 0, result: null, error: null, finished_at: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  return r.id;
}

export async function findBacktest(db: Database, id: number): Promise<BacktestRow | undefined> {
  return db.selectFrom('trading_backtests').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Whether one of the VPP's backtests is running. */
export async function backtestRunning(db: Database, powerstationId: number): Promise<boolean> {
  const r = await db
    .selectFrom('trading_backtests')
    .select('id')
    .where('powerstation_id', '=', powerstationId)
    .where('status', '=', 'RUNNING')
    .executeTakeFirst();
  return r !== undefined;
}

/** The VPP's newest backtests, with the name of whoever asked for each. */
export async function listBacktests(db: Database, powerstationId: number, limit: number) {
  return db
    .selectFrom('trading_backtests as b')
    .leftJoin('users as u', 'u.id', 'b.requested_by')
    .selectAll('b')
    .select(['u.given_name', 'u.surname'])
    .where('b.powerstation_id', '=', powerstationId)
    .orderBy('b.id', 'desc')
    .limit(limit)
    .execute();
}

export async function updateBacktest(
  db: Database,
  id: number,
  set: Partial<Pick<BacktestRow, 'status' | 'progress' | 'result' | 'error' | 'finished_at'>>,
): Promise<void> {
  await db.updateTable('trading_backtests').set(set).where('id', '=', id).execute();
}

/** Of these dispatches, those settled. */
export async function settledIds(db: Database, ids: readonly number[]): Promise<Set<number>> {
  if (!ids.length) return new Set();
  const rows = await db.selectFrom('dispatch_settlements').select('event_id').where('event_id', 'in', ids).execute();
  return new Set(rows.map((r) => r.event_id));
}
