import { planEndpoints } from '@vpp/shared/plans/endpoints';
import type { FeatureModule } from '../../platform/module.ts';
import { plansRoutes } from './plans.routes.ts';
import { seedDemoPlans } from './plans.seed.ts';

import './plans.tables.ts';

export { findPlan, plansOfNetwork, planVersions, type StoredPrices, type VersionRow } from './plans.repo.ts';
export { presentPlan } from './plans.service.ts';

/** Retail plans (tariffs) with their versions, and the operational networks they are for. */
export const plansModule: FeatureModule = { name: 'plans', endpoints: [planEndpoints], routes: plansRoutes, seedDemo: (ctx, demo) => seedDemoPlans(ctx, demo) };
