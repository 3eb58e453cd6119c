import { API_KEY_MESSAGES } from '@vpp/shared/account/api-keys';
import { type Endpoint, endpointUrl } from '@vpp/shared/api/endpoint';
import { MESSAGES } from '@vpp/shared/messages';
import { PERMISSIONS, type PermissionRequirement, satisfies } from '@vpp/shared/permissions/registry';
import { beforeAll, describe, expect, it } from 'vitest';
import { exampleFor } from '../test/examples.ts';
import { node } from '../test/factories.ts';
import { describeEachDatabase, PASSWORD } from '../test/harness.ts';
import { makeRecords, RECORD_MAKERS, type RecordOwner, resourceOf } from '../test/records.ts';
import { FEATURES } from './index.ts';

/** Every endpoint of every area, as the areas' modules declare them: a new area is covered by being listed. */
const AREAS: [string, Endpoint[]][] = FEATURES.filter((f) => f.endpoints?.length).map((f) => [
  f.name,
  (f.endpoints ?? []).flatMap((map) => Object.values(map)),
]);

const urlOf = (e: Endpoint) => endpointUrl(e, { params: Object.fromEntries([...e.path.matchAll(/:([A-Za-z_]+)/g)].map((m) => [m[1], 1])) });
const guarded = (list: Endpoint[]) => list.filter((e) => e.auth !== 'public');

/** Every permission that does not by itself open the requirement: a user holding all of them still may not call. */
const allBut = (requirement: PermissionRequirement) =>
  PERMISSIONS.map((p) => p.name).filter((p) => p !== 'fleet.administrator' && !satisfies([p], requirement));

it('knows the endpoints of every area that registers routes, each method and path once', () => {
  for (const f of FEATURES) if (f.routes) expect(f.endpoints?.length, `${f.name} declares its endpoints`).toBeGreaterThan(0);
  const keys = AREAS.flatMap(([, list]) => list.map((e) => `${e.method} ${e.path}`));
  expect(keys.length).toBeGreaterThan(40);
  expect(new Set(keys).size).toBe(keys.length);
});

// Generated from the contracts: for every endpoint of every area, no credentials is 401 and a user
// without its permission (holding every other permission) is 403, before any input is looked at.
describeEachDatabase('access control of every endpoint', (h) => {
  const bearers = new Map<string, Promise<{ authorization: string }>>();
  let org: number;
  beforeAll(async () => {
    org = await h().org('RETAILER');
  });
  const bearerWithout = (requirement: PermissionRequirement) => {
    const key = JSON.stringify(requirement);
    if (!bearers.has(key))
      bearers.set(
        key,
        h()
          .user(org, { permissions: allBut(requirement) })
          .then((u) => h().bearer(u.username)),
      );
    return bearers.get(key) as Promise<{ authorization: string }>;
  };

  for (const [name, list] of AREAS) {
    describe(name, () => {
      it.each(guarded(list).map((e) => [`${e.method} ${e.path}`, e] as const))('%s answers 401 without credentials', async (_, e) => {
        const res = await h().app.inject({ method: e.method, url: urlOf(e) });
        expect(res.statusCode).toBe(401);
        expect(res.json()).toMatchObject({ status: 'ERROR' });
      });

      const gated = guarded(list).filter((e) => e.permission !== null);
      if (gated.length) {
        it.each(gated.map((e) => [`${e.method} ${e.path}`, e] as const))('%s answers 403 to a user without its permission', async (_, e) => {
          const res = await h().app.inject({ method: e.method, url: urlOf(e), headers: await bearerWithout(e.permission as PermissionRequirement) });
          expect(res.statusCode).toBe(403);
          expect(res.json().data.message).toBe(MESSAGES.notAuthorized);
        });
      }

      it.each(list.filter((e) => e.auth === 'public').map((e) => [`${e.method} ${e.path}`, e] as const))(
        '%s is public: the guard lets it through without credentials',
        async (_, e) => {
          const res = await h().app.inject({ method: e.method, url: urlOf(e) });
          expect(res.statusCode).not.toBe(404);
          if (res.headers['content-type']?.includes('json')) expect(res.json().data?.message).not.toBe('Sign in to continue.');
        },
      );
    });
  }
});

// Generated from the contracts: every endpoint whose path names a record is called by a user of
// another organisation, holding every permission, on this organisation's record: 404, never the
// record's data, and nothing changes.
describeEachDatabase('another organisation’s records', (h) => {
  const ids = new Map<string, number | string>();
  let theirs: RecordOwner;
  let ours: { authorization: string };
  beforeAll(async () => {
    const id = await h().org('RETAILER', 'Their Energy');
    const user = await h().user(id);
    theirs = { id, userId: user.id, auth: await h().bearer(user.username), nodeId: (await node(h(), [id], { label: 'Their home' })).id };
    for (const [resource, id] of await makeRecords(h(), theirs)) ids.set(resource, id);
    const mine = await h().org('RETAILER', 'Our Energy');
    await node(h(), [mine]);
    ours = await h().bearer((await h().user(mine)).username);
  });

  const withRecords = AREAS.flatMap(([, list]) => list).filter((e) => e.path.includes(':id') && e.auth !== 'public');

  it('knows how to make every kind of record a path names', () => {
    for (const e of withRecords) expect(RECORD_MAKERS, `${e.method} ${e.path}: add a maker for '${resourceOf(e)}'`).toHaveProperty(String(resourceOf(e)));
  });

  it.each(withRecords.map((e) => [`${e.method} ${e.path}`, e] as const))('%s answers 404 on their record', async (_, e) => {
    const id = ids.get(String(resourceOf(e)));
    const body = exampleFor(e.body);
    const res = await h().app.inject({
      method: e.method,
      url: endpointUrl(e, { params: { ...exampleFor(e.params), id }, query: exampleFor(e.query) }),
      headers: ours,
      ...(e.body ? { payload: body } : {}),
    });
    expect(res.statusCode, res.body).toBe(404);
    expect(res.json().status).toBe('ERROR');
    for (const secret of ['Their VPP', 'Their home', 'Their notification', 'Their key', 'Their Energy', 'Their message', 'Their plan', 'THEIRS-1'])
      expect(res.body).not.toContain(secret);
  });

  it('left their records as they were', async () => {
    const vpp = await h().app.inject({ method: 'GET', url: `/v2/powerstations/${ids.get('powerstation')}`, headers: theirs.auth });
    expect(vpp.json().name).toBe('Their VPP');
    const site = await h().app.inject({ method: 'GET', url: `/api/nodes/${theirs.nodeId}/detail`, headers: theirs.auth });
    expect(site.json().data.siteLabel).toBe('Their home');
    const keys = await h().app.inject({ method: 'GET', url: '/account/api-keys', headers: theirs.auth });
    expect(keys.json().data.keys.map((k: { keyName: string; status: string }) => [k.keyName, k.status])).toEqual([
      ['Their key', 'VALID'],
      ['Their VEN', 'VALID'],
    ]);
    const openadr = await h().app.inject({ method: 'GET', url: '/openadr/overview', headers: theirs.auth });
    expect(openadr.json().data.vens).toMatchObject([{ id: ids.get('openadr-ven'), vppIds: [] }]);
    const notes = await h().app.inject({ method: 'GET', url: '/account/notifications', headers: theirs.auth });
    expect(notes.json().data.unread).toBe(1);
    const dispatch = await h().app.inject({ method: 'GET', url: `/api/dispatches/${ids.get('dispatch')}`, headers: theirs.auth });
    expect(dispatch.json().data.cancelledAt).toBeNull();
    const outage = await h().app.inject({ method: 'GET', url: `/grid-outage/${ids.get('grid-outage')}`, headers: theirs.auth });
    expect(outage.json().data.cancelledAt).toBeNull();
    const rert = await h().app.inject({ method: 'GET', url: `/api/rert-dispatches/${ids.get('rert dispatch')}`, headers: theirs.auth });
    expect(rert.json().data).toMatchObject({ cancelledAt: null, request: { duration: 1800 } });
    const plan = await h().app.inject({ method: 'GET', url: `/contracts/plan/${ids.get('plan')}`, headers: theirs.auth });
    expect(plan.json().data).toMatchObject({ name: 'Their plan', planCode: 'THEIRS-1', versions: [expect.objectContaining({ startDate: '2026-01-01' })] });
  });
});

// Generated from the contracts too: an API key never opens more than its scopes. Every endpoint that
// needs a permission answers 403 to a key whose scopes hold every other permission (its owner holding
// them all), and every session-only endpoint (account security) answers 403 to any key.
describeEachDatabase('access control of every endpoint for API keys', (h) => {
  const ALL = PERMISSIONS.map((p) => p.name);
  const keys = new Map<string, Promise<{ 'x-api-key': string }>>();
  let owner: Promise<{ authorization: string }>;
  beforeAll(async () => {
    const org = await h().org('RETAILER');
    owner = h()
      .user(org, { permissions: ALL })
      .then((u) => h().bearer(u.username));
  });
  const keyWithScopes = (scopes: string[]) => {
    const id = JSON.stringify(scopes);
    if (!keys.has(id))
      keys.set(
        id,
        owner.then(async (headers) => {
          const password = encodeURIComponent(Buffer.from(PASSWORD).toString('base64'));
          const res = await h().app.inject({ method: 'POST', url: `/account/api-keys?password=${password}`, headers, payload: { keyName: 'matrix', scopes } });
          if (res.statusCode !== 200) throw new Error(`key ${id}: ${res.statusCode} ${res.body}`);
          return { 'x-api-key': res.json().data.key as string };
        }),
      );
    return keys.get(id) as Promise<{ 'x-api-key': string }>;
  };
  const sessionOnly = (e: Endpoint) => e.auth === 'session' || e.auth === 'mfa';

  for (const [name, list] of AREAS) {
    describe(name, () => {
      const scoped = guarded(list).filter((e) => !sessionOnly(e) && e.permission !== null);
      if (scoped.length) {
        it.each(scoped.map((e) => [`${e.method} ${e.path}`, e] as const))('%s answers 403 to an API key whose scopes lack its permission', async (_, e) => {
          const headers = await keyWithScopes(allBut(e.permission as PermissionRequirement));
          const res = await h().app.inject({ method: e.method, url: urlOf(e), headers });
          expect(res.statusCode).toBe(403);
          expect(res.json()).toMatchObject({ error: 'scope_missing', data: { message: API_KEY_MESSAGES.scopeMissing } });
        });
      }

      const open = guarded(list).filter((e) => !sessionOnly(e) && e.permission === null && e.access === 'read');
      if (open.length) {
        it.each(open.map((e) => [`${e.method} ${e.path}`, e] as const))('%s needs no permission: a key without scopes gets past the guard', async (_, e) => {
          const res = await h().app.inject({ method: e.method, url: urlOf(e), headers: await keyWithScopes([]) });
          expect([401, 403]).not.toContain(res.statusCode);
        });
      }

      // A write that needs no permission (one's own notifications, one's dashboard) still needs a write scope.
      const openWrites = guarded(list).filter((e) => !sessionOnly(e) && e.permission === null && e.access === 'write');
      if (openWrites.length) {
        it.each(openWrites.map((e) => [`${e.method} ${e.path}`, e] as const))(
          '%s needs no permission, but a write scope: a key of view scopes is refused and one write scope gets past the guard',
          async (_, e) => {
            const refused = await h().app.inject({ method: e.method, url: urlOf(e), headers: await keyWithScopes(['fleet.node.view']) });
            expect(refused.statusCode).toBe(403);
            expect(refused.json()).toMatchObject({ error: 'scope_missing', data: { message: API_KEY_MESSAGES.readOnlyKey } });
            const res = await h().app.inject({ method: e.method, url: urlOf(e), headers: await keyWithScopes(['fleet.dispatches.edit']) });
            expect([401, 403]).not.toContain(res.statusCode);
          },
        );
      }

      const session = guarded(list).filter(sessionOnly);
      if (session.length) {
        it.each(session.map((e) => [`${e.method} ${e.path}`, e] as const))('%s is session-only: it answers 403 to any API key', async (_, e) => {
          const res = await h().app.inject({ method: e.method, url: urlOf(e), headers: await keyWithScopes(ALL) });
          expect(res.statusCode).toBe(403);
          expect(res.json()).toMatchObject({ error: 'session_required', data: { message: API_KEY_MESSAGES.sessionRequired } });
        });
      }
    });
  }
});

// The OpenADR VTN (issue 31) answers OpenADR's own paths with OAuth tokens, not the console's
// contract: every operation of the 3.0.1 document, with the scope it needs. No token is 401, a token
// without the scope 403, and another organisation's client finds none of this organisation's objects (404).
const VTN_OPERATIONS: [method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, scope: string][] = [
  ['GET', '/programs', 'read_all'],
  ['POST', '/programs', 'write_programs'],
  ['GET', '/programs/:program', 'read_all'],
  ['PUT', '/programs/:program', 'write_programs'],
  ['DELETE', '/programs/:program', 'write_programs'],
  ['GET', '/events', 'read_all'],
  ['POST', '/events', 'write_events'],
  ['GET', '/events/:event', 'read_all'],
  ['PUT', '/events/:event', 'write_events'],
  ['DELETE', '/events/:event', 'write_events'],
  ['GET', '/reports', 'read_all'],
  ['POST', '/reports', 'write_reports'],
  ['GET', '/reports/:report', 'read_all'],
  ['PUT', '/reports/:report', 'write_reports'],
  ['DELETE', '/reports/:report', 'write_reports'],
  ['GET', '/subscriptions', 'read_all'],
  ['POST', '/subscriptions', 'write_subscriptions'],
  ['GET', '/subscriptions/:subscription', 'read_all'],
  ['PUT', '/subscriptions/:subscription', 'write_subscriptions'],
  ['DELETE', '/subscriptions/:subscription', 'write_subscriptions'],
  ['GET', '/vens', 'read_all'],
  ['POST', '/vens', 'write_vens'],
  ['GET', '/vens/:ven', 'read_all'],
  ['PUT', '/vens/:ven', 'write_vens'],
  ['DELETE', '/vens/:ven', 'write_vens'],
  ['GET', '/vens/:ven/resources', 'read_all'],
  ['POST', '/vens/:ven/resources', 'write_vens'],
  ['GET', '/vens/:ven/resources/:resource', 'read_all'],
  ['PUT', '/vens/:ven/resources/:resource', 'write_vens'],
  ['DELETE', '/vens/:ven/resources/:resource', 'write_vens'],
];
const ALL_OPENADR_SCOPES = ['read_all', 'write_programs', 'write_events', 'write_reports', 'write_subscriptions', 'write_vens'];

describeEachDatabase('access control of the OpenADR VTN', (h) => {
  const B = '/openadr3/3.0.1';
  const objects: Record<string, string> = {};
  const client = async (auth: { authorization: string }, scopes: string[]) => {
    const password = encodeURIComponent(Buffer.from(PASSWORD).toString('base64'));
    const key = (
      await h().app.inject({ method: 'POST', url: `/account/api-keys?password=${password}`, headers: auth, payload: { keyName: 'vtn', openadrScopes: scopes } })
    ).json().data;
    const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: String(key.keyId), client_secret: key.key }).toString();
    const res = await h().app.inject({
      method: 'POST',
      url: `${B}/auth/token`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: form,
    });
    return { authorization: `Bearer ${res.json().access_token}` };
  };
  let theirs: { authorization: string };
  const withScopes = new Map<string, { authorization: string }>();
  beforeAll(async () => {
    const org = await h().org('RETAILER', 'VTN Energy');
    const owner = await h().bearer((await h().user(org)).username);
    const nodeId = (await node(h(), [org])).id;
    const vpp = (
      await h().app.inject({ method: 'POST', url: '/api/powerstations', headers: owner, payload: { type: 'STATIC', name: 'VTN VPP', nodes: [nodeId] } })
    ).json().data.id;
    const ours = await client(owner, ALL_OPENADR_SCOPES);
    const ven = (
      await h().app.inject({ method: 'POST', url: `${B}/vens`, headers: ours, payload: { venName: 'VTN VEN', resources: [{ resourceName: 'r1' }] } })
    ).json();
    const sub = (
      await h().app.inject({
        method: 'POST',
        url: `${B}/subscriptions`,
        headers: ours,
        payload: {
          clientName: 'c',
          programID: `vpp-${vpp}`,
          objectOperations: [{ objects: ['EVENT'], operations: ['CREATE'], callbackUrl: 'https://example.com/cb' }],
        },
      })
    ).json();
    Object.assign(objects, { program: `vpp-${vpp}`, event: 'event-1', report: 'report-1', subscription: sub.id, ven: ven.id, resource: ven.resources[0].id });
    for (const scope of ALL_OPENADR_SCOPES)
      withScopes.set(
        scope,
        await client(
          owner,
          ALL_OPENADR_SCOPES.filter((s) => s !== scope),
        ),
      );
    const other = await h().org('RETAILER', 'Elsewhere Energy');
    theirs = await client(await h().bearer((await h().user(other)).username), ALL_OPENADR_SCOPES);
  });
  const url = (path: string) => B + path.replace(/:([a-z]+)/g, (_, k: string) => objects[k]);
  /** A body that passes each collection's schema, so that what answers is the check under test. */
  const bodyFor = (method: string, path: string) => {
    if (method !== 'POST' && method !== 'PUT') return undefined;
    if (path.includes('/resources')) return { resourceName: 'x' };
    if (path.startsWith('/vens')) return { venName: 'x' };
    if (path.startsWith('/subscriptions'))
      return {
        clientName: 'x',
        programID: objects.program,
        objectOperations: [{ objects: ['EVENT'], operations: ['CREATE'], callbackUrl: 'https://example.com/x' }],
      };
    if (path.startsWith('/reports')) return { programID: objects.program, eventID: 'event-1', clientName: 'x', resources: [] };
    return {};
  };

  it.each(VTN_OPERATIONS)('%s %s: 401 without a token, 403 without its scope', async (method, path, scope) => {
    const none = await h().app.inject({ method, url: url(path), payload: bodyFor(method, path) });
    expect(none.statusCode).toBe(401);
    expect(none.headers['content-type']).toContain('application/problem+json');
    const res = await h().app.inject({
      method,
      url: url(path),
      headers: withScopes.get(scope),
      payload: bodyFor(method, path),
    });
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json().detail).toBe(`This call needs the scope ${scope}.`);
  });

  it.each(VTN_OPERATIONS.filter(([, p]) => /:(program|subscription|ven)/.test(p)))(
    "%s %s: another organisation's client finds nothing (404)",
    async (method, path) => {
      const res = await h().app.inject({
        method,
        url: url(path),
        headers: theirs,
        payload: bodyFor(method, path),
      });
      // Program writes are refused to every client (403), never with the program.
      expect(res.statusCode, res.body).toBe(/^\/programs/.test(path) && method !== 'GET' ? 403 : 404);
      expect(res.body).not.toContain('VTN VEN');
    },
  );
});
