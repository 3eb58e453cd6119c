import { deviceEndpoints as E } from '@vpp/shared/devices/endpoints';
import { caller } from '../platform/guard.ts';
import { type App, route } from '../platform/http.ts';
import * as service from './devices.service.ts';

export function devicesRoutes(app: App) {
  route(app, E.device, async (req) => ({ status: 'OK' as const, data: await service.nodeDevice(app.ctx, caller(req), req.params.id) }));
  route(app, E.issueCredential, async (req) => ({ status: 'OK' as const, data: await service.issueCredential(app.ctx, caller(req), req.params.id) }));
}
