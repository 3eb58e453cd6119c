import { DEFAULT_TRADING_POLICY } from '@vpp/shared/trading/schemas';
import { nowS } from '../../db/database.ts';
import type { AppContext } from '../../platform/context.ts';
import type { DemoSeed } from '../../platform/module.ts';
import * as repo from './trading.repo.ts';

/** The demo VPP that trades on its own from the first start: the retailer's Queensland VPP, in its demo administrator's name. */
export const DEMO_TRADING_VPP = 'Queensland';

/**
 * Puts the demo's Queensland VPP on an automatic policy with the default limits. The trading job plans
 * it within a minute of the start and dispatches its first block; the demo's evening dispatches on the
 * same VPP stay the operator's own, and the plan works around them. Written as an upsert, so a seed
 * that runs again after a crash leaves one policy. With SIM_DEMO_DISPATCHES=false the demo makes no
 * dispatch of its own, this trader's included: the crash tests dispatch their whole small fleet and
 * were refused, at some hours, because the trader had put its nodes in a dispatch first.
 */
export async function seedDemoTrading(ctx: AppContext, demo: DemoSeed): Promise<void> {
  if (demo.orgs.retailer === undefined || !ctx.config.SIM_DEMO_DISPATCHES) return;
  const found = await repo.demoVppAndUser(ctx.db, demo.orgs.retailer, DEMO_TRADING_VPP, 'retailer');
  if (!found) return;
  const p = DEFAULT_TRADING_POLICY;
  await repo.savePolicy(ctx.db, {
    powerstation_id: found.vppId,
    organisation_id: demo.orgs.retailer,
    mode: 'AUTOMATIC',
    from_hour: p.fromHour,
    to_hour: p.toHour,
    max_power_kw: p.maxPowerKw,
    min_soc_pct: p.minSocPct,
    max_cycles_per_day: p.maxCyclesPerDay,
    degradation_cost: p.degradationCostPerMWh,
    grid_charging: p.gridCharging ? 1 : 0,
    updated_by: found.userId,
    updated_at: nowS(),
    planned_at: null,
    suspended: null,
  });
}
