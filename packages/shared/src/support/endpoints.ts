import { defineEndpoints, endpoint } from '../api/endpoint.ts';
import { SUPPORT_PERMISSION } from './permissions.ts';
import { supportRequestBody, supportRequestListQuery, supportRequestListReply, supportRequestReply, supportSettingsReply } from './schemas.ts';

// Paths under /support, not /support-issues: no GET path of the API is also a route of the app.

/** The support page: the external form's address, or the console's own form and the user's past requests. */
export const supportEndpoints = defineEndpoints('support', {
  settings: endpoint({
    method: 'GET',
    access: 'read',
    path: '/support/settings',
    summary: 'The external contact form to embed (SUPPORT_FORM_URL), if any, and the hourly request limit',
    permission: SUPPORT_PERMISSION,
    reply: supportSettingsReply,
  }),
  list: endpoint({
    method: 'GET',
    access: 'read',
    path: '/support/requests',
    summary: "The caller's own support requests, newest first",
    permission: SUPPORT_PERMISSION,
    query: supportRequestListQuery,
    reply: supportRequestListReply,
  }),
  create: endpoint({
    method: 'POST',
    access: 'write',
    path: '/support/requests',
    summary: 'Send a support request: stored, and e-mailed to SUPPORT_EMAIL with a reply-to of the caller (429 past the hourly limit)',
    permission: SUPPORT_PERMISSION,
    body: supportRequestBody,
    reply: supportRequestReply,
  }),
});
