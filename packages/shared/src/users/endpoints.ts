import { defineEndpoints, endpoint } from '../api/endpoint.ts';
import { availablePermissionsReply, userBody, userParams, userReply, usersQuery, usersReply } from './schemas.ts';

const permission = 'fleet.myReposit.users';
/** Managing users is account security: a signed-in session only, never an API key (issue 9). */
const auth = 'session';

/** The organisation's users (spec 1, My Reposit → Users); account security, so a signed-in session only. */
export const userEndpoints = defineEndpoints('users', {
  list: endpoint({
    method: 'GET',
    access: 'read',
    path: '/api/users',
    summary: 'The users of the organisation, a page at a time',
    auth,
    permission,
    query: usersQuery,
    reply: usersReply,
  }),
  availablePermissions: endpoint({
    method: 'GET',
    access: 'read',
    path: '/api/users/available-permissions',
    summary: 'The permissions the caller may grant (those they hold)',
    auth,
    permission,
    reply: availablePermissionsReply,
  }),
  get: endpoint({
    method: 'GET',
    access: 'read',
    path: '/api/users/:id',
    summary: 'One user of the organisation',
    auth,
    permission,
    params: userParams,
    reply: userReply,
  }),
  create: endpoint({
    method: 'POST',
    access: 'write',
    path: '/api/users',
    summary: 'Create a user; they are e-mailed a link to choose a password',
    auth,
    permission,
    body: userBody,
    reply: userReply,
  }),
  update: endpoint({
    method: 'PUT',
    access: 'write',
    path: '/api/users/:id',
    summary: 'Update a user of the organisation',
    auth,
    permission,
    params: userParams,
    body: userBody,
    reply: userReply,
  }),
});
