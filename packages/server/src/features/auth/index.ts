import { authEndpoints } from '@vpp/shared/auth/endpoints';
import type { FeatureModule } from '../../platform/module.ts';
import { authRoutes } from './auth.routes.ts';

export { countFailures, findUserById, findUserByLogin, getPermissions, recordFailures, revokeDevices, sessionEnded, updateUser } from './auth.repo.ts';
export { assertAttemptsLeft, callerOf, clearAllFailedAttempts, recordFailedAttempt, sessionCaller } from './auth.service.ts';
export type { LoginFailureTable, MfaPendingTokenTable, RefreshTokenTable, RememberedDeviceTable } from './auth.tables.ts';

/** Signing in and out, and who a caller is: the identity every other area relies on. */
export const authModule: FeatureModule = { name: 'auth', endpoints: [authEndpoints], routes: authRoutes };
