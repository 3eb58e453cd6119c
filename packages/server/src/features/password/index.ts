import { passwordEndpoints } from '@vpp/shared/password/endpoints';
import type { FeatureModule } from '../../platform/module.ts';
import { passwordRoutes } from './password.routes.ts';
import './password.settings.ts';

export { issuePasswordLink } from './password.service.ts';
export type { PasswordTokenTable } from './password.tables.ts';

/** Reset and set-password links, and changing one's own password. */
export const passwordModule: FeatureModule = { name: 'password', endpoints: [passwordEndpoints], routes: passwordRoutes };
