import { markAllBody, notificationParams, notificationReply, notificationsQuery, notificationsReply, statusReply } from '@vpp/shared';
import type { App } from '../../app.ts';
import { caller } from '../../platform/guard.ts';
import * as service from './notifications.service.ts';

// A user's own notifications: any signed-in user, and only theirs.
export async function notificationsRoutes(app: App) {
  app.get(
    '/account/notifications',
    {
      config: { permission: null },
      schema: {
        tags: ['notifications'],
        summary: 'The caller’s notifications, newest first, with the unread count',
        querystring: notificationsQuery,
        response: { 200: notificationsReply },
      },
    },
    async (req) => ({ status: 'OK' as const, data: await service.listNotifications(app.ctx, caller(req).id, req.query) }),
  );

  app.put(
    '/account/notifications',
    {
      config: { permission: null },
      schema: { tags: ['notifications'], summary: 'Mark every notification read', body: markAllBody, response: { 200: statusReply } },
    },
    async (req) => {
      await service.markAllRead(app.ctx, caller(req).id);
      return { status: 'OK' as const };
    },
  );

  app.get(
    '/account/notifications/:id',
    {
      config: { permission: null },
      schema: { tags: ['notifications'], summary: 'One notification', params: notificationParams, response: { 200: notificationReply } },
    },
    async (req) => ({ status: 'OK' as const, data: await service.getNotification(app.ctx, caller(req).id, req.params.id) }),
  );

  for (const [path, read] of [
    ['mark-read', true],
    ['mark-unread', false],
  ] as const) {
    app.post(
      `/account/notifications/:id/${path}`,
      {
        config: { permission: null },
        schema: {
          tags: ['notifications'],
          summary: `Mark a notification ${read ? 'read' : 'unread'}`,
          params: notificationParams,
          response: { 200: statusReply },
        },
      },
      async (req) => {
        await service.setRead(app.ctx, caller(req).id, req.params.id, read);
        return { status: 'OK' as const };
      },
    );
  }
}
