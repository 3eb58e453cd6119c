import { eventEndpoints as E } from '@vpp/shared/events/endpoints';
import { caller } from '../../platform/guard.ts';
import { type App, route } from '../../platform/http.ts';
import * as service from './events.service.ts';

export function eventsRoutes(app: App) {
  route(app, E.ofVpp, async (req) => ({
    status: 'OK' as const,
    events: await service.listEvents(app.ctx, caller(req), { powerstationId: req.params.id, state: req.query.status }),
  }));
  route(app, E.list, async (req) => ({ status: 'OK' as const, events: await service.listEvents(app.ctx, caller(req), { state: req.query.state }) }));
}
