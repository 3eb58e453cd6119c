import { customerEndpoints } from '@vpp/shared/customers/endpoints';
import type { FeatureModule } from '../../platform/module.ts';
import { customersRoutes } from './customers.routes.ts';

export { assignPlan, newCustomerCount, signAgreement } from './customers.repo.ts';
export { enrolDemoCustomers } from './customers.seed.ts';
export { customerPage, localDate } from './customers.service.ts';

/** Customers: the organisation's fleet by NMI, with agreements, capabilities, plans and bill estimates. */
export const customersModule: FeatureModule = { name: 'customers', endpoints: [customerEndpoints], routes: customersRoutes };
