import { apiKeyEndpoints } from '@vpp/shared/account/endpoints';
import type { FeatureModule } from '../../platform/module.ts';
import { apiKeyRoutes } from './api-keys.routes.ts';

export { keyValid } from './api-keys.repo.ts';
export { apiKeyCaller, isApiKey } from './api-keys.service.ts';
export type { ApiKeyTable } from './api-keys.tables.ts';

/** API keys: created and revoked from a session, then standing in for their owner on every call. */
export const apiKeysModule: FeatureModule = { name: 'api-keys', endpoints: [apiKeyEndpoints], routes: apiKeyRoutes };
