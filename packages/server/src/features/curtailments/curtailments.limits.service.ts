import { MAX_EPOCH_S } from '@vpp/shared/api/inputs';
import type { Database } from '../../db/database.ts';
import { endCommands, type NewCommand, sendCommands } from '../../devices/index.ts';
import type { PowerstationRow } from '../vpps/index.ts';
import * as repo from './curtailments.limits.repo.ts';

// How a VPP limit becomes per-node limits, shared by curtailments (events) and default setpoints
// (standing limits): the split, the nodes it goes to, and the orders in the fleet control interface.

/** A curtailable node: commissioned, with solar behind an inverter; its capacity is what it can export or generate (kW). */
export interface CurtailableNode {
  id: number;
  capacityKw: number;
}

/** The most a node's solar can put out, kW: its panels or its inverter, the smaller. */
const capacity = (r: { solar_kw: number; inverter_kw: number }) => Math.max(0, Math.min(r.solar_kw, r.inverter_kw));

/** The VPP's nodes that can hold a limit of a direction, and the capacity of each: its solar (export) or its battery's power (import). */
async function limitNodes(db: Database, ps: PowerstationRow, direction: repo.LimitDirection, now?: number): Promise<CurtailableNode[]> {
  const rows = await repo.holderRows(db, ps, direction, now);
  return rows.map((r) => ({ id: r.id, capacityKw: direction === 'export' ? capacity(r) : r.battery_kw }));
}

/** The VPP's curtailable nodes, in id order. */
export const curtailableNodes = (db: Database, ps: PowerstationRow) => limitNodes(db, ps, 'export');

/**
 * The VPP's homes with a battery, the nodes of an import limit: its capacity is the battery's power
 * (what it can take off the import, by charging less and then discharging).
 */
export const batteryHomes = (db: Database, ps: PowerstationRow) => limitNodes(db, ps, 'import');

/** The VPP's homes with a battery that are reporting now: those an import limit can reach. */
export const reportingBatteryHomes = (db: Database, ps: PowerstationRow, now: number) => limitNodes(db, ps, 'import', now);

/** The VPP's curtailable nodes that are reporting now (a reading within REPORTING_WINDOW_S): those a limit can reach. */
export const reportingCurtailable = (db: Database, ps: PowerstationRow, now: number) => limitNodes(db, ps, 'export', now);

/**
 * The curtailment constraint (spec 3 §3.6): minus the summed capacity of the VPP's curtailable nodes,
 * rounded toward zero to the 0.1 kW step, 0 when it has none. It is the most the VPP's solar can
 * put out (and so export): a limit below it never binds, and every limit from it to 0 can be held,
 * the batteries soaking up the surplus first (net) and the solar curtailed for the rest, down to
 * no export at all.
 */
export async function curtailmentConstraint(db: Database, ps: PowerstationRow): Promise<{ constraint: number; deploymentsCurtailable: number }> {
  const r = await repo.curtailableCapacity(db, ps);
  return { constraint: -Math.floor(r.kw * 10 + 1e-9) / 10 || 0, deploymentsCurtailable: r.n };
}

/**
 * Splits a VPP limit (kW, 0 or more) among nodes in proportion to their capacity, each share rounded
 * down to the watt, so the shares never add up to more than the limit.
 */
export function splitLimit(limitKw: number, nodes: readonly CurtailableNode[]): Map<number, number> {
  const total = nodes.reduce((a, n) => a + n.capacityKw, 0);
  return new Map(nodes.map((n) => [n.id, total > 0 ? Math.floor((limitKw * n.capacityKw * 1000) / total + 1e-9) / 1000 : 0]));
}

/** What a source limits, and how its orders look. */
export interface LimitPlan {
  /** `curtailment:{id}` or `setpoint:{id}`. */
  source: string;
  /** The organisation whose limit it is. */
  organisationId: number;
  /** VPP limits, kW (0 or more); null: none in that mode. */
  netKw: number | null;
  grossKw: number | null;
  /** The VPP's maximum net import, kW (0 or more), split among its homes with a battery; null: none. */
  importKw: number | null;
  /** When the limit ends (a setpoint stands until another replaces it). */
  end: number;
  /** A default setpoint (CSIP-AUS DefaultDERControl) rather than an event. */
  standing: boolean;
  /** Seconds a new standing limit takes to move to its value. */
  rampS: number;
  /** Each node's previous standing limits, the ramp's starting point (standing only). */
  rampFrom?: ReadonlyMap<number, { net: number | null; gross: number | null }>;
}

/** Per-node orders of a plan from `from`: one export_limit per export mode the plan limits, an import_limit for its import. */
function commandsOf(plan: LimitPlan, shares: Shares, from: number, ramp: boolean): NewCommand[] {
  const out: NewCommand[] = [];
  for (const [nodeId, s] of shares) {
    if (s.import !== null) out.push({ nodeId, start: from, end: plan.end, spec: { kind: 'import_limit', kw: s.import }, source: plan.source });
    for (const mode of ['net', 'gross'] as const) {
      const kw = s[mode];
      if (kw === null) continue;
      const spec = plan.standing
        ? { kind: 'export_limit' as const, kw, mode, standing: true, rampS: ramp ? plan.rampS : 0, rampFromKw: plan.rampFrom?.get(nodeId)?.[mode] ?? null }
        : { kind: 'export_limit' as const, kw, mode };
      out.push({ nodeId, start: from, end: plan.end, spec, source: plan.source });
    }
  }
  return out;
}

/** Each node's shares of the plan's limits among `nodes`. */
function sharesOf(plan: LimitPlan, nodes: readonly CurtailableNode[]) {
  const net = plan.netKw === null ? null : splitLimit(plan.netKw, nodes);
  const gross = plan.grossKw === null ? null : splitLimit(plan.grossKw, nodes);
  const imp = plan.importKw === null ? null : splitLimit(plan.importKw, nodes);
  return new Map(nodes.map((n) => [n.id, { net: net?.get(n.id) ?? null, gross: gross?.get(n.id) ?? null, import: imp?.get(n.id) ?? null }]));
}

/** A node's shares of a plan's limits, kW (null: none in that mode). */
export interface Share {
  net: number | null;
  gross: number | null;
  import: number | null;
}
/** Each node's shares of a plan's limits, kW. */
export type Shares = ReadonlyMap<number, Share>;

/**
 * Sends a plan's per-node limits to `nodes` from `from` (the first time: with the ramp) and records
 * them; nodes recorded before and not among `nodes` are marked dropped. Returns the shares sent.
 */
export async function sendLimits(db: Database, plan: LimitPlan, nodes: readonly CurtailableNode[], from: number): Promise<Shares> {
  const shares = sharesOf(plan, nodes);
  // Every node recorded so far is dropped, then those sent to are recorded afresh.
  await repo.dropAll(db, plan.source, from);
  await repo.storeShares(db, plan.source, shares, from);
  await sendCommands(db, commandsOf(plan, shares, from, true), { organisationId: plan.organisationId });
  return shares;
}

/**
 * Once per 5 minutes while a plan is in force: when the nodes reporting differ from those holding its
 * limits, the nodes that stopped are dropped (their limits ended) and the VPP limit is split again
 * among those reporting, whose limits are replaced from `now` (newcomers included), so that the
 * shares of the nodes that report add up to the VPP limit. Returns the nodes newly given a limit.
 */
export async function resplit(
  db: Database,
  plan: LimitPlan,
  reporting: readonly CurtailableNode[],
  now: number,
): Promise<{ added: number[]; dropped: number[]; shares: Shares }> {
  const held = await repo.heldRows(db, plan.source);
  const heldIds = new Set(held.map((h) => h.node_id));
  const reportingIds = new Set(reporting.map((n) => n.id));
  const dropped = held.filter((h) => !reportingIds.has(h.node_id)).map((h) => h.node_id);
  const added = reporting.filter((n) => !heldIds.has(n.id)).map((n) => n.id);
  if (!dropped.length && !added.length) return { added, dropped, shares: new Map() };
  await endCommands(db, plan.source, now, dropped);
  await repo.dropNodes(db, plan.source, dropped, now);
  if (!reporting.length) return { added, dropped, shares: new Map() };
  const shares = sharesOf(plan, reporting);
  const before = new Map(held.map((h) => [h.node_id, { net: h.net_kw, gross: h.gross_kw, import: h.import_kw }]));
  // Only the nodes whose share changed get new orders.
  const changed = new Map(
    [...shares].filter(([id, s]) => before.get(id)?.net !== s.net || before.get(id)?.gross !== s.gross || before.get(id)?.import !== s.import),
  );
  await endCommands(
    db,
    plan.source,
    now,
    [...changed.keys()].filter((id) => heldIds.has(id)),
  );
  await repo.storeShares(db, plan.source, changed, now);
  await sendCommands(db, commandsOf(plan, changed, now, false), { organisationId: plan.organisationId });
  return { added, dropped, shares };
}

/** Each node's current shares of a source (the nodes not dropped). */
export async function heldShares(db: Database, source: string): Promise<Map<number, Share>> {
  const rows = await repo.heldRows(db, source);
  return new Map(rows.map((r) => [r.node_id, { net: r.net_kw, gross: r.gross_kw, import: r.import_kw }]));
}

/** A standing limit lasts until a newer one replaces it: its orders run to the end of the accepted time range. */
export const STANDING_END = MAX_EPOCH_S;
