import { tradingEndpoints } from '@vpp/shared/trading/schemas';
import { z } from 'zod';
import { nowS } from '../../db/database.ts';
import { defineJob, type Recurring } from '../../platform/jobs.ts';
import type { FeatureModule } from '../../platform/module.ts';
import { tradingRoutes } from './trading.routes.ts';
import { seedDemoTrading } from './trading.seed.ts';
import { backtestJob, runTrading } from './trading.service.ts';

import './trading.tables.ts';

export { type BacktestResult, type BacktestStore, backtest, type StrategyResult } from './trading.backtest.ts';
export { type Plan, PlanError, type PlanProblem, plan } from './trading.optimiser.ts';
export { savePolicy } from './trading.repo.ts';
export { backtestVpp, makePlan, runTrading, tradingPolicyOf, type VppStore, vppStore } from './trading.service.ts';

const tradingJob = defineJob('trading', z.object({ at: z.number() }), async (ctx, payload) => {
  await runTrading(ctx, Math.max(payload.at, nowS()));
});

/** Every minute: each automatic VPP is re-planned when its plan is 5 minutes old, or at once on a price spike. */
const TRADING_RECURRING: Recurring = { kind: tradingJob.kind, periodS: 60 };

/** Automatic trading (issue 35): a VPP's policy, its plan against the price forecast, and the dispatches the plan makes. */
export const tradingModule: FeatureModule = {
  name: 'trading',
  endpoints: [tradingEndpoints],
  routes: tradingRoutes,
  jobs: [tradingJob, backtestJob],
  recurring: [TRADING_RECURRING],
  seedDemo: seedDemoTrading,
};
