import { authEndpoints as E } from '@vpp/shared/auth/endpoints';
import { REMEMBER_DEVICE_S } from '@vpp/shared/constants';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { caller } from '../../platform/guard.ts';
import { type App, route } from '../../platform/http.ts';
import * as auth from './auth.service.ts';

export const REFRESH_COOKIE = 'vpp_refresh';
export const DEVICE_COOKIE = 'vpp_device';
const COOKIE_PATH = '/auth/';

export function authRoutes(app: App) {
  /**
   * Cookies are Secure when COOKIE_SECURE says so, or when the console is reached over HTTPS: the
   * connection's own, or the one a trusted proxy (TRUST_PROXY) reports in X-Forwarded-Proto, which
   * Fastify reads into `req.protocol` only when it trusts the proxy.
   */
  const isSecure = (req: FastifyRequest) => app.ctx.config.COOKIE_SECURE || req.protocol === 'https';
  const setRefreshCookie = (req: FastifyRequest, reply: FastifyReply, session: auth.Session) =>
    reply.setCookie(REFRESH_COOKIE, session.refreshToken, {
      path: COOKIE_PATH,
      httpOnly: true,
      sameSite: 'strict',
      secure: isSecure(req),
      expires: new Date(session.refreshExpiresAt * 1000),
    });

  route(app, E.captcha, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    return auth.captchaChallenge(app.ctx, req.query.login);
  });

  route(app, E.login, async (req, reply) => {
    const { reply: body, session } = await auth.login(app.ctx, {
      ...req.body,
      address: req.ip,
      deviceCookie: req.cookies[DEVICE_COOKIE],
    });
    if (session) setRefreshCookie(req, reply, session);
    return body;
  });

  route(app, E.verifyCode, async (req, reply) => {
    const user = caller(req);
    // The 'mfa' routes take no API key, so the caller came with a session's token.
    if (user.via.kind !== 'session') throw new Error('verify-code without a session token');
    const { session, deviceCookie } = await auth.verifyCode(app.ctx, {
      userId: user.id,
      token: { id: user.via.tokenId, expiresAt: user.via.expiresAt },
      code: req.body.totpCode,
      rememberDevice: req.body.rememberDevice,
      address: req.ip,
    });
    setRefreshCookie(req, reply, session);
    if (deviceCookie) {
      reply.setCookie(DEVICE_COOKIE, deviceCookie.value, {
        path: COOKIE_PATH,
        httpOnly: true,
        sameSite: 'strict',
        secure: isSecure(req),
        maxAge: REMEMBER_DEVICE_S,
      });
    }
    return { status: 'OK' as const, access_token: session.accessToken };
  });

  route(app, E.refresh, async (req, reply) => {
    try {
      const session = await auth.refresh(app.ctx, req.cookies[REFRESH_COOKIE]);
      setRefreshCookie(req, reply, session);
      return { status: 'OK' as const, access_token: session.accessToken };
    } catch (err) {
      reply.clearCookie(REFRESH_COOKIE, { path: COOKIE_PATH });
      throw err;
    }
  });

  route(app, E.logout, async (req, reply) => {
    const header = req.headers.authorization ?? '';
    await auth.logout(app.ctx, req.cookies[REFRESH_COOKIE], header.startsWith('Bearer ') ? header.slice(7).trim() : undefined);
    reply.clearCookie(REFRESH_COOKIE, { path: COOKIE_PATH });
    return { status: 'OK' as const };
  });
}
