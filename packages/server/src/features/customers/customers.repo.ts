import { type Capability, NO_CAPABILITIES } from '@vpp/shared';
import { type ExpressionBuilder, sql } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { DB } from '../../db/schema.ts';
import { fleetNodes, searchMatches } from '../nodes/index.ts';

// The SQL of customers: the nodes of the organisation's fleet with its agreement and plan for each.

/** The fleet's nodes with this organisation's current agreement (ca) and current plan (cp, p) for each. */
function customers(db: Database, orgId: number) {
  return fleetNodes(db, orgId)
    .leftJoin('customer_agreements as ca', (j) => j.onRef('ca.node_id', '=', 'nodes.id').on('ca.organisation_id', '=', orgId).on('ca.ended_date', 'is', null))
    .leftJoin('customer_plans as cp', (j) => j.onRef('cp.node_id', '=', 'nodes.id').on('cp.organisation_id', '=', orgId).on('cp.end_date', 'is', null))
    .leftJoin('plans as p', 'p.id', 'cp.plan_id');
}
type CustomerQuery = ReturnType<typeof customers>;
type Eb = ExpressionBuilder<
  DB & { ca: DB['customer_agreements']; cp: DB['customer_plans']; p: DB['plans']; fm: DB['fleet_members'] },
  'nodes' | 'ca' | 'cp' | 'p' | 'fm'
>;

/** Held now (see customers.capabilities.ts): commissioned, under an agreement, with the hardware the capability needs. */
function holds(eb: Eb, c: Capability) {
  const base = eb.and([eb('nodes.unit_state', '=', 'COMMISSIONED'), eb('ca.version', 'is not', null)]);
  switch (c) {
    case 'FEED_IN_CURTAILMENT':
      return base;
    case 'BATTERY_DISPATCH':
      return eb.and([base, eb('nodes.battery_kwh', '>', 0)]);
    case 'GRID_OUTAGE_PREPARATION':
      return eb.and([base, eb('nodes.battery_kwh', '>', 0), eb('ca.version', '>=', 2)]);
    case 'SUBMETER_DATA':
      return eb.and([base, eb.exists(eb.selectFrom('submeters').select('submeters.id').whereRef('submeters.node_id', '=', 'nodes.id'))]);
  }
}
/** Every capability needs a commissioned home under an agreement: without those, none. */
const holdsNone = (eb: Eb) => eb.not(holds(eb, 'FEED_IN_CURTAILMENT'));

export interface CustomerFilters {
  search?: string;
  tariff?: number;
  capabilities?: (Capability | typeof NO_CAPABILITIES)[];
}

function filtered(db: Database, orgId: number, f: CustomerFilters): CustomerQuery {
  let q = customers(db, orgId);
  if (f.search?.trim()) q = q.where(searchMatches(f.search));
  if (f.tariff !== undefined) q = q.where('cp.plan_id', '=', f.tariff);
  for (const c of f.capabilities ?? []) q = q.where((eb) => (c === NO_CAPABILITIES ? holdsNone(eb as never) : holds(eb as never, c)));
  return q;
}

const COLUMNS = [
  'nodes.id',
  'nodes.nmi',
  'nodes.street',
  'nodes.suburb',
  'nodes.state',
  'nodes.postcode',
  'nodes.lat',
  'nodes.lng',
  'nodes.timezone',
  'nodes.region',
  'nodes.phases',
  'nodes.solar_kw',
  'nodes.inverter_kw',
  'nodes.battery_kwh',
  'nodes.unit_state',
  'nodes.commissioned_at',
  'nodes.last_contact',
  'ca.version as agreement_version',
  'ca.signed_date as agreement_date',
  'p.id as plan_id',
  'p.name as plan_name',
  'p.plan_code',
  'cp.start_date as plan_since',
] as const;

function withColumns(q: CustomerQuery) {
  return q
    .select(COLUMNS)
    .select((eb) => eb.exists(eb.selectFrom('submeters').select('submeters.id').whereRef('submeters.node_id', '=', 'nodes.id')).as('has_submeters'));
}
export type CustomerRow = Awaited<ReturnType<ReturnType<typeof withColumns>['executeTakeFirstOrThrow']>>;

/** A page of the fleet's customers matching the filters, by NMI, with the total. */
export async function listCustomers(
  db: Database,
  orgId: number,
  f: CustomerFilters,
  limit: number,
  offset: number,
): Promise<{ rows: CustomerRow[]; total: number }> {
  const base = filtered(db, orgId, f);
  // One scan gives the page's ids and (a window count over ids alone) the total; the rows are then read by id.
  const ids = await base
    .select(['nodes.id', sql<number>`count(*) over ()`.as('total_count')])
    .orderBy('nodes.nmi')
    .orderBy('nodes.id')
    .limit(limit)
    .offset(offset)
    .execute();
  const total = ids.length ? Number(ids[0].total_count) : Number((await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  if (!ids.length) return { rows: [], total };
  const rows = await withColumns(customers(db, orgId))
    .where(
      'nodes.id',
      'in',
      ids.map((r) => r.id),
    )
    .orderBy('nodes.nmi')
    .orderBy('nodes.id')
    .execute();
  return { rows, total };
}

/** Customers of the fleet holding no capability now (the list's warning banner). */
export async function countWithoutCapabilities(db: Database, orgId: number): Promise<number> {
  const r = await customers(db, orgId)
    .where((eb) => holdsNone(eb as never))
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** The organisation's customer with this NMI (the latest node holding it); undefined when not in its fleet. */
export async function findCustomer(db: Database, orgId: number, nmi: string): Promise<CustomerRow | undefined> {
  return withColumns(customers(db, orgId)).where(sql<boolean>`upper(nodes.nmi) = ${nmi.toUpperCase()}`).orderBy('nodes.id', 'desc').executeTakeFirst();
}

/** Every agreement of the customer with the organisation, oldest first. */
export function agreementsOf(db: Database, orgId: number, nodeId: number) {
  return db
    .selectFrom('customer_agreements')
    .select(['version', 'signed_date', 'ended_date'])
    .where('organisation_id', '=', orgId)
    .where('node_id', '=', nodeId)
    .orderBy('signed_date')
    .execute();
}

/** The plans the customer has held with the organisation, oldest first, those overlapping [fromDate, toDate) when given. */
export function planHistory(db: Database, orgId: number, nodeId: number, overlapping?: { fromDate: string; toDate: string }) {
  let q = db
    .selectFrom('customer_plans as cp')
    .innerJoin('plans as p', 'p.id', 'cp.plan_id')
    .select(['cp.plan_id', 'cp.start_date', 'cp.end_date', 'p.name'])
    .where('cp.organisation_id', '=', orgId)
    .where('cp.node_id', '=', nodeId);
  if (overlapping)
    q = q.where('cp.start_date', '<', overlapping.toDate).where((eb) => eb.or([eb('cp.end_date', 'is', null), eb('cp.end_date', '>', overlapping.fromDate)]));
  return q.orderBy('cp.start_date').execute();
}

export function submetersOf(db: Database, nodeId: number) {
  return db.selectFrom('submeters').select(['id', 'name']).where('node_id', '=', nodeId).orderBy('id').execute();
}

/** The 5-minute import and export of a node over [start, end), kWh, in time order. */
export async function meteredIntervals(db: Database, nodeId: number, start: number, end: number) {
  const rows = await db
    .selectFrom('tel_5m')
    .select(['ts', 'import_e', 'export_e'])
    .where('node_id', '=', nodeId)
    .where('ts', '>=', start)
    .where('ts', '<', end)
    .where('cov', '>', 0)
    .orderBy('ts')
    .execute();
  return rows.map((r) => ({ ts: Number(r.ts), importKwh: Number(r.import_e ?? 0), exportKwh: Number(r.export_e ?? 0) }));
}

/** Puts a customer on a plan from a date: the plan it held ends that day. */
export async function assignPlan(db: Database, orgId: number, nodeId: number, planId: number, startDate: string) {
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('customer_plans')
      .set({ end_date: startDate })
      .where('organisation_id', '=', orgId)
      .where('node_id', '=', nodeId)
      .where('end_date', 'is', null)
      .execute();
    await trx
      .insertInto('customer_plans')
      .values({ organisation_id: orgId, node_id: nodeId, plan_id: planId, start_date: startDate, end_date: null })
      .execute();
  });
}

/** Records a customer's agreement from a date: the agreement it had ends that day. */
export async function signAgreement(db: Database, orgId: number, nodeId: number, version: number, signedDate: string) {
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('customer_agreements')
      .set({ ended_date: signedDate })
      .where('organisation_id', '=', orgId)
      .where('node_id', '=', nodeId)
      .where('ended_date', 'is', null)
      .execute();
    await trx
      .insertInto('customer_agreements')
      .values({ organisation_id: orgId, node_id: nodeId, version, signed_date: signedDate, ended_date: null })
      .execute();
  });
}
