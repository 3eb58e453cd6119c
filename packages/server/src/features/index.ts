import { devicesModule } from '../devices/index.ts';
import type { AppContext } from '../platform/context.ts';
import type { Authenticator } from '../platform/guard.ts';
import type { DemoSeed, FeatureModule } from '../platform/module.ts';
import { telemetryModule } from '../telemetry/index.ts';
import { accountModule } from './account/index.ts';
import { apiKeyCaller, apiKeysModule, isApiKey } from './api-keys/index.ts';
import { authModule, callerOf, sessionCaller } from './auth/index.ts';
import { billingModule } from './billing/index.ts';
import { curtailmentsModule } from './curtailments/index.ts';
import { customersModule } from './customers/index.ts';
import { dashboardModule } from './dashboard/index.ts';
import { dispatchesModule } from './dispatches/index.ts';
import { eventsModule } from './events/index.ts';
import { exportsModule } from './exports/index.ts';
import { kitDesignerModule } from './kit-designer/index.ts';
import { marketModule } from './market/index.ts';
import { nodesModule } from './nodes/index.ts';
import { notificationsModule } from './notifications/index.ts';
import { openadrModule } from './openadr/index.ts';
import { outagesModule } from './outages/index.ts';
import { passwordModule } from './password/index.ts';
import { plansModule } from './plans/index.ts';
import { portalModule } from './portal/index.ts';
import { rertModule } from './rert/index.ts';
import { supportModule } from './support/index.ts';
import { tradingModule } from './trading/index.ts';
import { anyOrganisation, usersModule } from './users/index.ts';
import { vppsModule } from './vpps/index.ts';

/**
 * Every area of the server: the app registers their routes, the worker runs their jobs and the
 * demo seeds them in this order (users first: the later areas seed into its organisations).
 */
export const FEATURES: readonly FeatureModule[] = [
  authModule,
  accountModule,
  apiKeysModule,
  passwordModule,
  usersModule,
  notificationsModule,
  telemetryModule,
  nodesModule,
  devicesModule,
  portalModule,
  dashboardModule,
  vppsModule,
  eventsModule,
  marketModule,
  dispatchesModule,
  outagesModule,
  curtailmentsModule,
  rertModule,
  tradingModule,
  supportModule,
  kitDesignerModule,
  plansModule,
  customersModule,
  billingModule,
  exportsModule,
  openadrModule,
];

/** Who calls: sessions are the auth area's, API keys the api-keys area's. */
export const AUTHENTICATOR: Authenticator = {
  isApiKey,
  apiKey: apiKeyCaller,
  session: sessionCaller,
  downloadUser: (ctx, userId) => callerOf(ctx, userId, 'done', { kind: 'download' }),
};

/** Creates the demo on a database's first start; a database that has organisations is left alone. */
export async function seedDemo(ctx: AppContext): Promise<void> {
  if (await anyOrganisation(ctx.db)) return;
  const demo: DemoSeed = { orgs: {} };
  for (const f of FEATURES) await f.seedDemo?.(ctx, demo);
}
