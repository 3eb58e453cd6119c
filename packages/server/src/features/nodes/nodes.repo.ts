import type { Nameplate, NodeListQuery, NodeStatus } from '@vpp/shared/nodes/schemas';
import { energySystemSchema, meterGroupSchema } from '@vpp/shared/nodes/schemas';
import { type Selectable, sql } from 'kysely';
import { z } from 'zod';
import { type Database, readInIdPages } from '../../db/database.ts';
import type { NodeTable } from '../../db/schema.ts';
import { searchable } from './nodes.search.repo.ts';

/** A node as one organisation sees it: the node's row with that organisation's site label. */
export type NodeRow = Selectable<NodeTable> & { site_label: string | null };

/** Nodes of one organisation's fleet (joined as `fm`, which holds its site label): every query about nodes starts here. */
export function fleetNodes(db: Database, orgId: number) {
  return db.selectFrom('nodes').innerJoin('fleet_members as fm', (j) => j.onRef('fm.node_id', '=', 'nodes.id').on('fm.organisation_id', '=', orgId));
}

/**
 * Nodes whose search text (address, NMI, serial, brands) or organisation `orgId`'s site label
 * contains `f`; % and _ match themselves. Only inside a query from `fleetNodes(db, orgId)`. The
 * matches are looked up first (on PostgreSQL through trigram indexes), then the fleet's nodes among
 * them, rather than each node of the fleet tested.
 */
export function searchMatches(f: string, orgId: number) {
  const pattern = `%${searchable(f).replace(/[%_\\]/g, (c) => `\\${c}`)}%`;
  return sql<boolean>`nodes.id in (select node_id from node_search where search_text like ${pattern} escape '\\' union all select node_id from fleet_members where organisation_id = ${orgId} and replace(lower(site_label), ',', ' ') like ${pattern} escape '\\')`;
}

type Filters = Partial<Pick<NodeListQuery, 'f' | 'state' | 'postcodes' | 'status'>>;

function filtered(db: Database, orgId: number, q: Filters) {
  let query = fleetNodes(db, orgId);
  if (q.f) query = query.where(searchMatches(q.f, orgId));
  if (q.state) query = query.where('nodes.state', '=', q.state);
  // An empty postcode list (the value NULL) matches no node.
  if (q.postcodes) query = q.postcodes.length ? query.where('nodes.postcode', 'in', q.postcodes) : query.where(sql<boolean>`1 = 0`);
  if (q.status) query = query.where((eb) => statusCondition(eb, q.status as NodeStatus));
  return query;
}

// biome-ignore lint/suspicious/noExplicitAny: Kysely's expression builder type is generic over the query
function statusCondition(eb: any, status: NodeStatus) {
  const commissioned = eb('nodes.unit_state', '=', 'COMMISSIONED');
  if (status === 'NOT_COMMISSIONED') return eb('nodes.unit_state', '!=', 'COMMISSIONED');
  if (status === 'ONLINE') return eb.and([commissioned, eb('nodes.connection_offline', '=', 0)]);
  if (status === 'OFFLINE') return eb.and([commissioned, eb('nodes.connection_offline', '=', 1), eb('nodes.last_contact', 'is not', null)]);
  return eb.and([commissioned, eb('nodes.connection_offline', '=', 1), eb('nodes.last_contact', 'is', null)]);
}

/** The display status as a rank, in the order of NODE_STATUSES: online, offline, awaiting contact, not commissioned. */
const STATUS_RANK = sql<number>`case when nodes.unit_state != 'COMMISSIONED' then 3 when nodes.connection_offline = 0 then 0 when nodes.last_contact is not null then 1 else 2 end`;

/**
 * Orders a fleet query by the list's sort: site labels without case, nodes with no label or no
 * contact last in either direction (both databases alike), and the node id breaking ties so that
 * pages never overlap.
 */
// biome-ignore lint/suspicious/noExplicitAny: the fleet query's builder type is generic over its selection
function sorted<Q extends { orderBy: (...a: any[]) => Q }>(query: Q, q: Pick<NodeListQuery, 'sort' | 'order'>): Q {
  const dir = q.order === 'desc' ? sql`desc` : sql`asc`;
  let out = query;
  if (q.sort === 'siteLabel') out = out.orderBy(sql`fm.site_label is null`).orderBy(sql`lower(fm.site_label) ${dir}`);
  else if (q.sort === 'lastContact') out = out.orderBy(sql`nodes.last_contact is null`).orderBy(sql`nodes.last_contact ${dir}`);
  else if (q.sort === 'status') out = out.orderBy(sql`${STATUS_RANK} ${dir}`);
  return out.orderBy('nodes.id', q.sort === 'id' && q.order === 'desc' ? 'desc' : 'asc');
}

/** A page of the fleet's nodes matching the filters, the total, and the nameplate totals when asked. */
export async function listNodes(db: Database, orgId: number, q: NodeListQuery): Promise<{ rows: NodeRow[]; total: number; nameplate?: Nameplate }> {
  const base = filtered(db, orgId, q);
  const page = () => sorted(base.selectAll('nodes').select('fm.site_label'), q).limit(q.limit).offset(q.offset);
  if (!q.nameplate) {
    // One scan gives the page's ids and, through a window count over ids alone (not whole rows),
    // the total; the page's rows are then read by id. A page past the end needs a count.
    const ids = await sorted(base.select(['nodes.id', sql<number>`count(*) over ()`.as('total_count')]), q)
      .limit(q.limit)
      .offset(q.offset)
      .execute();
    const total = ids.length
      ? Number(ids[0].total_count)
      : q.offset > 0
        ? Number((await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n)
        : 0;
    // The page's rows, read by id, in the order the sorted scan gave.
    const order = new Map(ids.map((r, i) => [r.id, i]));
    const rows = ids.length
      ? (
          await fleetNodes(db, orgId)
            .selectAll('nodes')
            .select('fm.site_label')
            .where('nodes.id', 'in', [...order.keys()])
            .execute()
        ).sort((a, b) => (order.get(a.id) as number) - (order.get(b.id) as number))
      : [];
    return { rows, total };
  }
  const [rows, agg] = await Promise.all([
    page().execute(),
    base
      .select((eb) => [
        eb.fn.countAll<number>().as('total'),
        eb.fn.sum<number>('nodes.battery_kwh').as('battery_capacity'),
        eb.fn.sum<number>('nodes.inverter_kw').as('inverter_power'),
        eb.fn.sum<number>('nodes.battery_kw').as('battery_power'),
      ])
      .executeTakeFirstOrThrow(),
  ]);
  const total = Number(agg.total);
  const nameplate = {
    batteryCapacity: Math.round(Number(agg.battery_capacity ?? 0) * 100) / 100,
    inverterPower: Math.round(Number(agg.inverter_power ?? 0) * 100) / 100,
    batteryPower: Math.round(Number(agg.battery_power ?? 0) * 100) / 100,
    totalDeployments: total,
  };
  return { rows, total, nameplate };
}

export async function findNode(db: Database, orgId: number, id: number): Promise<NodeRow | undefined> {
  return fleetNodes(db, orgId).selectAll('nodes').select('fm.site_label').where('nodes.id', '=', id).executeTakeFirst();
}

/** The node's equipment and meters as stored (JSON, checked against the shared schemas). */
const systemJson = z.object({
  energySystems: z.array(energySystemSchema),
  gridMeters: z.array(meterGroupSchema),
  solarMeters: z.array(meterGroupSchema),
  subMeterGroups: z.array(meterGroupSchema),
});
export type NodeSystem = z.infer<typeof systemJson>;
export const parseSystem = (row: Pick<NodeRow, 'system_json'>): NodeSystem => systemJson.parse(JSON.parse(row.system_json));

/** Where a node is, its zone and its equipment: what the inverter portal shows beside the readings. */
export async function nodeSite(db: Database, id: number) {
  const row = await db.selectFrom('nodes').select(['street', 'suburb', 'state', 'system_json', 'timezone']).where('id', '=', id).executeTakeFirst();
  return row ? { street: row.street, suburb: row.suburb, state: row.state, timezone: row.timezone, system: parseSystem(row) } : undefined;
}

/** The latest reading of a node. */
export async function latestReading(db: Database, id: number) {
  return db.selectFrom('tel_latest').selectAll().where('node_id', '=', id).executeTakeFirst();
}

/** Sets one organisation's label of a node; the others keep theirs. */
export async function setSiteLabel(db: Database, orgId: number, nodeId: number, label: string | null) {
  await db.updateTable('fleet_members').set({ site_label: label }).where('organisation_id', '=', orgId).where('node_id', '=', nodeId).execute();
}

export async function nodeSubmeters(db: Database, nodeId: number) {
  return db.selectFrom('submeters').select(['id', 'name']).where('node_id', '=', nodeId).orderBy('id').execute();
}

/** One line of a node's event log as stored: its own history, or a dispatch, RERT or grid outage that included it. */
export interface NodeLogRow {
  id: number;
  ts: number;
  kind: string;
  duration: number | null;
  description: string | null;
  share_kw: number | null;
  powerstation_name: string | null;
  outage_reason: string | null;
  cancelled_at: number | null;
  dropped_at: number | null;
  opted_out_at: number | null;
  orders_sent_at: number | null;
}

/**
 * A node's event log, newest first: the node's own history (status, commissioning, curtailment
 * limits) and the organisation's dispatches, RERT dispatches and grid outages that included it, once
 * they have started. An event cancelled before its start never reached the node and is left out.
 */
export async function nodeEvents(db: Database, orgId: number, nodeId: number, now: number, limit: number, offset: number) {
  // Typed nulls: PostgreSQL resolves each column of a union from its first branch.
  const none = <T>(type: 'text' | 'bigint' | 'double precision') => sql<T | null>`cast(null as ${sql.raw(type)})`;
  const own = db
    .selectFrom('node_events')
    .where('node_id', '=', nodeId)
    .select([
      'id',
      'ts',
      'event_type as kind',
      'duration',
      sql<string | null>`description`.as('description'),
      none<number>('double precision').as('share_kw'),
      none<string>('text').as('powerstation_name'),
      none<string>('text').as('outage_reason'),
      none<number>('bigint').as('cancelled_at'),
      none<number>('bigint').as('dropped_at'),
      none<number>('bigint').as('opted_out_at'),
      none<number>('bigint').as('orders_sent_at'),
    ]);
  const reached = (e: 'e') => sql<boolean>`(${sql.ref(`${e}.cancelled_at`)} is null or ${sql.ref(`${e}.cancelled_at`)} > ${sql.ref(`${e}.start_time`)})`;
  const dispatched = db
    .selectFrom('dispatch_nodes as dn')
    .innerJoin('events as e', 'e.id', 'dn.event_id')
    .leftJoin('powerstations as p', 'p.id', 'e.powerstation_id')
    .where('dn.node_id', '=', nodeId)
    .where('e.organisation_id', '=', orgId)
    .where('e.start_time', '<=', now)
    .where('dn.orders_sent_at', 'is not', null)
    .where(reached('e'))
    .select([
      'e.id',
      'e.start_time as ts',
      'e.type as kind',
      sql<number | null>`e.duration`.as('duration'),
      none<string>('text').as('description'),
      sql<number | null>`dn.share_kw`.as('share_kw'),
      'p.name as powerstation_name',
      none<string>('text').as('outage_reason'),
      'e.cancelled_at',
      'dn.dropped_at',
      'dn.opted_out_at',
      'dn.orders_sent_at',
    ]);
  const outages = db
    .selectFrom('outage_nodes as o')
    .innerJoin('events as e', 'e.id', 'o.event_id')
    .innerJoin('grid_outages as g', 'g.event_id', 'e.id')
    .leftJoin('powerstations as p', 'p.id', 'e.powerstation_id')
    .where('o.node_id', '=', nodeId)
    .where('e.organisation_id', '=', orgId)
    .where('e.start_time', '<=', now)
    .where(reached('e'))
    .select([
      'e.id',
      'e.start_time as ts',
      'e.type as kind',
      sql<number | null>`e.duration`.as('duration'),
      none<string>('text').as('description'),
      none<number>('double precision').as('share_kw'),
      'p.name as powerstation_name',
      sql<string | null>`g.outage_reason`.as('outage_reason'),
      'e.cancelled_at',
      none<number>('bigint').as('dropped_at'),
      'o.opted_out_at',
      'o.orders_sent_at',
    ]);
  const log = own.unionAll(dispatched).unionAll(outages);
  const [rows, count] = await Promise.all([
    db.selectFrom(log.as('log')).selectAll().orderBy('ts', 'desc').orderBy('id', 'desc').limit(limit).offset(offset).execute(),
    db
      .selectFrom(log.as('log'))
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows: rows as NodeLogRow[], total: Number(count.n) };
}

/** Map points of the fleet, optionally searched and filtered by display status. */
export async function mapNodes(db: Database, orgId: number, q: Pick<Filters, 'f' | 'status'> = {}) {
  return readInIdPages((after, size) =>
    filtered(db, orgId, q)
      .select(['nodes.id', 'nodes.lat', 'nodes.lng', 'fm.site_label', 'nodes.unit_state', 'nodes.connection_offline', 'nodes.last_contact'])
      .where('nodes.id', '>', after)
      .orderBy('nodes.id')
      .limit(size)
      .execute(),
  );
}

/** Counts for the dashboard: commissioned, not commissioned, and offline (commissioned, not reporting). */
export async function deploymentCounts(db: Database, orgId: number) {
  const r = await fleetNodes(db, orgId)
    .select((eb) => [
      eb.fn.sum<number>(eb.case().when('nodes.unit_state', '=', 'COMMISSIONED').then(1).else(0).end()).as('commissioned'),
      eb.fn.sum<number>(eb.case().when('nodes.unit_state', '!=', 'COMMISSIONED').then(1).else(0).end()).as('non_commissioned'),
      eb.fn
        .sum<number>(
          eb
            .case()
            .when(eb.and([eb('nodes.unit_state', '=', 'COMMISSIONED'), eb('nodes.connection_offline', '=', 1)]))
            .then(1)
            .else(0)
            .end(),
        )
        .as('offline'),
    ])
    .executeTakeFirstOrThrow();
  return { commissioned: Number(r.commissioned ?? 0), non_commissioned: Number(r.non_commissioned ?? 0), offline: Number(r.offline ?? 0) };
}

/** Writes connectivity events (a unit that stopped reporting or reports again) to the nodes' logs. */
export async function insertNodeEvents(
  db: Database,
  rows: readonly { node_id: number; ts: number; event_type: 'NODE_ONLINE' | 'NODE_OFFLINE'; description: string; duration: number | null }[],
) {
  if (rows.length) await db.insertInto('node_events').values(rows).execute();
}

/** Sets the nodes' last contact. */
export async function setLastContact(db: Database, ids: readonly number[], ts: number) {
  if (ids.length) await db.updateTable('nodes').set({ last_contact: ts }).where('id', 'in', ids).execute();
}

/** Marks the nodes offline (not reporting) or online. */
export async function setConnectionOffline(db: Database, ids: readonly number[], offline: boolean) {
  if (ids.length)
    await db
      .updateTable('nodes')
      .set({ connection_offline: offline ? 1 : 0 })
      .where('id', 'in', ids)
      .execute();
}

/** A node's time zone and address, whichever organisations hold it. */
export async function nodeAddress(db: Database, id: number) {
  return db.selectFrom('nodes').select(['timezone', 'street', 'suburb', 'state']).where('id', '=', id).executeTakeFirst();
}

/** The organisations whose fleets hold a node, with each one's site label. */
export async function fleetsHolding(db: Database, nodeId: number) {
  return db.selectFrom('fleet_members').select(['organisation_id', 'site_label']).where('node_id', '=', nodeId).execute();
}
