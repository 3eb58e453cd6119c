import { rertEndpoints as E } from '@vpp/shared/rert/endpoints';
import { caller } from '../../platform/guard.ts';
import { type App, route } from '../../platform/http.ts';
import * as d from '../dispatches/index.ts';
import * as service from './rert.service.ts';

const ok = { status: 'OK' as const };

export function rertRoutes(app: App) {
  // A RERT dispatch is read as any dispatch is, under its own paths and permissions.
  d.dispatchReadRoutes(app, E, d.RERT_EVENT);
  route(app, E.create, async (req) => ({ ...ok, data: await service.createRert(app.ctx, caller(req), req.body) }));
  route(app, E.reschedule, async (req) => ({ ...ok, data: await service.rescheduleRert(app.ctx, caller(req), req.params.id, req.body) }));
  route(app, E.cancel, async (req) => {
    await service.cancelRert(app.ctx, caller(req), req.params.id);
    return ok;
  });
}
