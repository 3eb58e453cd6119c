import type { Database } from '../../db/database.ts';
import { REPORTING_WINDOW_S } from '../events/index.ts';
import { memberNodes, type PowerstationRow } from '../vpps/index.ts';

// The SQL of per-node limits: the VPP's curtailable nodes, and each source's nodes and shares (limit_nodes).

function curtailable(db: Database, ps: PowerstationRow) {
  return memberNodes(db, ps)
    .select(['nodes.id', 'nodes.solar_kw', 'nodes.inverter_kw'])
    .where('nodes.unit_state', '=', 'COMMISSIONED')
    .where('nodes.solar_kw', '>', 0)
    .where('nodes.inverter_kw', '>', 0);
}

/** The VPP's curtailable nodes with their solar and inverter, in id order. */
export async function curtailableRows(db: Database, ps: PowerstationRow) {
  return curtailable(db, ps).orderBy('nodes.id').execute();
}

/** The VPP's curtailable nodes reporting now (a reading within REPORTING_WINDOW_S), in id order. */
export async function reportingCurtailableRows(db: Database, ps: PowerstationRow, now: number) {
  return curtailable(db, ps)
    .innerJoin('tel_latest as l', 'l.node_id', 'nodes.id')
    .where('nodes.connection_offline', '=', 0)
    .where('l.ts', '>=', now - REPORTING_WINDOW_S)
    .orderBy('nodes.id')
    .execute();
}

// An import limit's nodes: the VPP's commissioned homes with a battery (it holds the import), weighed by its power.
function batteryHomes(db: Database, ps: PowerstationRow) {
  return memberNodes(db, ps)
    .select(['nodes.id', 'nodes.battery_kw'])
    .where('nodes.unit_state', '=', 'COMMISSIONED')
    .where('nodes.battery_kw', '>', 0)
    .where('nodes.battery_usable_kwh', '>', 0);
}

/** The VPP's commissioned homes with a battery and its power (kW), in id order. */
export async function batteryHomeRows(db: Database, ps: PowerstationRow) {
  return batteryHomes(db, ps).orderBy('nodes.id').execute();
}

/** The VPP's commissioned homes with a battery reporting now (a reading within REPORTING_WINDOW_S), in id order. */
export async function reportingBatteryHomeRows(db: Database, ps: PowerstationRow, now: number) {
  return batteryHomes(db, ps)
    .innerJoin('tel_latest as l', 'l.node_id', 'nodes.id')
    .where('nodes.connection_offline', '=', 0)
    .where('l.ts', '>=', now - REPORTING_WINDOW_S)
    .orderBy('nodes.id')
    .execute();
}

/** Every member node of the VPP now, in id order (an import limit's response counts the homes without a battery too). */
export async function vppNodeIds(db: Database, ps: PowerstationRow): Promise<number[]> {
  return (await memberNodes(db, ps).select('nodes.id').orderBy('nodes.id').execute()).map((r) => r.id);
}

/** How many curtailable nodes the VPP has, and their summed capacity (kW: solar or inverter, the smaller). */
export async function curtailableCapacity(db: Database, ps: PowerstationRow) {
  const r = await memberNodes(db, ps)
    .select((eb) => [
      eb.fn.countAll<number>().as('n'),
      eb.fn
        .sum<number | null>(
          eb.case().when('nodes.solar_kw', '<', eb.ref('nodes.inverter_kw')).then(eb.ref('nodes.solar_kw')).else(eb.ref('nodes.inverter_kw')).end(),
        )
        .as('kw'),
    ])
    .where('nodes.unit_state', '=', 'COMMISSIONED')
    .where('nodes.solar_kw', '>', 0)
    .where('nodes.inverter_kw', '>', 0)
    .executeTakeFirstOrThrow();
  return { n: Number(r.n), kw: Number(r.kw ?? 0) };
}

/** Marks every node of a source not dropped yet dropped at `at`. */
export async function dropAll(db: Database, source: string, at: number): Promise<void> {
  await db.updateTable('limit_nodes').set({ dropped_at: at }).where('source', '=', source).where('dropped_at', 'is', null).execute();
}

/** Marks these nodes of a source dropped at `at`. */
export async function dropNodes(db: Database, source: string, nodeIds: readonly number[], at: number): Promise<void> {
  for (let i = 0; i < nodeIds.length; i += 1000)
    await db
      .updateTable('limit_nodes')
      .set({ dropped_at: at })
      .where('source', '=', source)
      .where('node_id', 'in', nodeIds.slice(i, i + 1000))
      .execute();
}

/** Records nodes' shares (replacing their earlier rows, a dropped node's included). */
export async function storeShares(
  db: Database,
  source: string,
  shares: ReadonlyMap<number, { net: number | null; gross: number | null; import: number | null }>,
  at: number,
) {
  const entries = [...shares];
  for (let i = 0; i < entries.length; i += 1000) {
    const chunk = entries.slice(i, i + 1000);
    await db
      .insertInto('limit_nodes')
      .values(chunk.map(([id, s]) => ({ source, node_id: id, net_kw: s.net, gross_kw: s.gross, import_kw: s.import, orders_sent_at: at, dropped_at: null })))
      .onConflict((oc) =>
        oc.columns(['source', 'node_id']).doUpdateSet((eb) => ({
          net_kw: eb.ref('excluded.net_kw'),
          gross_kw: eb.ref('excluded.gross_kw'),
          import_kw: eb.ref('excluded.import_kw'),
          orders_sent_at: eb.ref('excluded.orders_sent_at'),
          dropped_at: null,
        })),
      )
      .execute();
  }
}

/** A source's nodes not dropped, with their shares. */
export async function heldRows(db: Database, source: string) {
  return db
    .selectFrom('limit_nodes')
    .select(['node_id', 'net_kw', 'gross_kw', 'import_kw'])
    .where('source', '=', source)
    .where('dropped_at', 'is', null)
    .execute();
}

/** A source's nodes that were told of its limits and not dropped. */
export async function toldNodes(db: Database, source: string): Promise<number[]> {
  const rows = await db
    .selectFrom('limit_nodes')
    .select('node_id')
    .where('source', '=', source)
    .where('orders_sent_at', 'is not', null)
    .where('dropped_at', 'is', null)
    .execute();
  return rows.map((r) => r.node_id);
}

/** Every node of a source, dropped or not. */
export async function sourceNodes(db: Database, source: string): Promise<number[]> {
  return (await db.selectFrom('limit_nodes').select('node_id').where('source', '=', source).execute()).map((r) => r.node_id);
}

/** New rows of a source's nodes (not yet sent). */
export async function insertLimitNodes(
  db: Database,
  rows: readonly { source: string; node_id: number; net_kw: number | null; gross_kw: number | null; import_kw: number | null }[],
): Promise<void> {
  for (let i = 0; i < rows.length; i += 1000)
    await db
      .insertInto('limit_nodes')
      .values(rows.slice(i, i + 1000).map((r) => ({ ...r, orders_sent_at: null, dropped_at: null })))
      .execute();
}

/**
 * Whether every connected node given a source's limits has a reading at or after `end` (the
 * settlement waits until then; see the dispatches' telemetryCovers).
 */
export async function limitTelemetryCovers(db: Database, source: string, end: number): Promise<boolean> {
  const behind = await db
    .selectFrom('limit_nodes as ln')
    .innerJoin('nodes as n', 'n.id', 'ln.node_id')
    .leftJoin('tel_latest as l', 'l.node_id', 'ln.node_id')
    .select('ln.node_id')
    .where('ln.source', '=', source)
    .where('n.connection_offline', '=', 0)
    .where((eb) => eb.or([eb('l.ts', 'is', null), eb('l.ts', '<', end)]))
    .limit(1)
    .executeTakeFirst();
  return behind === undefined;
}
