import { loginBody, loginReply, REMEMBER_DEVICE_S, statusReply, tokenReply, verifyCodeBody } from '@vpp/shared';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import type { App } from '../../app.ts';
import { caller } from '../../platform/guard.ts';
import * as auth from './auth.service.ts';

export const REFRESH_COOKIE = 'vpp_refresh';
export const DEVICE_COOKIE = 'vpp_device';
const COOKIE_PATH = '/auth/';

export async function authRoutes(app: App) {
  const secure = app.ctx.config.COOKIE_SECURE;
  const setRefreshCookie = (reply: FastifyReply, session: auth.Session) =>
    reply.setCookie(REFRESH_COOKIE, session.refreshToken, {
      path: COOKIE_PATH,
      httpOnly: true,
      sameSite: 'strict',
      secure,
      expires: new Date(session.refreshExpiresAt * 1000),
    });

  app.get(
    '/auth/captcha/challenge',
    { config: { auth: 'public' }, schema: { tags: ['auth'], summary: 'A new ALTCHA proof-of-work challenge' } },
    async (_req, reply) => {
      reply.header('cache-control', 'no-store');
      return app.ctx.captcha.challenge();
    },
  );

  app.post(
    '/auth/login/',
    {
      config: { auth: 'public' },
      schema: { tags: ['auth'], summary: 'Sign in with a username or e-mail, a password and a solved captcha', body: loginBody, response: { 200: loginReply } },
    },
    async (req, reply) => {
      const { reply: body, session } = await auth.login(app.ctx, {
        ...req.body,
        address: req.ip,
        deviceCookie: req.cookies[DEVICE_COOKIE],
      });
      if (session) setRefreshCookie(reply, session);
      return body;
    },
  );

  app.post(
    '/auth/mfa/verify-code',
    {
      config: { auth: 'mfa', permission: null },
      schema: { tags: ['auth'], summary: 'Give the authenticator code', body: verifyCodeBody, response: { 200: tokenReply } },
    },
    async (req, reply) => {
      const { session, deviceCookie } = await auth.verifyCode(app.ctx, {
        userId: caller(req).id,
        code: req.body.totpCode,
        rememberDevice: req.body.rememberDevice,
        address: req.ip,
      });
      setRefreshCookie(reply, session);
      if (deviceCookie) {
        reply.setCookie(DEVICE_COOKIE, deviceCookie.value, { path: COOKIE_PATH, httpOnly: true, sameSite: 'strict', secure, maxAge: REMEMBER_DEVICE_S });
      }
      return { status: 'OK' as const, access_token: session.accessToken };
    },
  );

  app.post(
    '/auth/refresh/',
    { config: { auth: 'public' }, schema: { tags: ['auth'], summary: 'Rotate the refresh cookie and get a new access token', response: { 200: tokenReply } } },
    async (req, reply) => {
      try {
        const session = await auth.refresh(app.ctx, req.cookies[REFRESH_COOKIE]);
        setRefreshCookie(reply, session);
        return { status: 'OK' as const, access_token: session.accessToken };
      } catch (err) {
        reply.clearCookie(REFRESH_COOKIE, { path: COOKIE_PATH });
        throw err;
      }
    },
  );

  app.post(
    '/auth/logout/',
    { config: { auth: 'public' }, schema: { tags: ['auth'], summary: 'End the session', body: z.unknown().optional(), response: { 200: statusReply } } },
    async (req, reply) => {
      await auth.logout(app.ctx, req.cookies[REFRESH_COOKIE]);
      reply.clearCookie(REFRESH_COOKIE, { path: COOKIE_PATH });
      return { status: 'OK' as const };
    },
  );
}
