// A small client of the real API for arranging test data: it signs in as a user through the login
// route (solving the captcha as the browser's widget does) and calls the same endpoints the app
// calls, its replies checked against the shared contract.
import {
  DEMO_PASSWORD,
  loginReply,
  type Notification,
  notificationsReply,
  type OrgUser,
  type PowerstationBody,
  powerstationCreateReply,
  statusReply,
  type UserBody,
  userReply,
} from '@vpp/shared';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';

/** A reply schema of @vpp/shared (any zod schema). */
interface Schema<T> {
  parse(data: unknown): T;
}

export interface Api {
  /** GET a path (with its query string) as this user; the reply is parsed with the shared schema. */
  get<T>(path: string, reply: Schema<T>): Promise<T>;
  /** Creates a VPP (POST /api/powerstations) and answers its id. */
  createVpp(body: PowerstationBody): Promise<number>;
  /** Creates a user of the caller's organisation (POST /api/users); the server e-mails them a set-password link. */
  createUser(body: UserBody): Promise<OrgUser>;
  /** The caller's notifications, newest first. */
  notifications(): Promise<Notification[]>;
  markNotificationRead(id: number): Promise<void>;
}

/** A captcha token for the login route: the server's proof-of-work challenge, solved. */
async function captchaToken(baseUrl: string): Promise<string> {
  const res = await fetch(`${baseUrl}/auth/captcha/challenge`);
  if (!res.ok) throw new Error(`captcha challenge: ${res.status}`);
  const challenge = await res.json();
  const solution = await solveChallenge({ challenge, deriveKey });
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}

/** Signs in through POST /auth/login/ as a user without two-factor and answers a client acting as them. */
export async function signInToApi(baseUrl: string, username: string, password = DEMO_PASSWORD): Promise<Api> {
  const login = await fetch(`${baseUrl}/auth/login/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password, captchaToken: await captchaToken(baseUrl) }),
  });
  if (!login.ok) throw new Error(`login ${username}: ${login.status} ${await login.text()}`);
  const session = loginReply.parse(await login.json());
  if (session.mfaRequired) throw new Error(`${username} needs two-factor: the API client signs in users without it`);
  const authorization = `Bearer ${session.access_token}`;

  async function call<T>(method: string, path: string, reply: Schema<T>, body?: unknown): Promise<T> {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: body === undefined ? { authorization } : { authorization, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${path} as ${username}: ${res.status} ${await res.text()}`);
    return reply.parse(await res.json());
  }

  return {
    get: (path, reply) => call('GET', path, reply),
    createVpp: async (body) => (await call('POST', '/api/powerstations', powerstationCreateReply, body)).data.id,
    createUser: async (body) => (await call('POST', '/api/users', userReply, body)).data,
    notifications: async () => (await call('GET', '/account/notifications?limit=200', notificationsReply)).data.notifications,
    markNotificationRead: async (id) => {
      await call('POST', `/account/notifications/${id}/mark-read`, statusReply);
    },
  };
}
