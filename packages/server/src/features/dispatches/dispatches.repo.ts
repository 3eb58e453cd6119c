import { type Database, readInIdPages } from '../../db/database.ts';
import { memberNodes, type PowerstationRow } from '../vpps/index.ts';

/** A node last heard from longer ago than this is not reporting: it cannot receive an order in time. */
export const REPORTING_WINDOW_S = 900;

/** One member node's equipment and state, as the constraints and the forecast need them. */
export interface NodeStateRow {
  id: number;
  lat: number;
  lng: number;
  region: string;
  timezone: string;
  solar_kw: number;
  inverter_kw: number;
  battery_usable_kwh: number;
  battery_kw: number;
  sim_json: string;
  ts: number;
  remaining: number | null;
}

/**
 * The VPP's commissioned member nodes that are reporting (online, a reading within
 * REPORTING_WINDOW_S of `now`), with their equipment and latest stored energy: one query for a VPP of
 * up to 20,000 nodes, keyset pages beyond.
 */
export async function reportingNodes(db: Database, ps: PowerstationRow, now: number, opts: { batteriesOnly: boolean }): Promise<NodeStateRow[]> {
  return readInIdPages(async (after, size) => {
    let q = memberNodes(db, ps)
      .innerJoin('tel_latest as l', 'l.node_id', 'nodes.id')
      .select([
        'nodes.id',
        'nodes.lat',
        'nodes.lng',
        'nodes.region',
        'nodes.timezone',
        'nodes.solar_kw',
        'nodes.inverter_kw',
        'nodes.battery_usable_kwh',
        'nodes.battery_kw',
        'nodes.sim_json',
        'l.ts',
        'l.remaining',
      ])
      .where('nodes.unit_state', '=', 'COMMISSIONED')
      .where('nodes.connection_offline', '=', 0)
      .where('l.ts', '>=', now - REPORTING_WINDOW_S)
      .where('nodes.id', '>', after);
    if (opts.batteriesOnly) q = q.where('nodes.battery_usable_kwh', '>', 0).where('nodes.battery_kw', '>', 0);
    const rows = await q.orderBy('nodes.id').limit(size).execute();
    return rows.map((r) => ({ ...r, ts: Number(r.ts) }));
  }, 20_000);
}
