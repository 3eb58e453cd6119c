import { API_KEY_MESSAGES, type Endpoint, endpointUrl, idResources, MESSAGES, PERMISSIONS, type PermissionRequirement, satisfies } from '@vpp/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { exampleFor } from '../test/examples.ts';
import { node } from '../test/factories.ts';
import { describeEachDatabase, type Harness, PASSWORD } from '../test/harness.ts';
import { issueInvoice } from './billing/index.ts';
import { FEATURES } from './index.ts';
import { notifyUser } from './notifications/index.ts';

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

/** What a path's `:id` names, from the shared id schema (recordId registers it). */
const resourceOf = (e: Endpoint): string | null => {
  const id = (e.params as { shape?: Record<string, z.ZodType> } | undefined)?.shape?.id;
  return id ? (idResources.get(id)?.resource ?? null) : null;
};

/** Makes one record of each kind in an organisation, through the product's own calls; answers its id. */
const MAKERS: Record<string, (h: Harness, org: { id: number; userId: number; auth: { authorization: string }; nodeId: number }) => Promise<number | string>> = {
  node: async (_h, org) => org.nodeId,
  powerstation: async (h, org) => {
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/powerstations',
      headers: org.auth,
      payload: { type: 'STATIC', name: 'Their VPP', nodes: [org.nodeId] },
    });
    return res.json().data.id;
  },
  user: async (_h, org) => org.userId,
  dispatch: async (h, org) => {
    // A reporting battery makes the VPP dispatchable.
    const now = Math.floor(Date.now() / 1000);
    await h.ctx.telemetry.ingest([{ nodeId: org.nodeId, ts: now - (now % 30) - 30, dt: 30, remaining: 10, soc: null }]);
    const vpp = await h.app.inject({
      method: 'POST',
      url: '/api/powerstations',
      headers: org.auth,
      payload: { type: 'STATIC', name: 'Their VPP', nodes: [org.nodeId] },
    });
    const startTime = now - (now % 3600) + 7200;
    const res = await h.app.inject({
      method: 'POST',
      url: '/dispatch',
      headers: org.auth,
      payload: { powerstation: vpp.json().data.id, startTime, duration: 1800, realPowerP: -1, customerMessage: 'Their message' },
    });
    return res.json().data.id;
  },
  'grid-outage': async (h, org) => {
    const vpp = await h.app.inject({
      method: 'POST',
      url: '/api/powerstations',
      headers: org.auth,
      payload: { type: 'STATIC', name: 'Their VPP', nodes: [org.nodeId] },
    });
    const now = Math.floor(Date.now() / 1000);
    const res = await h.app.inject({
      method: 'POST',
      url: '/grid-outage',
      headers: org.auth,
      payload: { powerstation: vpp.json().data.id, startTime: now - (now % 3600) + 7200, customerMessage: 'Their message' },
    });
    return res.json().data.id;
  },
  curtailment: async (h, org) => {
    const vpp = await h.app.inject({
      method: 'POST',
      url: '/api/powerstations',
      headers: org.auth,
      payload: { type: 'STATIC', name: 'Their VPP', nodes: [org.nodeId] },
    });
    const now = Math.floor(Date.now() / 1000);
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/curtailments',
      headers: org.auth,
      payload: { powerstation: vpp.json().data.id, startTime: now - (now % 3600) + 7200, realPowerP: -1 },
    });
    return res.json().data.id;
  },
  'rert dispatch': async (h, org) => {
    const now = Math.floor(Date.now() / 1000);
    await h.ctx.telemetry.ingest([{ nodeId: org.nodeId, ts: now - (now % 30) - 30, dt: 30, remaining: 10, soc: null }]);
    const vpp = await h.app.inject({
      method: 'POST',
      url: '/api/powerstations',
      headers: org.auth,
      payload: { type: 'STATIC', name: 'Their VPP', nodes: [org.nodeId] },
    });
    // After the dispatch above: the same node is not in two events at once.
    const startTime = now - (now % 3600) + 4 * 3600;
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/rert-dispatches',
      headers: org.auth,
      payload: { powerstation: vpp.json().data.id, startTime, duration: 1800, realPowerP: -1, customerMessage: 'Their message' },
    });
    return res.json().data.id;
  },
  notification: async (h, org) => {
    await notifyUser(h.ctx, org.userId, { summary: 'Their notification', body: 'Theirs alone.' });
    return (await h.app.inject({ method: 'GET', url: '/account/notifications', headers: org.auth })).json().data.notifications[0].id;
  },
  // A customer's id is its NMI: their home's.
  customer: async (h, org) => (await h.ctx.db.selectFrom('nodes').select('nmi').where('id', '=', org.nodeId).executeTakeFirstOrThrow()).nmi,
  plan: async (h, org) => {
    const res = await h.app.inject({
      method: 'POST',
      url: '/contracts/plan',
      headers: org.auth,
      payload: {
        name: 'Their plan',
        planCode: 'THEIRS-1',
        tariffType: 'FLAT_RATE',
        operationalNetworkUid: 'ausgrid',
        startDate: '2026-01-01',
        dailyCharge: '1',
        feedInTariff: '0.05',
        description: 'Their message',
        rates: [{ label: 'Base Rate', isBaseRate: true, blocks: [{ onset: '0', price: '0.25' }], periods: [] }],
      },
    });
    return res.json().data.uid;
  },
  // The platform's invoice of a past month to their organisation, as the monthly job issues it.
  invoice: async (h, org) => (await issueInvoice(h.ctx, org.id, '2025-01')) as number,
  // An export of their node (queued; the matrix needs the record, not its files).
  export: async (h, org) => {
    const now = Math.floor(Date.now() / 1000);
    const res = await h.app.inject({
      method: 'POST',
      url: '/analysis/export-jobs',
      headers: org.auth,
      payload: { type: 'operational', params: { start: now - 86400, end: now, queries: ['meter_power'], deploymentUids: [org.nodeId] } },
    });
    return res.json().data.task_id;
  },
  'api-key': async (h, org) => {
    const password = Buffer.from(PASSWORD).toString('base64');
    const res = await h.app.inject({ method: 'POST', url: `/account/api-keys?password=${password}`, headers: org.auth, payload: { keyName: 'Their key' } });
    return res.json().data.keyId;
  },
};

// Generated from the contracts: every endpoint whose path names a record is called by a user of
// another organisation, holding every permission, on this organisation's record: 404, never the
// record's data, and nothing changes.
describeEachDatabase('another organisation’s records', (h) => {
  const ids = new Map<string, number | string>();
  let theirs: { id: number; userId: number; auth: { authorization: string }; nodeId: number };
  let ours: { authorization: string };
  beforeAll(async () => {
    const id = await h().org('RETAILER', 'Their Energy');
    const user = await h().user(id);
    theirs = { id, userId: user.id, auth: await h().bearer(user.username), nodeId: (await node(h(), [id], { label: 'Their home' })).id };
    for (const [resource, make] of Object.entries(MAKERS)) ids.set(resource, await make(h(), theirs));
    const mine = await h().org('RETAILER', 'Our Energy');
    await node(h(), [mine]);
    ours = await h().bearer((await h().user(mine)).username);
  });

  const withRecords = AREAS.flatMap(([, list]) => list).filter((e) => e.path.includes(':id') && e.auth !== 'public');

  it('knows how to make every kind of record a path names', () => {
    for (const e of withRecords) expect(MAKERS, `${e.method} ${e.path}: add a maker for '${resourceOf(e)}'`).toHaveProperty(String(resourceOf(e)));
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
    expect(keys.json().data.keys.map((k: { keyName: string; status: string }) => [k.keyName, k.status])).toEqual([['Their key', 'VALID']]);
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

      const open = guarded(list).filter((e) => !sessionOnly(e) && e.permission === null);
      if (open.length) {
        it.each(open.map((e) => [`${e.method} ${e.path}`, e] as const))('%s needs no permission: a key without scopes gets past the guard', async (_, e) => {
          const res = await h().app.inject({ method: e.method, url: urlOf(e), headers: await keyWithScopes([]) });
          expect([401, 403]).not.toContain(res.statusCode);
        });
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
