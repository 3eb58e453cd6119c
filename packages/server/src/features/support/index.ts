import { supportEndpoints } from '@vpp/shared/support/endpoints';
import type { FeatureModule } from '../../platform/module.ts';
import { supportRoutes } from './support.routes.ts';
import './support.settings.ts';

export type { SupportRequestTable } from './support.tables.ts';

/** The support page: the external contact form's address, or the console's own form and its requests. */
export const supportModule: FeatureModule = { name: 'support', endpoints: [supportEndpoints], routes: supportRoutes };
