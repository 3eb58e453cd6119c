import { CUSTOMER_MESSAGES } from '@vpp/shared/customers/messages';
import { networkOfNmi, operationalNetwork, outsideNem } from '@vpp/shared/customers/networks';
import { type Capability, NO_CAPABILITIES } from '@vpp/shared/customers/schemas';
import { type ExpressionBuilder, sql } from 'kysely';
import { type Database, nowS } from '../../db/database.ts';
import type { DB } from '../../db/schema.ts';
import { badRequest } from '../../platform/errors.ts';
import type { TelemetryStore } from '../../telemetry/index.ts';
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
  const base = eb.and([eb('nodes.unit_state', '=', 'COMMISSIONED'), eb('nodes.commissioned_at', 'is not', null), eb('ca.version', 'is not', null)]);
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

/**
 * The fleet's nodes matching the filters, joined to agreements and plans only when a filter needs
 * them: a page and its total are read over tens of thousands of customers, and each join costs a
 * lookup per row.
 */
function filtered(db: Database, orgId: number, f: CustomerFilters): CustomerQuery {
  const joined = f.tariff !== undefined || !!f.capabilities?.length;
  let q = joined ? customers(db, orgId) : (fleetNodes(db, orgId) as unknown as CustomerQuery);
  if (f.search?.trim()) q = q.where(searchMatches(f.search, orgId));
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
  const unfiltered = !f.search?.trim() && f.tariff === undefined && !f.capabilities?.length;
  const page = base.select('nodes.id').orderBy('nodes.nmi').orderBy('nodes.id').limit(limit).offset(offset);
  let ids: number[];
  let total: number;
  if (unfiltered) {
    // The whole fleet: its size from the membership index alone, the page apart.
    const count = db
      .selectFrom('fleet_members')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('organisation_id', '=', orgId);
    const [rows, n] = await Promise.all([page.execute(), count.executeTakeFirstOrThrow()]);
    ids = rows.map((r) => r.id);
    total = Number(n.n);
  } else {
    // One scan of the matches gives the page's ids and (a window count) the total.
    const rows = await page.select(sql<number>`count(*) over ()`.as('total_count')).execute();
    ids = rows.map((r) => r.id);
    total = rows.length ? Number(rows[0].total_count) : Number((await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  }
  if (!ids.length) return { rows: [], total };
  const rows = await withColumns(customers(db, orgId)).where('nodes.id', 'in', ids).orderBy('nodes.nmi').orderBy('nodes.id').execute();
  return { rows, total };
}

/**
 * The banner's count spans the whole fleet and every page of the list shows it: it is read at most
 * once a minute per organisation and database, and again after an agreement is signed here.
 */
const BANNER_TTL_S = 60;
const bannerCounts = new WeakMap<Database, Map<number, { at: number; n: number }>>();

/** Customers of the fleet holding no capability now (the list's warning banner): the fleet less those commissioned under an agreement. */
export async function countWithoutCapabilities(db: Database, orgId: number, now = nowS()): Promise<number> {
  let byOrg = bannerCounts.get(db);
  if (!byOrg) {
    byOrg = new Map();
    bannerCounts.set(db, byOrg);
  }
  const hit = byOrg.get(orgId);
  if (hit && now - hit.at < BANNER_TTL_S && hit.at <= now) return hit.n;
  const [fleet, capable] = await Promise.all([
    db
      .selectFrom('fleet_members')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('organisation_id', '=', orgId)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('customer_agreements as ca')
      .innerJoin('nodes', (j) => j.onRef('nodes.id', '=', 'ca.node_id').on('nodes.unit_state', '=', 'COMMISSIONED').on('nodes.commissioned_at', 'is not', null))
      .innerJoin('fleet_members as fm', (j) => j.onRef('fm.node_id', '=', 'ca.node_id').on('fm.organisation_id', '=', orgId))
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('ca.organisation_id', '=', orgId)
      .where('ca.ended_date', 'is', null)
      .executeTakeFirstOrThrow(),
  ]);
  const n = Number(fleet.n) - Number(capable.n);
  byOrg.set(orgId, { at: now, n });
  return n;
}

/** The organisation's customer with this NMI (the latest node holding it); undefined when not in its fleet. */
export async function findCustomer(db: Database, orgId: number, nmi: string): Promise<CustomerRow | undefined> {
  // NMIs are stored in capitals: the index on them finds the home.
  return withColumns(customers(db, orgId)).where('nodes.nmi', '=', nmi.toUpperCase()).orderBy('nodes.id', 'desc').executeTakeFirst();
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
export async function meteredIntervals(telemetry: TelemetryStore, nodeId: number, start: number, end: number) {
  const rows = await telemetry.historyRows([nodeId], ['import_e', 'export_e'], start, end);
  return rows.map((r) => ({ ts: r.ts, importKwh: r.import_e ?? 0, exportKwh: r.export_e ?? 0 }));
}

/**
 * Puts a customer on a plan from a date: the plan it held ends that day. The plan must be for the
 * home's distribution network (from its NMI and state), otherwise a 400 says which; a home outside
 * the NEM (WA, NT) is refused with why.
 */
export async function assignPlan(db: Database, orgId: number, nodeId: number, planId: number, startDate: string) {
  const home = await db.selectFrom('nodes').select(['nmi', 'state']).where('id', '=', nodeId).executeTakeFirstOrThrow();
  const plan = await db
    .selectFrom('plans')
    .select('operational_network_uid')
    .where('id', '=', planId)
    .where('organisation_id', '=', orgId)
    .executeTakeFirstOrThrow();
  const network = networkOfNmi(home.nmi, home.state);
  // Issue 33 item 8: a home outside the NEM (WA, NT) is not offered a NEM retail plan.
  const outside = network && outsideNem(network);
  if (outside) throw badRequest(outside);
  if (network?.uid !== plan.operational_network_uid)
    throw badRequest(
      CUSTOMER_MESSAGES.planNetworkMismatch(
        operationalNetwork(plan.operational_network_uid)?.name ?? plan.operational_network_uid,
        network?.name ?? 'no known network',
      ),
    );
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
  bannerCounts.get(db)?.delete(orgId);
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

/**
 * The organisation's new customers: homes of its fleet whose first agreement with it was signed on
 * or after `sinceDate` (YYYY-MM-DD, the dates agreements are signed on).
 */
export async function newCustomerCount(db: Database, orgId: number, sinceDate: string): Promise<number> {
  const r = await db
    .selectFrom((eb) =>
      eb
        .selectFrom('customer_agreements as a')
        .innerJoin('fleet_members as fm', (j) => j.onRef('fm.node_id', '=', 'a.node_id').on('fm.organisation_id', '=', orgId))
        .select('a.node_id')
        .where('a.organisation_id', '=', orgId)
        .groupBy('a.node_id')
        .having((h) => h.fn.min('a.signed_date'), '>=', sinceDate)
        .as('n'),
    )
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(r.count);
}

/**
 * The grid credits of one customer (NMI) from this organisation's settled events whose items fall
 * on the local days [fromDate, toDate] and start before `before` (epoch seconds), by day then event.
 */
export async function gridCredits(db: Database, orgId: number, nmi: string, fromDate: string, toDate: string, before: number) {
  const rows = await db
    .selectFrom('billing_items')
    .select(['event_kind', 'event_id', 'day', 'type', 'amount', 'rate', 'cost_cents'])
    .where('organisation_id', '=', orgId)
    .where('nmi', '=', nmi)
    .where('day', '>=', fromDate)
    .where('day', '<=', toDate)
    .where('ts', '<', before)
    .orderBy('day')
    .orderBy('event_id')
    .execute();
  return rows.map((r) => ({ ...r, amount: Number(r.amount), rate: Number(r.rate), cost_cents: Number(r.cost_cents) }));
}

/** Each node with each organisation whose fleet holds it, and that organisation's type (the demo's enrolment). */
export function nodesWithTheirFleets(db: Database, ids: readonly number[]) {
  return db
    .selectFrom('nodes')
    .innerJoin('fleet_members as fm', 'fm.node_id', 'nodes.id')
    .innerJoin('organisations as o', 'o.id', 'fm.organisation_id')
    .select(['nodes.id', 'nodes.nmi', 'nodes.state', 'nodes.timezone', 'nodes.commissioned_at', 'nodes.created_at', 'fm.organisation_id', 'o.suborg_type'])
    .where('nodes.id', 'in', ids)
    .execute();
}

/** Writes customers' agreements and plans as they are (the demo's history). */
export async function insertEnrolments(
  db: Database,
  agreements: { organisation_id: number; node_id: number; version: number; signed_date: string; ended_date: string | null }[],
  plans: { organisation_id: number; node_id: number; plan_id: number; start_date: string; end_date: null }[],
) {
  if (agreements.length) await db.insertInto('customer_agreements').values(agreements).execute();
  if (plans.length) await db.insertInto('customer_plans').values(plans).execute();
}
