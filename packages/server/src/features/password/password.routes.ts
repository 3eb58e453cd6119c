import {
  changePasswordBody,
  forgotPasswordBody,
  inlineChangeBody,
  messageReply,
  PASSWORD_MESSAGES,
  statusReply,
  tokenQuery,
  verifyTokenReply,
} from '@vpp/shared';
import type { App } from '../../app.ts';
import { caller } from '../../platform/guard.ts';
import * as service from './password.service.ts';

export async function passwordRoutes(app: App) {
  app.post(
    '/password/reset',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['password'],
        summary: 'E-mail a reset link to the account with this address (the reply is the same whether or not one exists)',
        body: forgotPasswordBody,
        response: { 200: messageReply },
      },
    },
    async (req) => {
      await service.requestReset(app.ctx, req.body.email, req.ip);
      return { status: 'OK' as const, message: PASSWORD_MESSAGES.resetRequested };
    },
  );

  app.get(
    '/password/change/verify_token',
    {
      config: { auth: 'public' },
      schema: { tags: ['password'], summary: 'Whether a reset link can still set a password', querystring: tokenQuery, response: { 200: verifyTokenReply } },
    },
    async (req, reply) => {
      reply.header('cache-control', 'no-store');
      return { status: 'OK' as const, valid: await service.verifyToken(app.ctx, req.query.token) };
    },
  );

  app.post(
    '/password/change',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['password'],
        summary: 'Set the password through a reset or set-password link (once); ends all sessions of the account',
        querystring: tokenQuery,
        body: changePasswordBody,
        response: { 200: messageReply },
      },
    },
    async (req) => {
      await service.changePassword(app.ctx, req.query.token, req.body.password);
      return { status: 'OK' as const, message: PASSWORD_MESSAGES.passwordReset };
    },
  );

  app.post(
    '/password/reset/disavow',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['password'],
        summary: "'This was not me': deactivate the link and e-mail support",
        querystring: tokenQuery,
        response: { 200: messageReply },
      },
    },
    async (req) => {
      await service.disavow(app.ctx, req.query.token, req.ip);
      return { status: 'OK' as const, message: PASSWORD_MESSAGES.disavowed };
    },
  );

  app.post(
    '/password/inline-change',
    {
      config: { auth: 'session', permission: null },
      schema: { tags: ['password'], summary: 'Change the signed-in user’s password', body: inlineChangeBody, response: { 200: statusReply } },
    },
    async (req) => {
      await service.inlineChange(app.ctx, caller(req).id, req.body.oldPassword, req.body.newPassword);
      return { status: 'OK' as const };
    },
  );
}
