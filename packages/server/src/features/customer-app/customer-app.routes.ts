import { customerAppEndpoints as E } from '@vpp/shared/customer-app/endpoints';
import { caller } from '../../platform/guard.ts';
import { type App, route } from '../../platform/http.ts';
import * as service from './customer-app.service.ts';

const ok = { status: 'OK' as const };

export function customerAppRoutes(app: App) {
  route(app, E.messages, async (req) => ({ ...ok, data: await service.appMessages(app.ctx, req.headers.authorization) }));
  route(app, E.delivered, async (req) => ({ ...ok, data: await service.markDelivered(app.ctx, req.headers.authorization, req.params.event) }));
  route(app, E.read, async (req) => ({ ...ok, data: await service.markRead(app.ctx, req.headers.authorization, req.params.event) }));
  route(app, E.optOut, async (req) => ({ ...ok, data: await service.optOut(app.ctx, req.headers.authorization, req.params.event) }));
  route(app, E.receipts, async (req) => ({ ...ok, data: await service.eventReceipts(app.ctx, caller(req), req.params.id, req.query) }));
}
