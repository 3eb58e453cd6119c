import { OPERATIONAL_NETWORKS } from '@vpp/shared/customers/networks';
import type { PlanSort, PlanType } from '@vpp/shared/plans/constants';
import type { PlanListQuery, PlanPrices } from '@vpp/shared/plans/schemas';
import type { Selectable } from 'kysely';
import { sql } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { PlanTable } from './plans.tables.ts';
import './plans.tables.ts';

// The SQL of plans, always scoped to the organisation.

/** What makes two names or codes the same: case and runs of spaces do not count. */
export const keyOf = (text: string) => text.trim().toLowerCase().replace(/\s+/g, ' ');

/** A plan's prices as stored in a version row (the start date is the row's). */
export type StoredPrices = Omit<PlanPrices, 'startDate'>;

/** The network's name from its uid, in SQL (for the list's sort by network). */
const networkName = sql<string>`case plans.operational_network_uid ${sql.join(
  OPERATIONAL_NETWORKS.map((n) => sql`when ${n.uid} then ${n.name}`),
  sql` `,
)} else plans.operational_network_uid end`;

/** Customers on a plan now. */
const customersCount = sql<number>`(select count(*) from customer_plans cp where cp.plan_id = plans.id and cp.end_date is null)`;

/** A page of the organisation's plans matching the filters, sorted, with the total. */
export type PlanListFilters = Omit<PlanListQuery, 'sort' | 'order' | 'limit' | 'offset'> &
  Required<{ sort: PlanSort; order: 'asc' | 'desc'; limit: number; offset: number }>;

export async function listPlans(db: Database, orgId: number, q: PlanListFilters) {
  let base = db.selectFrom('plans').where('plans.organisation_id', '=', orgId);
  if (q.network) base = base.where('plans.operational_network_uid', '=', q.network);
  if (q.tariffType) base = base.where('plans.tariff_type', '=', q.tariffType);
  if (q.search) {
    const pattern = `%${keyOf(q.search).replace(/[%_\\]/g, (c) => `\\${c}`)}%`;
    base = base.where(sql<boolean>`(plans.name_key like ${pattern} escape '\\' or plans.code_key like ${pattern} escape '\\')`);
  }
  const dir = q.order === 'desc' ? sql`desc` : sql`asc`;
  const key = { name: sql`plans.name_key`, type: sql`plans.tariff_type`, network: networkName, customers: customersCount }[q.sort];
  const rows = await base
    .selectAll('plans')
    .select([customersCount.as('customers_count'), sql<number>`count(*) over ()`.as('total_count')])
    // Ties break by name, then id: a page is the same each time it is asked for.
    .orderBy(sql`${key} ${dir}`)
    .orderBy('plans.name_key')
    .orderBy('plans.id')
    .limit(q.limit)
    .offset(q.offset)
    .execute();
  const total = rows.length ? Number(rows[0].total_count) : Number((await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  return { rows: rows.map((r) => ({ ...r, customers_count: Number(r.customers_count) })), total };
}

export type PlanRow = Selectable<PlanTable> & { customers_count: number };
export interface VersionRow {
  start_date: string;
  prices: StoredPrices;
}

/** One plan of the organisation, by uid or by code, with its versions (oldest first); undefined when not theirs. */
export async function findPlan(
  db: Database,
  orgId: number,
  by: { id: number } | { code: string },
): Promise<{ plan: PlanRow; versions: VersionRow[] } | undefined> {
  let q = db.selectFrom('plans').selectAll('plans').select(customersCount.as('customers_count')).where('plans.organisation_id', '=', orgId);
  q = 'id' in by ? q.where('plans.id', '=', by.id) : q.where('plans.code_key', '=', keyOf(by.code));
  const plan = await q.executeTakeFirst();
  if (!plan) return undefined;
  const versions = await planVersions(db, [plan.id]);
  return { plan: { ...plan, customers_count: Number(plan.customers_count) }, versions: versions.get(plan.id) ?? [] };
}

/** The versions of plans, oldest first. */
export async function planVersions(db: Database, planIds: readonly number[]): Promise<Map<number, VersionRow[]>> {
  const out = new Map<number, VersionRow[]>();
  if (!planIds.length) return out;
  const rows = await db.selectFrom('plan_versions').select(['plan_id', 'start_date', 'prices']).where('plan_id', 'in', planIds).orderBy('start_date').execute();
  for (const r of rows) {
    const list = out.get(r.plan_id) ?? [];
    list.push({ start_date: r.start_date, prices: JSON.parse(r.prices) as StoredPrices });
    out.set(r.plan_id, list);
  }
  return out;
}

/** Which of the name and code another plan of the organisation already has. */
export async function duplicates(db: Database, orgId: number, name: string, code: string, exceptId?: number) {
  let q = db
    .selectFrom('plans')
    .select(['name_key', 'code_key'])
    .where('organisation_id', '=', orgId)
    .where((eb) => eb.or([eb('name_key', '=', keyOf(name)), eb('code_key', '=', keyOf(code))]));
  if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
  const rows = await q.execute();
  return { name: rows.some((r) => r.name_key === keyOf(name)), code: rows.some((r) => r.code_key === keyOf(code)) };
}

export interface PlanFields {
  name: string;
  planCode: string;
  description: string;
  operationalNetworkUid: string;
}

const planColumns = (f: PlanFields, latest: PlanPrices) => ({
  name: f.name.trim(),
  name_key: keyOf(f.name),
  plan_code: f.planCode.trim(),
  code_key: keyOf(f.planCode),
  description: f.description,
  operational_network_uid: f.operationalNetworkUid,
  tariff_type: latest.tariffType as PlanType,
  start_date: latest.startDate,
});

const stored = (p: PlanPrices): string => {
  const { startDate: _, ...rest } = p;
  return JSON.stringify(rest);
};

/** Inserts a plan and its first version. */
export async function insertPlan(db: Database, orgId: number, f: PlanFields, prices: PlanPrices, now: number): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const { id } = await trx
      .insertInto('plans')
      .values({ organisation_id: orgId, ...planColumns(f, prices), created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('plan_versions')
      .values({ plan_id: id, start_date: prices.startDate, prices: stored(prices), created_at: now })
      .execute();
    return id;
  });
}

/**
 * Saves a plan's fields and its versions as decided by the service: the versions given replace the
 * plan's (oldest first; the last is the latest).
 */
export async function updatePlan(db: Database, id: number, f: PlanFields, versions: readonly PlanPrices[], now: number): Promise<void> {
  const latest = versions[versions.length - 1];
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('plans')
      .set({ ...planColumns(f, latest), updated_at: now })
      .where('id', '=', id)
      .execute();
    await trx.deleteFrom('plan_versions').where('plan_id', '=', id).execute();
    await trx
      .insertInto('plan_versions')
      .values(versions.map((v) => ({ plan_id: id, start_date: v.startDate, prices: stored(v), created_at: now })))
      .execute();
  });
}

/** The nodes (NMI and state) of the plan's current customers. */
export async function planCustomerNodes(db: Database, planId: number) {
  return db
    .selectFrom('customer_plans as cp')
    .innerJoin('nodes', 'nodes.id', 'cp.node_id')
    .select(['nodes.id', 'nodes.nmi', 'nodes.state'])
    .where('cp.plan_id', '=', planId)
    .where('cp.end_date', 'is', null)
    .execute();
}

/** The plans a customer of the network could be on: the demo enrols its customers on one. */
export async function plansOfNetwork(db: Database, orgId: number, networkUid: string) {
  return db
    .selectFrom('plans')
    .select([
      'id',
      (eb) =>
        eb
          .selectFrom('plan_versions')
          .select((v) => v.fn.min<string>('start_date').as('s'))
          .whereRef('plan_id', '=', 'plans.id')
          .as('first_start'),
    ])
    .where('organisation_id', '=', orgId)
    .where('operational_network_uid', '=', networkUid)
    .orderBy('id')
    .execute();
}
