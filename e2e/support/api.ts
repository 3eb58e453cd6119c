// A small client of the real API for arranging test data: it signs in as a user through the login
// route (solving the captcha as the browser's widget does) and calls the same endpoints the app
// calls, its replies checked against the shared contract.
import { type CallArgs, type Endpoint, endpointUrl, type ReplyOf } from '@vpp/shared/api/endpoint';
import { loginReply } from '@vpp/shared/auth/schemas';
import { DEMO_PASSWORD } from '@vpp/shared/demo';
import { notificationEndpoints } from '@vpp/shared/notifications/endpoints';
import type { Notification } from '@vpp/shared/notifications/schemas';
import { userEndpoints } from '@vpp/shared/users/endpoints';
import type { OrgUser, UserBody } from '@vpp/shared/users/schemas';
import { vppEndpoints } from '@vpp/shared/vpps/endpoints';
import type { PowerstationBody } from '@vpp/shared/vpps/schemas';
import { postLogin } from '../../packages/server/src/test/sign-in.ts';

export interface Api {
  /** Calls one endpoint of the shared contract as this user; the reply is parsed with its schema. */
  call<E extends Endpoint>(e: E, args: CallArgs<E>): Promise<ReplyOf<E>>;
  /** Creates a VPP (POST /api/powerstations) and answers its id. */
  createVpp(body: PowerstationBody): Promise<number>;
  /** Creates a user of the caller's organisation (POST /api/users); the server e-mails them a set-password link. */
  createUser(body: UserBody): Promise<OrgUser>;
  /** The caller's notifications, newest first. */
  notifications(): Promise<Notification[]>;
  markNotificationRead(id: number): Promise<void>;
}

/** Signs in through POST /auth/login/ as a user without two-factor and answers a client acting as them. */
export async function signInToApi(baseUrl: string, username: string, password = DEMO_PASSWORD): Promise<Api> {
  const login = await postLogin(baseUrl, username, password);
  if (!login.ok) throw new Error(`login ${username}: ${login.status} ${await login.text()}`);
  const session = loginReply.parse(await login.json());
  if (session.mfaRequired) throw new Error(`${username} needs two-factor: the API client signs in users without it`);
  const authorization = `Bearer ${session.access_token}`;

  async function call<E extends Endpoint>(e: E, args: CallArgs<E>): Promise<ReplyOf<E>> {
    const { params, query, body } = args as { params?: Record<string, unknown>; query?: Record<string, unknown>; body?: unknown };
    const path = endpointUrl(e, { params, query });
    const res = await fetch(`${baseUrl}${path}`, {
      method: e.method,
      headers: body === undefined ? { authorization } : { authorization, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${e.method} ${path} as ${username}: ${res.status} ${await res.text()}`);
    return (e.reply ? e.reply.parse(await res.json()) : undefined) as ReplyOf<E>;
  }

  return {
    call,
    createVpp: async (body) => (await call(vppEndpoints.create, { body })).data.id,
    createUser: async (body) => (await call(userEndpoints.create, { body })).data,
    notifications: async () => (await call(notificationEndpoints.list, { query: { limit: 200 } })).data.notifications,
    markNotificationRead: async (id) => {
      await call(notificationEndpoints.markRead, { params: { id } });
    },
  };
}
