import { changePasswordBody, forgotPasswordBody, inlineChangeBody, messageReply, tokenQuery, verifyTokenReply } from '../account/password-schemas.ts';
import { defineEndpoints, endpoint } from '../api/endpoint.ts';
import { statusReply } from '../api/envelope.ts';

/** Reset and set-password links, and the signed-in user's own password change. */
export const passwordEndpoints = defineEndpoints('password', {
  requestReset: endpoint({
    method: 'POST',
    access: 'write',
    path: '/password/reset',
    summary: 'E-mail a reset link to the account with this address (the reply is the same whether or not one exists)',
    auth: 'public',
    permission: null,
    body: forgotPasswordBody,
    reply: messageReply,
  }),
  verifyToken: endpoint({
    method: 'GET',
    access: 'read',
    path: '/password/change/verify_token',
    summary: 'Whether a reset link can still set a password',
    auth: 'public',
    permission: null,
    query: tokenQuery,
    reply: verifyTokenReply,
  }),
  change: endpoint({
    method: 'POST',
    access: 'write',
    path: '/password/change',
    summary: 'Set the password through a reset or set-password link (once); ends all sessions of the account',
    auth: 'public',
    permission: null,
    query: tokenQuery,
    body: changePasswordBody,
    reply: messageReply,
  }),
  disavow: endpoint({
    method: 'POST',
    access: 'write',
    path: '/password/reset/disavow',
    summary: "'This was not me': deactivate the link and e-mail support",
    auth: 'public',
    permission: null,
    query: tokenQuery,
    reply: messageReply,
  }),
  inlineChange: endpoint({
    method: 'POST',
    access: 'write',
    path: '/password/inline-change',
    summary: 'Change the signed-in user’s password',
    auth: 'session',
    permission: null,
    body: inlineChangeBody,
    reply: statusReply,
  }),
});
