import { vppEndpoints } from '@vpp/shared/vpps/endpoints';
import type { FeatureModule } from '../../platform/module.ts';
import { vppsRoutes } from './vpps.routes.ts';
import { seedDemoVpps } from './vpps.seed.ts';

export { findPowerstation, memberNodes, ownPowerstationIds, type PowerstationRow, vppNodesDuring } from './vpps.repo.ts';
export { releaseNodes, requirePowerstation } from './vpps.service.ts';
export type { DuidUnitTable, PowerstationPostcodeTable, PowerstationTable, VppNodeTable } from './vpps.tables.ts';

/** Virtual power plants: building them from the fleet, their members and their data. */
export const vppsModule: FeatureModule = {
  name: 'vpps',
  endpoints: [vppEndpoints],
  routes: vppsRoutes,
  seedDemo: (ctx, demo) => seedDemoVpps(ctx.db, demo.orgs),
};
