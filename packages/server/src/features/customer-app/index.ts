import { customerAppEndpoints } from '@vpp/shared/customer-app/endpoints';
import type { FeatureModule } from '../../platform/module.ts';
import { customerAppRoutes } from './customer-app.routes.ts';
import './customer-app.tables.ts';

/**
 * The customer app's side (issue 34 item 12): a home's app, paired by a node token, reads the
 * messages of the events its node takes part in, acknowledges them delivered and read and opts out of dispatches, RERT
 * dispatches and grid outages; the console reads what became of each node's copy.
 */
export const customerAppModule: FeatureModule = { name: 'customer-app', endpoints: [customerAppEndpoints], routes: customerAppRoutes };
