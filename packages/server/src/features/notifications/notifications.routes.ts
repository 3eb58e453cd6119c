import { notificationEndpoints as E } from '@vpp/shared/notifications/endpoints';
import { caller } from '../../platform/guard.ts';
import { type App, route } from '../../platform/http.ts';
import * as service from './notifications.service.ts';

export function notificationsRoutes(app: App) {
  route(app, E.list, async (req) => ({ status: 'OK' as const, data: await service.listNotifications(app.ctx, caller(req).id, req.query) }));
  route(app, E.markAllRead, async (req) => {
    await service.markAllRead(app.ctx, caller(req).id);
    return { status: 'OK' as const };
  });
  route(app, E.get, async (req) => ({ status: 'OK' as const, data: await service.getNotification(app.ctx, caller(req).id, req.params.id) }));
  route(app, E.markRead, async (req) => {
    await service.setRead(app.ctx, caller(req).id, req.params.id, true);
    return { status: 'OK' as const };
  });
  route(app, E.markUnread, async (req) => {
    await service.setRead(app.ctx, caller(req).id, req.params.id, false);
    return { status: 'OK' as const };
  });
}
