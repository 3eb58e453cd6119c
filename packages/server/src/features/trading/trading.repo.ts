import type { Selectable } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { TradingPlanTable, TradingPolicyTable } from './trading.tables.ts';

export type PolicyRow = Selectable<TradingPolicyTable>;
export type PlanRow = Selectable<TradingPlanTable>;

export async function findPolicy(db: Database, powerstationId: number): Promise<PolicyRow | undefined> {
  return db.selectFrom('trading_policies').selectAll().where('powerstation_id', '=', powerstationId).executeTakeFirst();
}

/** Every automatic policy, with its VPP's organisation: what the planning job walks. */
export async function automaticPolicies(db: Database): Promise<PolicyRow[]> {
  return db.selectFrom('trading_policies').selectAll().where('mode', '=', 'AUTOMATIC').orderBy('powerstation_id').execute();
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
