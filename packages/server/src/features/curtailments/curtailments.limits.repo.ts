import type { Database } from '../../db/database.ts';
import { reportingNow } from '../events/index.ts';
import { memberNodes, type PowerstationRow } from '../vpps/index.ts';

// The SQL of per-node limits: the VPP's nodes that can hold a limit, and each source's nodes and shares (limit_nodes).

/** Which way a limit bounds a VPP: its export (its solar, behind an inverter) or its import (held by its batteries). */
export type LimitDirection = 'export' | 'import';

/** The columns a node must have above 0 to hold a limit of each direction. */
const HOLDS = {
  export: ['nodes.solar_kw', 'nodes.inverter_kw'],
  import: ['nodes.battery_kw', 'nodes.battery_usable_kwh'],
} as const;

/** The VPP's commissioned nodes that can hold a limit of a direction; with `now`, only those reporting now. */
function holders(db: Database, ps: PowerstationRow, direction: LimitDirection, now?: number) {
  const members = memberNodes(db, ps);
  const [a, b] = HOLDS[direction];
  return (now === undefined ? members : reportingNow(members, now)).where('nodes.unit_state', '=', 'COMMISSIONED').where(a, '>', 0).where(b, '>', 0);
}

/**
 * The VPP's nodes that can hold a limit of a direction (curtailable nodes with their solar and
 * inverter, or homes with a battery and its power), in id order; with `now`, only those reporting now
 * (a reading within REPORTING_WINDOW_S).
 */
export async function holderRows(db: Database, ps: PowerstationRow, direction: LimitDirection, now?: number) {
  return holders(db, ps, direction, now).select(['nodes.id', 'nodes.solar_kw', 'nodes.inverter_kw', 'nodes.battery_kw']).orderBy('nodes.id').execute();
}

/** Every member node of the VPP now, in id order (an import limit's response counts the homes without a battery too). */
export async function vppNodeIds(db: Database, ps: PowerstationRow): Promise<number[]> {
  return (await memberNodes(db, ps).select('nodes.id').orderBy('nodes.id').execute()).map((r) => r.id);
}

/** How many curtailable nodes the VPP has, and their summed capacity (kW: solar or inverter, the smaller). */
export async function curtailableCapacity(db: Database, ps: PowerstationRow) {
  const r = await holders(db, ps, 'export')
    .select((eb) => [
      eb.fn.countAll<number>().as('n'),
      eb.fn
        .sum<number | null>(
          eb.case().when('nodes.solar_kw', '<', eb.ref('nodes.inverter_kw')).then(eb.ref('nodes.solar_kw')).else(eb.ref('nodes.inverter_kw')).end(),
        )
        .as('kw'),
    ])
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
