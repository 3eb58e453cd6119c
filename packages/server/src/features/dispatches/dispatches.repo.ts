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
 * up to PAGE nodes, keyset pages beyond (a covering index, migration 010, serves it).
 */
export async function reportingNodes(db: Database, ps: PowerstationRow, now: number): Promise<NodeStateRow[]> {
  return readInIdPages(async (after, size) => {
    const rows = await reporting(db, ps, now, after)
      .select([
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
      .orderBy('nodes.id')
      .limit(size)
      .execute();
    return rows.map((r) => ({ ...r, ts: Number(r.ts) }));
  }, PAGE);
}

/** A reporting member node's battery: the constraints need no more. */
export type BatteryRow = Pick<NodeStateRow, 'id' | 'inverter_kw' | 'battery_usable_kwh' | 'battery_kw' | 'remaining'>;

/** The reporting member nodes that have a battery, with its power, usable and stored energy. */
export async function reportingBatteries(db: Database, ps: PowerstationRow, now: number): Promise<BatteryRow[]> {
  return readInIdPages(
    (after, size) =>
      reporting(db, ps, now, after)
        .select(['nodes.inverter_kw', 'nodes.battery_usable_kwh', 'nodes.battery_kw', 'l.remaining'])
        .where('nodes.battery_usable_kwh', '>', 0)
        .where('nodes.battery_kw', '>', 0)
        .orderBy('nodes.id')
        .limit(size)
        .execute(),
    PAGE,
  );
}

/** A VPP of up to this many nodes is read in one query; larger ones in keyset pages. */
const PAGE = 20_000;

/** Commissioned member nodes, online, with a reading within REPORTING_WINDOW_S of `now`, after an id. */
function reporting(db: Database, ps: PowerstationRow, now: number, after: number) {
  return memberNodes(db, ps)
    .innerJoin('tel_latest as l', 'l.node_id', 'nodes.id')
    .select('nodes.id')
    .where('nodes.unit_state', '=', 'COMMISSIONED')
    .where('nodes.connection_offline', '=', 0)
    .where('l.ts', '>=', now - REPORTING_WINDOW_S)
    .where('nodes.id', '>', after);
}
