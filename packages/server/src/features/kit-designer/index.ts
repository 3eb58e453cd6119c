import { kitDesignerEndpoints } from '@vpp/shared/kit-designer/endpoints';
import type { FeatureModule } from '../../platform/module.ts';
import { setOrderingEmail } from './kit-designer.repo.ts';
import { kitDesignerRoutes } from './kit-designer.routes.ts';

export type { KitBatteryTypeTable, KitInverterBatteryTable, KitInverterTypeTable } from './kit-designer.tables.ts';

/** The kit designer: the catalogue, the design rules and the order e-mail (spec 2 §2 to §8). */
export const kitDesignerModule: FeatureModule = {
  name: 'kit-designer',
  endpoints: [kitDesignerEndpoints],
  routes: kitDesignerRoutes,
  // The demo installer's orders also go to its warehouse desk.
  async seedDemo(ctx, demo) {
    if (demo.orgs.installer) await setOrderingEmail(ctx.db, demo.orgs.installer, 'orders@bright-installations.example');
  },
};
