import type { FeatureModule } from '../../platform/module.ts';
import { vppsRoutes } from './vpps.routes.ts';
import { seedDemoVpps } from './vpps.seed.ts';

/** Virtual power plants: building them from the fleet, their events and their data. */
export const vppsModule: FeatureModule = { name: 'vpps', routes: vppsRoutes, seedDemo: (ctx, demo) => seedDemoVpps(ctx.db, demo.orgs) };
