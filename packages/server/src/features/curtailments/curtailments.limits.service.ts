import { MAX_EPOCH_S } from '@vpp/shared';
import type { Database } from '../../db/database.ts';
import { endCommands, type NewCommand, sendCommands } from '../../fleet/control.ts';
import { REPORTING_WINDOW_S } from '../dispatches/index.ts';
import { memberNodes, type PowerstationRow } from '../vpps/index.ts';

// How a VPP limit becomes per-node limits, shared by curtailments (events) and default setpoints
// (standing limits): the split, the nodes it goes to, and the orders in the fleet control interface.

/** A curtailable node: commissioned, with solar behind an inverter; its capacity is what it can export or generate (kW). */
export interface CurtailableNode {
  id: number;
  capacityKw: number;
}

/** The most a node's solar can put out, kW: its panels or its inverter, the smaller. */
const capacity = (r: { solar_kw: number; inverter_kw: number }) => Math.max(0, Math.min(r.solar_kw, r.inverter_kw));

function curtailable(db: Database, ps: PowerstationRow) {
  return memberNodes(db, ps)
    .select(['nodes.id', 'nodes.solar_kw', 'nodes.inverter_kw'])
    .where('nodes.unit_state', '=', 'COMMISSIONED')
    .where('nodes.solar_kw', '>', 0)
    .where('nodes.inverter_kw', '>', 0);
}

/** The VPP's curtailable nodes, in id order. */
export async function curtailableNodes(db: Database, ps: PowerstationRow): Promise<CurtailableNode[]> {
  const rows = await curtailable(db, ps).orderBy('nodes.id').execute();
  return rows.map((r) => ({ id: r.id, capacityKw: capacity(r) }));
}

/** The VPP's curtailable nodes that are reporting now (a reading within REPORTING_WINDOW_S): those a limit can reach. */
export async function reportingCurtailable(db: Database, ps: PowerstationRow, now: number): Promise<CurtailableNode[]> {
  const rows = await curtailable(db, ps)
    .innerJoin('tel_latest as l', 'l.node_id', 'nodes.id')
    .where('nodes.connection_offline', '=', 0)
    .where('l.ts', '>=', now - REPORTING_WINDOW_S)
    .orderBy('nodes.id')
    .execute();
  return rows.map((r) => ({ id: r.id, capacityKw: capacity(r) }));
}

/**
 * The curtailment constraint (spec 3 §3.6): minus the summed capacity of the VPP's curtailable nodes,
 * rounded toward zero to the 0.1 kW step, 0 when it has none. It is the most the VPP's solar can
 * put out (and so export): a limit below it never binds, and every limit from it to 0 can be held,
 * the batteries soaking up the surplus first (net) and the solar curtailed for the rest, down to
 * no export at all.
 */
export async function curtailmentConstraint(db: Database, ps: PowerstationRow): Promise<{ constraint: number; deploymentsCurtailable: number }> {
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
  const kw = Number(r.kw ?? 0);
  return { constraint: -Math.floor(kw * 10 + 1e-9) / 10 || 0, deploymentsCurtailable: Number(r.n) };
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
  /** When the limit ends (a setpoint stands until another replaces it). */
  end: number;
  /** A default setpoint (CSIP-AUS DefaultDERControl) rather than an event. */
  standing: boolean;
  /** Seconds a new standing limit takes to move to its value. */
  rampS: number;
  /** Each node's previous standing limits, the ramp's starting point (standing only). */
  rampFrom?: ReadonlyMap<number, { net: number | null; gross: number | null }>;
}

/** Per-node orders of a plan from `from`: one export_limit per mode the plan limits. */
function commandsOf(plan: LimitPlan, shares: ReadonlyMap<number, { net: number | null; gross: number | null }>, from: number, ramp: boolean): NewCommand[] {
  const out: NewCommand[] = [];
  for (const [nodeId, s] of shares) {
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
  return new Map(nodes.map((n) => [n.id, { net: net?.get(n.id) ?? null, gross: gross?.get(n.id) ?? null }]));
}

/** Each node's shares of a plan's limits, kW. */
export type Shares = ReadonlyMap<number, { net: number | null; gross: number | null }>;

/**
 * Sends a plan's per-node limits to `nodes` from `from` (the first time: with the ramp) and records
 * them; nodes recorded before and not among `nodes` are marked dropped. Returns the shares sent.
 */
export async function sendLimits(db: Database, plan: LimitPlan, nodes: readonly CurtailableNode[], from: number): Promise<Shares> {
  const shares = sharesOf(plan, nodes);
  // Every node recorded so far is dropped, then those sent to are recorded afresh.
  await db.updateTable('limit_nodes').set({ dropped_at: from }).where('source', '=', plan.source).where('dropped_at', 'is', null).execute();
  await storeShares(db, plan.source, shares, from);
  await sendCommands(db, commandsOf(plan, shares, from, true), { organisationId: plan.organisationId });
  return shares;
}

/** Records nodes' shares (replacing their earlier rows, a dropped node's included). */
async function storeShares(db: Database, source: string, shares: ReadonlyMap<number, { net: number | null; gross: number | null }>, at: number) {
  const entries = [...shares];
  for (let i = 0; i < entries.length; i += 1000) {
    const chunk = entries.slice(i, i + 1000);
    await db
      .insertInto('limit_nodes')
      .values(chunk.map(([id, s]) => ({ source, node_id: id, net_kw: s.net, gross_kw: s.gross, orders_sent_at: at, dropped_at: null })))
      .onConflict((oc) =>
        oc.columns(['source', 'node_id']).doUpdateSet((eb) => ({
          net_kw: eb.ref('excluded.net_kw'),
          gross_kw: eb.ref('excluded.gross_kw'),
          orders_sent_at: eb.ref('excluded.orders_sent_at'),
          dropped_at: null,
        })),
      )
      .execute();
  }
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
  const held = await db
    .selectFrom('limit_nodes')
    .select(['node_id', 'net_kw', 'gross_kw'])
    .where('source', '=', plan.source)
    .where('dropped_at', 'is', null)
    .execute();
  const heldIds = new Set(held.map((h) => h.node_id));
  const reportingIds = new Set(reporting.map((n) => n.id));
  const dropped = held.filter((h) => !reportingIds.has(h.node_id)).map((h) => h.node_id);
  const added = reporting.filter((n) => !heldIds.has(n.id)).map((n) => n.id);
  if (!dropped.length && !added.length) return { added, dropped, shares: new Map() };
  await endCommands(db, plan.source, now, dropped);
  for (let i = 0; i < dropped.length; i += 1000)
    await db
      .updateTable('limit_nodes')
      .set({ dropped_at: now })
      .where('source', '=', plan.source)
      .where('node_id', 'in', dropped.slice(i, i + 1000))
      .execute();
  if (!reporting.length) return { added, dropped, shares: new Map() };
  const shares = sharesOf(plan, reporting);
  const before = new Map(held.map((h) => [h.node_id, { net: h.net_kw, gross: h.gross_kw }]));
  // Only the nodes whose share changed get new orders.
  const changed = new Map([...shares].filter(([id, s]) => before.get(id)?.net !== s.net || before.get(id)?.gross !== s.gross));
  await endCommands(
    db,
    plan.source,
    now,
    [...changed.keys()].filter((id) => heldIds.has(id)),
  );
  await storeShares(db, plan.source, changed, now);
  await sendCommands(db, commandsOf(plan, changed, now, false), { organisationId: plan.organisationId });
  return { added, dropped, shares };
}

/** Each node's current shares of a source (the nodes not dropped). */
export async function heldShares(db: Database, source: string): Promise<Map<number, { net: number | null; gross: number | null }>> {
  const rows = await db
    .selectFrom('limit_nodes')
    .select(['node_id', 'net_kw', 'gross_kw'])
    .where('source', '=', source)
    .where('dropped_at', 'is', null)
    .execute();
  return new Map(rows.map((r) => [r.node_id, { net: r.net_kw, gross: r.gross_kw }]));
}

/** A standing limit lasts until a newer one replaces it: its orders run to the end of the accepted time range. */
export const STANDING_END = MAX_EPOCH_S;
