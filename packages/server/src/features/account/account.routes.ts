import { accountEndpoints as E } from '@vpp/shared/account/endpoints';
import { caller } from '../../platform/guard.ts';
import { type App, route } from '../../platform/http.ts';
import * as service from './account.service.ts';

export function accountRoutes(app: App) {
  route(app, E.get, async (req) => ({ status: 'OK' as const, data: service.presentAccount(caller(req)) }));
  route(app, E.setTimezone, async (req) => {
    await service.setTimezone(app.ctx, caller(req).id, req.query.timezone);
    return { status: 'OK' as const };
  });
  route(app, E.setAlertEmail, async (req) => {
    await service.setAlertEmailFrequency(app.ctx, caller(req).id, req.query.frequency);
    return { status: 'OK' as const };
  });
  route(app, E.mfaSettings, async (req) => ({ status: 'OK' as const, data: service.presentMfaSettings(caller(req)) }));
  route(app, E.setCodePreference, async (req) => {
    await service.setCodePreference(app.ctx, caller(req).id, req.body.codePreference);
    return { status: 'OK' as const };
  });
}
