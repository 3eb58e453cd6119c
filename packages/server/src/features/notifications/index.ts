import { notificationEndpoints } from '@vpp/shared/notifications/endpoints';
import type { FeatureModule } from '../../platform/module.ts';
import { notificationsRoutes } from './notifications.routes.ts';
import { DIGEST_RECURRING, digestJob } from './notifications.service.ts';

export { type NotificationContent, notifyOrganisation, notifyUser } from './notifications.service.ts';
export type { NotificationTable } from './notifications.tables.ts';

/** Notifications of a user, and their e-mail digests. */
export const notificationsModule: FeatureModule = {
  name: 'notifications',
  endpoints: [notificationEndpoints],
  routes: notificationsRoutes,
  jobs: [digestJob],
  recurring: [DIGEST_RECURRING],
};
