import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { VppNodeFilter } from '@vpp/shared/vpps/schemas';
import { type ExpressionBuilder, PostgresAdapter, type Selectable, sql } from 'kysely';
import { type Database, nowS, readInIdPages, timeWindows } from '../../db/database.ts';
import type { DB } from '../../db/schema.ts';
import { crashPoint } from '../../platform/crash-points.ts';
import type { FleetColumn, TelemetryStore } from '../../telemetry/index.ts';
import { fleetNodes, type NodeRow, searchMatches } from '../nodes/index.ts';
import type { PowerstationTable } from './vpps.tables.ts';

export type PowerstationRow = Selectable<PowerstationTable>;
type Db = Database;

const addressText = sql<string>`nodes.street || ' ' || nodes.suburb || ' ' || nodes.state || ' ' || nodes.postcode`;

/** Narrows a query over organisation `orgId`'s fleet (`fleetNodes`) by search text, address text and unit state. */
// biome-ignore lint/suspicious/noExplicitAny: the helper serves several Kysely query shapes over nodes
function applyFilter<Q extends { where: (...args: any[]) => Q }>(query: Q, orgId: number, filter: VppNodeFilter): Q {
  let q = query;
  if (filter.f) q = q.where(searchMatches(filter.f, orgId));
  if (filter.address_filter) {
    const pattern = `%${filter.address_filter.toLowerCase().replace(/[%_\\]/g, (c) => `\\${c}`)}%`;
    q = q.where(sql<boolean>`lower(${addressText}) like ${pattern} escape '\\'`);
  }
  if (filter.deployment_state) q = q.where('nodes.unit_state', '=', filter.deployment_state);
  return q;
}

export async function findPowerstation(db: Db, orgId: number, id: number): Promise<PowerstationRow | undefined> {
  return db.selectFrom('powerstations').selectAll().where('organisation_id', '=', orgId).where('id', '=', id).executeTakeFirst();
}

/** Postcodes of DYNAMIC VPPs filtered by postcode, sorted, by VPP id. */
export async function postcodesOf(db: Db, ids: number[]): Promise<Map<number, string[]>> {
  const out = new Map<number, string[]>(ids.map((id) => [id, []]));
  if (!ids.length) return out;
  const rows = await db.selectFrom('powerstation_postcodes').selectAll().where('powerstation_id', 'in', ids).orderBy('postcode').execute();
  for (const r of rows) out.get(r.powerstation_id)?.push(r.postcode);
  return out;
}

type Scope = (eb: ExpressionBuilder<DB, 'powerstations'>) => ReturnType<ExpressionBuilder<DB, 'powerstations'>['and']>;

/**
 * The one table of membership rules: for each kind of VPP, the (VPP, node) pairs its rule names
 * before the fleet is applied: its list (STATIC), the nodes at its postcodes or in its state
 * (DYNAMIC), the units registered under its DUID (FCAS). Every membership question reads these.
 */
const RULES = {
  STATIC: (db: Db, scope: Scope) =>
    db
      .selectFrom('vpp_nodes')
      .innerJoin('powerstations', 'powerstations.id', 'vpp_nodes.powerstation_id')
      .where(scope)
      .where('powerstations.type', '=', 'STATIC')
      .select(['powerstations.id as powerstation_id', 'vpp_nodes.node_id as node_id']),
  POSTCODE: (db: Db, scope: Scope) =>
    db
      .selectFrom('powerstation_postcodes as pp')
      .innerJoin('powerstations', 'powerstations.id', 'pp.powerstation_id')
      .innerJoin('nodes', 'nodes.postcode', 'pp.postcode')
      .where(scope)
      .where('powerstations.type', '=', 'DYNAMIC')
      .where('powerstations.state', 'is', null)
      .select(['powerstations.id as powerstation_id', 'nodes.id as node_id']),
  STATE: (db: Db, scope: Scope) =>
    db
      .selectFrom('powerstations')
      .innerJoin('nodes', 'nodes.state', 'powerstations.state')
      .where(scope)
      .where('powerstations.type', '=', 'DYNAMIC')
      .select(['powerstations.id as powerstation_id', 'nodes.id as node_id']),
  FCAS: (db: Db, scope: Scope) =>
    db
      .selectFrom('powerstations')
      .innerJoin('duid_units', 'duid_units.duid', 'powerstations.duid')
      .innerJoin('nodes', 'nodes.serial_number', 'duid_units.serial_number')
      .where(scope)
      .where('powerstations.type', '=', 'FCAS')
      .select(['powerstations.id as powerstation_id', 'nodes.id as node_id']),
};

const ruleOf = (ps: PowerstationRow): keyof typeof RULES => (ps.type === 'DYNAMIC' ? (ps.state ? 'STATE' : 'POSTCODE') : ps.type);

/** Ids of the nodes one VPP's rule names, before the fleet is applied. */
function ruleNodeIds(db: Db, ps: PowerstationRow) {
  const pairs = RULES[ruleOf(ps)](db, (eb) => eb.and([eb('powerstations.id', '=', ps.id)]));
  return db.selectFrom(pairs.as('r')).select('r.node_id');
}

/** The VPP's member nodes: the nodes its rule names that are in the owner's fleet. */
export function memberNodes(db: Db, ps: PowerstationRow) {
  return fleetNodes(db, ps.organisation_id).where('nodes.id', 'in', ruleNodeIds(db, ps));
}

/** Every (VPP, node) membership of an organisation's VPPs, computed from their rules, within its fleet. */
function memberships(db: Db, orgId: number, powerstationIds?: number[]) {
  const scope: Scope = (eb) =>
    eb.and([eb('powerstations.organisation_id', '=', orgId), ...(powerstationIds ? [eb('powerstations.id', 'in', powerstationIds)] : [])]);
  const all = RULES.STATIC(db, scope).union(RULES.POSTCODE(db, scope)).union(RULES.STATE(db, scope)).union(RULES.FCAS(db, scope));
  return db
    .selectFrom(all.as('m'))
    .innerJoin('fleet_members as fm', (j) => j.onRef('fm.node_id', '=', 'm.node_id').on('fm.organisation_id', '=', orgId))
    .select(['m.powerstation_id', 'm.node_id']);
}

export interface NameplateSums {
  nodes: number;
  batteryCapacity: number;
  inverterPower: number;
  batteryPower: number;
}

const r2 = (v: unknown) => Math.round(Number(v ?? 0) * 100) / 100;

/** Node count and nameplate sums of each listed VPP, summed over its members now. */
async function sumNameplates(db: Db, orgId: number, ids: number[]) {
  return db
    .selectFrom(memberships(db, orgId, ids).as('mm'))
    .innerJoin('nodes', 'nodes.id', 'mm.node_id')
    .select((eb) => [
      'mm.powerstation_id',
      eb.fn.countAll<number>().as('n'),
      eb.fn.sum<number>('nodes.battery_kwh').as('battery_kwh'),
      eb.fn.sum<number>('nodes.inverter_kw').as('inverter_kw'),
      eb.fn.sum<number>('nodes.battery_kw').as('battery_kw'),
    ])
    .groupBy('mm.powerstation_id')
    .execute();
}

/**
 * Node count and nameplate sums of each listed VPP (of organisation `orgId`), as stored with it
 * (migration 055). A VPP whose members or their nameplates changed since its sums were stored is
 * summed again, and the sums are stored under the version read before summing, only if it is still
 * the VPP's: a change made meanwhile leaves them to the next reader.
 */
export async function nameplates(db: Db, orgId: number, ids: number[]): Promise<Map<number, NameplateSums>> {
  const out = new Map<number, NameplateSums>(ids.map((id) => [id, { nodes: 0, batteryCapacity: 0, inverterPower: 0, batteryPower: 0 }]));
  if (!ids.length) return out;
  const stored = new Map(
    (await db.selectFrom('powerstation_nameplates').selectAll().where('powerstation_id', 'in', ids).execute()).map((r) => [r.powerstation_id, r]),
  );
  const sumsOf = (r: { nodes: unknown; battery_kwh: unknown; inverter_kw: unknown; battery_kw: unknown }): NameplateSums => ({
    nodes: Number(r.nodes ?? 0),
    batteryCapacity: r2(r.battery_kwh),
    inverterPower: r2(r.inverter_kw),
    batteryPower: r2(r.battery_kw),
  });
  const stale: number[] = [];
  for (const id of ids) {
    const r = stored.get(id);
    if (r && r.summed_version === r.version) out.set(id, sumsOf(r));
    else stale.push(id);
  }
  if (!stale.length) return out;
  const sums = new Map((await sumNameplates(db, orgId, stale)).map((r) => [r.powerstation_id, r]));
  for (const id of stale) {
    const r = sums.get(id);
    const row = {
      nodes: Number(r?.n ?? 0),
      battery_kwh: Number(r?.battery_kwh ?? 0),
      inverter_kw: Number(r?.inverter_kw ?? 0),
      battery_kw: Number(r?.battery_kw ?? 0),
    };
    out.set(id, sumsOf(row));
    const version = stored.get(id)?.version;
    if (version === undefined) continue;
    await db
      .updateTable('powerstation_nameplates')
      .set({ ...row, summed_version: version })
      .where('powerstation_id', '=', id)
      .where('version', '=', version)
      .execute();
  }
  return out;
}

/** A page of the organisation's VPPs (optionally of some types), oldest first, and their total. */
export async function listPowerstations(db: Db, orgId: number, q: { limit: number; offset: number; type?: PowerstationRow['type'][] }) {
  let base = db.selectFrom('powerstations').where('organisation_id', '=', orgId);
  if (q.type?.length) base = base.where('type', 'in', q.type);
  const [rows, count] = await Promise.all([
    base.selectAll().orderBy('id').limit(q.limit).offset(q.offset).execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

/** Which of the given node ids are in the organisation's fleet. */
export async function fleetNodeIds(db: Db, orgId: number, ids: number[]): Promise<Set<number>> {
  if (!ids.length) return new Set();
  const rows = await fleetNodes(db, orgId).select('nodes.id').where('nodes.id', 'in', ids).execute();
  return new Set(rows.map((r) => r.id));
}

export interface PowerstationValues {
  name: string;
  type: PowerstationRow['type'];
  state: string | null;
  postcodes: string[];
  duid?: string | null;
  /** STATIC members; undefined keeps the current list on update. */
  nodes?: number[];
}

/** Opens a stay of each node in a manual VPP's list, at `at` (its additions: issue 33 item 6). */
async function joinList(db: Db, powerstationId: number, nodeIds: readonly number[], at: number) {
  for (let i = 0; i < nodeIds.length; i += 500)
    await db
      .insertInto('vpp_membership_history')
      .values(nodeIds.slice(i, i + 500).map((node_id) => ({ powerstation_id: powerstationId, node_id, joined_at: at, left_at: null })))
      .execute();
}

/** Closes the open stays of the nodes (every node with `null`) in a manual VPP's list, at `at` (its removals). */
async function leaveList(db: Db, powerstationId: number, nodeIds: readonly number[] | null, at: number) {
  const close = (ids?: readonly number[]) => {
    let q = db.updateTable('vpp_membership_history').set({ left_at: at }).where('powerstation_id', '=', powerstationId).where('left_at', 'is', null);
    if (ids) q = q.where('node_id', 'in', ids);
    return q.execute();
  };
  if (nodeIds === null) await close();
  else for (let i = 0; i < nodeIds.length; i += 500) await close(nodeIds.slice(i, i + 500));
}

/**
 * The VPP's nodes at some time in [from, to): a manual VPP's from its list's history, an automatic
 * one's from the fleet's history matching its rule as it stands (its rule's own changes are not kept).
 */
export async function vppNodesDuring(db: Db, ps: PowerstationRow, from: number, to: number): Promise<number[]> {
  const inFleet = db
    .selectFrom('fleet_membership_history as fh')
    .select('fh.node_id')
    .where('fh.organisation_id', '=', ps.organisation_id)
    .where('fh.joined_at', '<', to)
    .where((eb) => eb.or([eb('fh.left_at', 'is', null), eb('fh.left_at', '>', from)]));
  const rows =
    ps.type === 'STATIC'
      ? await db
          .selectFrom('vpp_membership_history as vh')
          .select('vh.node_id')
          .distinct()
          .where('vh.powerstation_id', '=', ps.id)
          .where('vh.joined_at', '<', to)
          .where((eb) => eb.or([eb('vh.left_at', 'is', null), eb('vh.left_at', '>', from)]))
          .where('vh.node_id', 'in', inFleet)
          .execute()
      : await inFleet.distinct().where('fh.node_id', 'in', ruleNodeIds(db, ps)).execute();
  return rows.map((r) => r.node_id).sort((a, b) => a - b);
}

/**
 * Takes nodes out of an organisation's fleet at `at` (issue 33 item 6): its membership goes, its
 * fleet stay and its stays in the organisation's manual VPP lists close. Answers the nodes released.
 */
export async function releaseFromFleet(db: Db, orgId: number, nodeIds: readonly number[], at: number): Promise<number[]> {
  return db.transaction().execute(async (trx) => {
    const held = (
      await trx
        .selectFrom('fleet_members')
        .select('node_id')
        .where('organisation_id', '=', orgId)
        .where('node_id', 'in', nodeIds.length ? nodeIds : [-1])
        .execute()
    ).map((r) => r.node_id);
    if (!held.length) return [];
    const lists = await trx
      .selectFrom('vpp_nodes')
      .innerJoin('powerstations', 'powerstations.id', 'vpp_nodes.powerstation_id')
      .select(['vpp_nodes.powerstation_id', 'vpp_nodes.node_id'])
      .where('powerstations.organisation_id', '=', orgId)
      .where('vpp_nodes.node_id', 'in', held)
      .execute();
    for (const id of new Set(lists.map((l) => l.powerstation_id))) {
      const ids = lists.filter((l) => l.powerstation_id === id).map((l) => l.node_id);
      await trx.deleteFrom('vpp_nodes').where('powerstation_id', '=', id).where('node_id', 'in', ids).execute();
      await leaveList(trx, id, ids, at);
    }
    await trx.deleteFrom('fleet_members').where('organisation_id', '=', orgId).where('node_id', 'in', held).execute();
    await trx
      .updateTable('fleet_membership_history')
      .set({ left_at: at })
      .where('organisation_id', '=', orgId)
      .where('node_id', 'in', held)
      .where('left_at', 'is', null)
      .execute();
    return held.sort((a, b) => a - b);
  });
}

/** An organisation by its name, and which of the serial numbers are nodes of its fleet (id by serial). */
export async function fleetBySerial(db: Db, organisationName: string, serials: readonly string[]) {
  const org = await db.selectFrom('organisations').select('id').where('name', '=', organisationName).executeTakeFirst();
  if (!org) return null;
  const rows = await db
    .selectFrom('nodes')
    .innerJoin('fleet_members as fm', 'fm.node_id', 'nodes.id')
    .select(['nodes.id', 'nodes.serial_number'])
    .where('fm.organisation_id', '=', org.id)
    .where('nodes.serial_number', 'in', serials.length ? [...serials] : [''])
    .execute();
  return { organisationId: org.id, nodes: new Map(rows.map((r) => [r.serial_number, r.id])) };
}

export async function createPowerstation(db: Db, orgId: number, v: PowerstationValues): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const now = nowS();
    const row = await trx
      .insertInto('powerstations')
      .values({ organisation_id: orgId, name: v.name, type: v.type, state: v.state, duid: v.duid ?? null, created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (v.postcodes.length)
      await trx
        .insertInto('powerstation_postcodes')
        .values(v.postcodes.map((postcode) => ({ powerstation_id: row.id, postcode })))
        .execute();
    if (v.nodes?.length) {
      await trx
        .insertInto('vpp_nodes')
        .values(v.nodes.map((node_id) => ({ powerstation_id: row.id, node_id })))
        .execute();
      await joinList(trx, row.id, [...new Set(v.nodes)], now);
    }
    return row.id;
  });
}

export async function updatePowerstation(db: Db, id: number, v: PowerstationValues): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('powerstations').set({ name: v.name, state: v.state, updated_at: nowS() }).where('id', '=', id).execute();
    await trx.deleteFrom('powerstation_postcodes').where('powerstation_id', '=', id).execute();
    if (v.postcodes.length)
      await trx
        .insertInto('powerstation_postcodes')
        .values(v.postcodes.map((postcode) => ({ powerstation_id: id, postcode })))
        .execute();
    if (v.nodes) {
      const before = new Set((await trx.selectFrom('vpp_nodes').select('node_id').where('powerstation_id', '=', id).execute()).map((r) => r.node_id));
      const after = new Set(v.nodes);
      const now = nowS();
      await leaveList(
        trx,
        id,
        [...before].filter((n) => !after.has(n)),
        now,
      );
      await joinList(
        trx,
        id,
        [...after].filter((n) => !before.has(n)),
        now,
      );
      await trx.deleteFrom('vpp_nodes').where('powerstation_id', '=', id).execute();
      // Half-way through: the crash tests kill here (the change must vanish whole).
      crashPoint('vpp-change');
      if (v.nodes.length)
        await trx
          .insertInto('vpp_nodes')
          .values(v.nodes.map((node_id) => ({ powerstation_id: id, node_id })))
          .execute();
    }
  });
}

export async function renamePowerstation(db: Db, id: number, name: string) {
  await db.updateTable('powerstations').set({ name, updated_at: nowS() }).where('id', '=', id).execute();
}

/** Adds nodes to a STATIC VPP: the listed ids (already checked to be in the fleet) or every fleet node matching the filter. */
export async function addNodes(db: Db, ps: PowerstationRow, nodes: { list: number[] } | { filter: VppNodeFilter }) {
  await db.transaction().execute(async (trx) => {
    const ids =
      'list' in nodes
        ? nodes.list
        : (await applyFilter(fleetNodes(trx, ps.organisation_id), ps.organisation_id, nodes.filter).select('nodes.id').execute()).map((r) => r.id);
    const current = new Set((await trx.selectFrom('vpp_nodes').select('node_id').where('powerstation_id', '=', ps.id).execute()).map((r) => r.node_id));
    const fresh = [...new Set(ids)].filter((id) => !current.has(id));
    for (let i = 0; i < fresh.length; i += 500)
      await trx
        .insertInto('vpp_nodes')
        .values(fresh.slice(i, i + 500).map((node_id) => ({ powerstation_id: ps.id, node_id })))
        .execute();
    await joinList(trx, ps.id, fresh, nowS());
    await trx.updateTable('powerstations').set({ updated_at: nowS() }).where('id', '=', ps.id).execute();
  });
}

/** Removes nodes from a STATIC VPP: the listed ids, or every member matching the filter. */
export async function removeNodes(db: Db, ps: PowerstationRow, nodes: { list: number[] } | { filter: VppNodeFilter }) {
  await db.transaction().execute(async (trx) => {
    let q = trx.deleteFrom('vpp_nodes').where('powerstation_id', '=', ps.id);
    if ('list' in nodes) q = q.where('node_id', 'in', nodes.list.length ? nodes.list : [-1]);
    else q = q.where('node_id', 'in', applyFilter(fleetNodes(trx, ps.organisation_id), ps.organisation_id, nodes.filter).select('nodes.id'));
    const gone = (await q.returning('node_id').execute()).map((r) => r.node_id);
    await leaveList(trx, ps.id, gone, nowS());
    await trx.updateTable('powerstations').set({ updated_at: nowS() }).where('id', '=', ps.id).execute();
  });
}

export async function deletePowerstation(db: Db, id: number) {
  await db.transaction().execute(async (trx) => {
    // Its list's stays end with it; the history outlives the VPP.
    await leaveList(trx, id, null, nowS());
    await trx.deleteFrom('powerstations').where('id', '=', id).execute();
  });
}

/**
 * A page of a VPP's nodes, or with `includeUnused` of every fleet node with `included` telling
 * which are members; the total matching.
 */
export async function listVppNodes(
  db: Db,
  ps: PowerstationRow,
  q: VppNodeFilter & { limit: number; offset: number; includeUnused: boolean },
): Promise<{ rows: (NodeRow & { included: number })[]; total: number }> {
  const members = ruleNodeIds(db, ps);
  const base = applyFilter(q.includeUnused ? fleetNodes(db, ps.organisation_id) : memberNodes(db, ps), ps.organisation_id, q);
  const [rows, count] = await Promise.all([
    base
      .selectAll('nodes')
      .select('fm.site_label')
      .select((eb) => eb.case().when('nodes.id', 'in', members).then(1).else(0).end().as('included'))
      .orderBy('nodes.id')
      .limit(q.limit)
      .offset(q.offset)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows as (NodeRow & { included: number })[], total: Number(count.n) };
}

/** The member nodes as map points. */
export async function vppMapNodes(db: Db, ps: PowerstationRow) {
  return readInIdPages((after, size) =>
    memberNodes(db, ps)
      .select(['nodes.id', 'nodes.lat', 'nodes.lng', 'fm.site_label', 'nodes.unit_state', 'nodes.connection_offline', 'nodes.last_contact'])
      .where('nodes.id', '>', after)
      .orderBy('nodes.id')
      .limit(size)
      .execute(),
  );
}

/** A page of the fleet's nodes that are in none of the organisation's VPPs, and their total. */
export async function unusedNodes(db: Db, orgId: number, limit: number, offset: number) {
  const used = db.selectFrom(memberships(db, orgId).as('u')).select('u.node_id');
  const base = fleetNodes(db, orgId).where('nodes.id', 'not in', used);
  const [rows, count] = await Promise.all([
    base.selectAll('nodes').select('fm.site_label').orderBy('nodes.id').limit(limit).offset(offset).execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

/** The latest reading of each member node no older than `maxAge` seconds, for the given telemetry columns. */
export async function latestReadings(db: Db, ps: PowerstationRow, cols: readonly string[], maxAge: number, now: number) {
  const values = sql.join(cols.map((c) => sql`l.${sql.ref(c)} as ${sql.ref(c)}`));
  const fresh = freshMembers(ps, maxAge, now);
  return readInIdPages(async (after, size) => {
    const result = await sql<Record<string, number | null> & { id: number; lat: number; lng: number; ts: number }>`
      select n.id as id, n.lat as lat, n.lng as lng, l.ts as ts, ${values}
      ${fresh(after)} order by l.node_id limit ${size}`.execute(db);
    return result.rows;
  });
}

/**
 * The member nodes' latest readings no older than `maxAge` seconds, after a node id: the `from` and
 * `where` of a page (`tel_latest l` joined to `nodes n`). A page walks the fresh readings in node order
 * and keeps the member nodes, each tested by a lookup: listing the members in a subquery would build
 * the whole list again for every page (at 50,000 nodes, 10 pages of 0.2 s). A manual VPP's list is
 * short and indexed: it leads instead.
 */
function freshMembers(ps: PowerstationRow, maxAge: number, now: number) {
  const member = ps.type === 'STATIC' ? sql<boolean>`l.node_id in (select v.node_id from vpp_nodes v where v.powerstation_id = ${ps.id})` : ruleHolds(ps);
  return (after: number) => sql`from tel_latest l join nodes n on n.id = l.node_id
      where l.node_id > ${after} and l.ts >= ${now - maxAge} and ${member}
        and exists (select 1 from fleet_members fm where fm.organisation_id = ${ps.organisation_id} and fm.node_id = l.node_id)`;
}

/**
 * Each column's fresh readings of the member nodes added up by the database (format=total): how many
 * nodes have one, and the sum of the readings each rounded to thousandths as format=nodes rounds them
 * (Math.round: half up, toward +∞), in thousandths; a page of nodes at a time, as latestReadings.
 * The sum of whole thousandths is exact, so it equals the JavaScript sum of the rounded readings.
 */
export async function latestSums(db: Db, ps: PowerstationRow, cols: readonly string[], maxAge: number, now: number) {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const fresh = freshMembers(ps, maxAge, now);
  // PostgreSQL's real is 4 bytes; the driver reads its shortest text as a double, and so does this.
  const reading = (c: string) => (pg ? sql`cast(cast(p.${sql.ref(c)} as text) as double precision)` : sql`p.${sql.ref(c)}`);
  // Math.round(x * 1000) without floor(y + 0.5)'s one mistake (0.49999999999999994): y - floor(y) is exact.
  const milli = (c: string) =>
    sql`(case when ${reading(c)} * 1000 - floor(${reading(c)} * 1000) >= 0.5 then floor(${reading(c)} * 1000) + 1 else floor(${reading(c)} * 1000) end)`;
  const sums = sql.join(cols.flatMap((c, i) => [sql`count(p.${sql.ref(c)}) as ${sql.ref(`n${i}`)}`, sql`sum(${milli(c)}) as ${sql.ref(`s${i}`)}`]));
  const values = sql.join(cols.map((c) => sql`l.${sql.ref(c)} as ${sql.ref(c)}`));
  const out = cols.map(() => ({ nodes: 0, milli: 0 }));
  const size = 5000;
  for (let after = 0; ; ) {
    const { rows } = await sql<Record<string, number | null> & { rows: number; last: number | null }>`
      select count(*) as rows, max(p.id) as last, ${sums}
      from (
        select l.node_id as id, ${values}
        ${fresh(after)} order by l.node_id limit ${size}
      ) p`.execute(db);
    const r = rows[0];
    cols.forEach((_, i) => {
      out[i].nodes += Number(r[`n${i}`] ?? 0);
      out[i].milli += Number(r[`s${i}`] ?? 0);
    });
    if (Number(r.rows) < size || r.last === null) return new Map(cols.map((c, i) => [c, out[i]]));
    after = Number(r.last);
    await yieldToLoop();
  }
}

/** The rule of a VPP as a condition on one node (`n`): for reads that walk nodes and keep the members. */
function ruleHolds(ps: PowerstationRow) {
  switch (ruleOf(ps)) {
    case 'STATIC':
      return sql<boolean>`exists (select 1 from vpp_nodes v where v.powerstation_id = ${ps.id} and v.node_id = n.id)`;
    case 'POSTCODE':
      return sql<boolean>`exists (select 1 from powerstation_postcodes pp where pp.powerstation_id = ${ps.id} and pp.postcode = n.postcode)`;
    case 'STATE':
      return sql<boolean>`n.state = ${ps.state}`;
    case 'FCAS':
      return sql<boolean>`exists (select 1 from duid_units d where d.duid = ${ps.duid} and d.serial_number = n.serial_number)`;
  }
}

/**
 * At each bucket of [start, end) (5 minutes or UTC hours), the sum over member nodes of their average
 * of each column, read a window of about SUM_ROWS node-buckets (a day at least) at a time, and the
 * nodes a thousand at a time, so that a month of a large VPP never holds the server.
 */
export async function seriesSums(
  db: Db,
  telemetry: TelemetryStore,
  ps: PowerstationRow,
  cols: readonly FleetColumn[],
  start: number,
  end: number,
  interval: 300 | 3600,
) {
  const ids = (await memberNodes(db, ps).select('nodes.id').orderBy('nodes.id').execute()).map((r) => r.id);
  // Whole days at least: a window unpacks each compacted day it touches.
  const width = Math.max(86400, Math.floor(SUM_ROWS / Math.max(1, ids.length)) * interval);
  const out = new Map<number, Record<string, number | null>>();
  for await (const [from, to] of timeWindows(start, end, width)) {
    for (const [ts, sums] of await telemetry.historySums(ids, cols, from, to, interval)) out.set(ts, sums);
  }
  return out;
}

/** Node-buckets summed in one read. */
const SUM_ROWS = 20_000;

/** Registers units under an FCAS DUID by serial number (the demo's seed). */
export async function insertDuidUnits(db: Db, units: { duid: string; serial_number: string }[]) {
  if (units.length) await db.insertInto('duid_units').values(units).execute();
}

/** Those of `ids` that are the organisation's VPPs. */
export async function ownPowerstationIds(db: Db, orgId: number, ids: readonly number[]): Promise<Set<number>> {
  const rows = await db.selectFrom('powerstations').select('id').where('organisation_id', '=', orgId).where('id', 'in', ids).execute();
  return new Set(rows.map((r) => r.id));
}
