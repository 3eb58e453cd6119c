import { defineEndpoints, endpoint } from '../api/endpoint.ts';
import { okReply, statusReply } from '../api/envelope.ts';
import { codePreferenceBody, mfaSettings } from '../auth/schemas.ts';
import { apiKeyParams, apiKeyPasswordQuery, apiKeysReply, createApiKeyBody, newApiKeyReply } from './api-keys.ts';
import { accountGet } from './get.ts';
import { alertEmailQuery, timezoneQuery } from './schemas.ts';

/**
 * The signed-in user's own account: settings, two-factor preferences. Reading the account is open to
 * API keys; changing it, and the two-factor settings (the set-up secret), are account security: a
 * signed-in session only.
 */
export const accountEndpoints = defineEndpoints('account', {
  get: accountGet,
  setTimezone: endpoint({
    method: 'POST',
    access: 'write',
    path: '/account/timezone',
    summary: "Set the account's time zone",
    auth: 'session',
    permission: null,
    query: timezoneQuery,
    reply: statusReply,
  }),
  setAlertEmail: endpoint({
    method: 'POST',
    access: 'write',
    path: '/account/alertEmail',
    summary: 'How often node alerts are e-mailed',
    auth: 'session',
    permission: null,
    query: alertEmailQuery,
    reply: statusReply,
  }),
  mfaSettings: endpoint({
    method: 'GET',
    access: 'read',
    path: '/account/mfa/settings',
    summary: 'Two-factor settings',
    auth: 'session',
    permission: null,
    reply: okReply(mfaSettings),
  }),
  setCodePreference: endpoint({
    method: 'POST',
    access: 'write',
    path: '/auth/mfa/code-preference',
    summary: 'Choose how two-factor codes arrive',
    auth: 'session',
    permission: null,
    body: codePreferenceBody,
    reply: statusReply,
  }),
});

/** The caller's API keys; managed from a signed-in session only: a key cannot mint or revoke keys. */
export const apiKeyEndpoints = defineEndpoints('api keys', {
  list: endpoint({
    method: 'GET',
    access: 'read',
    path: '/account/api-keys',
    summary: 'The caller’s API keys',
    auth: 'session',
    permission: null,
    reply: apiKeysReply,
  }),
  create: endpoint({
    method: 'POST',
    access: 'write',
    path: '/account/api-keys',
    summary: 'Create an API key (the account password, base64-encoded, in `password`); the secret is answered once',
    auth: 'session',
    permission: null,
    query: apiKeyPasswordQuery,
    body: createApiKeyBody,
    reply: newApiKeyReply,
  }),
  revoke: endpoint({
    method: 'DELETE',
    access: 'write',
    path: '/account/api-keys/:id',
    summary: 'Revoke an API key (the account password, base64-encoded, in `password`)',
    auth: 'session',
    permission: null,
    params: apiKeyParams,
    query: apiKeyPasswordQuery,
    reply: statusReply,
  }),
});
