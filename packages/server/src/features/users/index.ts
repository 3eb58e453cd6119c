import { userEndpoints } from '@vpp/shared/users/endpoints';
import type { FeatureModule } from '../../platform/module.ts';
import { usersRoutes } from './users.routes.ts';
import { seedDemoAccounts } from './users.seed.ts';
import './users.settings.ts';

export { anyOrganisation, createOrganisation, createUser } from './users.repo.ts';

/** Organisations and their users: managed by the organisation's users managers. */
export const usersModule: FeatureModule = { name: 'users', endpoints: [userEndpoints], routes: usersRoutes, seedDemo: seedDemoAccounts };
