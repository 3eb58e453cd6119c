import { z } from 'zod';
import { defineEndpoints, endpoint } from '../api/endpoint.ts';
import { statusReply } from '../api/envelope.ts';
import { captchaQuery, loginBody, loginReply, tokenReply, verifyCodeBody } from './schemas.ts';

/** Signing in and out: captcha, password, second factor, refresh cookie. */
export const authEndpoints = defineEndpoints('auth', {
  captcha: endpoint({
    method: 'GET',
    access: 'read',
    path: '/auth/captcha/challenge',
    summary: 'A new ALTCHA proof-of-work challenge; with `login`, as costly as signing in to that account is now',
    auth: 'public',
    permission: null,
    query: captchaQuery,
  }),
  login: endpoint({
    method: 'POST',
    access: 'write',
    path: '/auth/login/',
    summary: 'Sign in with a username or e-mail, a password and a solved captcha',
    auth: 'public',
    permission: null,
    body: loginBody,
    reply: loginReply,
  }),
  verifyCode: endpoint({
    method: 'POST',
    access: 'write',
    path: '/auth/mfa/verify-code',
    summary: 'Give the authenticator code',
    auth: 'mfa',
    permission: null,
    body: verifyCodeBody,
    reply: tokenReply,
  }),
  refresh: endpoint({
    method: 'POST',
    access: 'write',
    path: '/auth/refresh/',
    summary: 'Rotate the refresh cookie and get a new access token',
    auth: 'public',
    permission: null,
    reply: tokenReply,
  }),
  logout: endpoint({
    method: 'POST',
    access: 'write',
    path: '/auth/logout/',
    summary: 'End the session',
    auth: 'public',
    permission: null,
    body: z.unknown().optional(),
    reply: statusReply,
  }),
});
