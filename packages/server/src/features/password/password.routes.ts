import { PASSWORD_MESSAGES } from '@vpp/shared/account/password-schemas';
import { passwordEndpoints as E } from '@vpp/shared/password/endpoints';
import { caller } from '../../platform/guard.ts';
import { type App, route } from '../../platform/http.ts';
import * as service from './password.service.ts';

export function passwordRoutes(app: App) {
  route(app, E.requestReset, async (req) => {
    await service.requestReset(app.ctx, req.body.email, req.ip);
    return { status: 'OK' as const, message: PASSWORD_MESSAGES.resetRequested };
  });
  route(app, E.verifyToken, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    return { status: 'OK' as const, ...(await service.verifyToken(app.ctx, req.query.token)) };
  });
  route(app, E.change, async (req) => {
    await service.changePassword(app.ctx, req.query.token, req.body.password);
    return { status: 'OK' as const, message: PASSWORD_MESSAGES.passwordReset };
  });
  route(app, E.disavow, async (req) => {
    await service.disavow(app.ctx, req.query.token, req.ip);
    return { status: 'OK' as const, message: PASSWORD_MESSAGES.disavowed };
  });
  route(app, E.inlineChange, async (req) => {
    await service.inlineChange(app.ctx, caller(req).id, req.body.oldPassword, req.body.newPassword, req.ip);
    return { status: 'OK' as const };
  });
}
