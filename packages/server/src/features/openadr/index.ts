import { openadrEndpoints } from '@vpp/shared/openadr/endpoints';
import type { App } from '../../platform/http.ts';
import type { FeatureModule } from '../../platform/module.ts';
import { useExternalResponses } from '../dispatches/index.ts';
import { venDeliveries } from './openadr.fleet.service.ts';
import { deliverNotificationJob, SCAN_RECURRING, scanChangesJob, VEN_SYNC_RECURRING, venSyncJob } from './openadr.jobs.ts';
import { openadrConsoleRoutes, venCallbackRoute, vtnRoutes } from './openadr.routes.ts';
import './openadr.settings.ts';

export type { OadrReportTable, OadrResourceTable, OadrSubscriptionTable, OadrVenTable, OadrVenVppTable } from './openadr.tables.ts';

// A VEN's reported deliveries count in a dispatch's response and settlement (issue 31 item 3).
useExternalResponses(venDeliveries);

/**
 * OpenADR 3.0.1 (docs/openadr.md): the console as a VTN at /openadr3/3.0.1. Programs and events are
 * read from the VPPs, events and market prices as they are; VENs, resources, subscriptions and
 * VEN reports are this area's tables; notifications go out through the job queue. With
 * OPENADR_VTN_URL the console is also a VEN of a network's VTN (openadr.ven.service.ts).
 */
export const openadrModule: FeatureModule = {
  name: 'openadr',
  endpoints: [openadrEndpoints],
  routes: async (app: App) => {
    openadrConsoleRoutes(app);
    venCallbackRoute(app);
    await vtnRoutes(app);
  },
  jobs: [deliverNotificationJob, scanChangesJob, venSyncJob],
  recurring: [SCAN_RECURRING, VEN_SYNC_RECURRING],
};
