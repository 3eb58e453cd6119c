import { kitDesignerEndpoints as E } from '@vpp/shared/kit-designer/endpoints';
import { caller } from '../../platform/guard.ts';
import { type App, route } from '../../platform/http.ts';
import * as service from './kit-designer.service.ts';

export function kitDesignerRoutes(app: App) {
  route(app, E.options, async (req) => ({ status: 'OK' as const, data: await service.options(app.ctx, req.query) }));
  route(app, E.design, async (req) => ({ status: 'OK' as const, data: await service.design(app.ctx, req.body) }));
  route(app, E.email, async (req) => ({ status: 'OK' as const, data: await service.email(app.ctx, caller(req), req.body) }));
}
