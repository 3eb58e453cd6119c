import { accountEndpoints } from '@vpp/shared/account/endpoints';
import type { FeatureModule } from '../../platform/module.ts';
import { accountRoutes } from './account.routes.ts';

export { checkOwnPassword } from './account.service.ts';

/** The signed-in user's own account: settings and two-factor preferences. */
export const accountModule: FeatureModule = { name: 'account', endpoints: [accountEndpoints], routes: accountRoutes };
