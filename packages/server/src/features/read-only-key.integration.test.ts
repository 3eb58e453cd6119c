import { API_KEY_MESSAGES } from '@vpp/shared/account/api-keys';
import { type Endpoint, endpointUrl } from '@vpp/shared/api/endpoint';
import { isReadOnlyPermission, PERMISSIONS } from '@vpp/shared/permissions/registry';
import { beforeAll, describe, expect, it } from 'vitest';
import { unchangedRun } from '../test/db-snapshot.ts';
import { exampleFor } from '../test/examples.ts';
import { node } from '../test/factories.ts';
import { describeEachDatabase, PASSWORD } from '../test/harness.ts';
import { makeRecords, type RecordOwner, resourceOf } from '../test/records.ts';
import { FEATURES } from './index.ts';

/** Every endpoint an API key can reach (neither public nor session-only), from the areas' own declarations. */
const KEY_CALLS: Endpoint[] = FEATURES.flatMap((f) => (f.endpoints ?? []).flatMap((map) => Object.values(map))).filter(
  (e) => e.auth !== 'public' && e.auth !== 'session' && e.auth !== 'mfa',
);

it('knows whether every endpoint reads or writes, and a GET only reads', () => {
  const all = FEATURES.flatMap((f) => (f.endpoints ?? []).flatMap((map) => Object.values(map)));
  for (const e of all) expect(['read', 'write'], `${e.method} ${e.path}`).toContain(e.access);
  for (const e of all.filter((x) => x.method === 'GET')) expect(e.access, `${e.method} ${e.path}`).toBe('read');
  expect(KEY_CALLS.filter((e) => e.access === 'write').length).toBeGreaterThan(20);
});

// Generated from the contracts: an API key with the default scopes (its owner's view permissions;
// the owner holds every permission) calls every endpoint a key may call, on the organisation's own
// records, with input that passes validation. Each write answers 403, and the whole database (every
// row of every table) is the same after each call as before it.
describeEachDatabase('a read-only API key changes nothing', (h) => {
  let owner: RecordOwner;
  let ids: Map<string, number | string>;
  let key: { 'x-api-key': string };
  let run: ReturnType<typeof unchangedRun> | undefined;
  beforeAll(async () => {
    const org = await h().org('RETAILER', 'Read-only Energy');
    const user = await h().user(org, { permissions: PERMISSIONS.map((p) => p.name) });
    owner = { id: org, userId: user.id, auth: await h().bearer(user.username), nodeId: (await node(h(), [org], { label: 'Our home' })).id };
    ids = await makeRecords(h(), owner);
    const password = encodeURIComponent(Buffer.from(PASSWORD).toString('base64'));
    const res = await h().app.inject({ method: 'POST', url: `/account/api-keys?password=${password}`, headers: owner.auth, payload: { keyName: 'read-only' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.scopes.every(isReadOnlyPermission)).toBe(true);
    key = { 'x-api-key': res.json().data.key };
  });

  /** The call on the organisation's own record, with the examples' input and its own node and VPP in the body. */
  const call = (e: Endpoint) => {
    const body = { ...exampleFor(e.body) };
    if ('powerstation' in body) body.powerstation = ids.get('powerstation');
    if ('deploymentUids' in body) body.deploymentUids = [owner.nodeId];
    const id = ids.get(String(resourceOf(e)));
    return h().app.inject({
      method: e.method,
      url: endpointUrl(e, { params: { ...exampleFor(e.params), planCode: 'THEIRS-1', ...(id === undefined ? {} : { id }) }, query: exampleFor(e.query) }),
      headers: key,
      ...(e.body ? { payload: body } : {}),
    });
  };

  describe.each(['write', 'read'] as const)('every %s', (access) => {
    it.each(KEY_CALLS.filter((e) => e.access === access).map((e) => [`${e.method} ${e.path}`, e] as const))(
      '%s leaves the database as it was',
      async (_, e) => {
        run ??= unchangedRun(h().ctx.db, h().dialect);
        const before = await run.before();
        const res = await call(e);
        if (access === 'write') {
          expect(res.statusCode, res.body).toBe(403);
          expect(res.json()).toMatchObject({ error: 'scope_missing', data: { message: API_KEY_MESSAGES.readOnlyKey } });
        } else {
          expect(res.statusCode, res.body).toBeLessThan(500);
        }
        const after = await run.after();
        expect(after).toEqual(before);
        run.unchanged(after);
      },
    );
  });

  it('the writes that view scopes used to open are open to a key with the write scope they need', async () => {
    const password = encodeURIComponent(Buffer.from(PASSWORD).toString('base64'));
    const made = await h().app.inject({
      method: 'POST',
      url: `/account/api-keys?password=${password}`,
      headers: owner.auth,
      payload: { keyName: 'node writer', scopes: ['fleet.node.any', 'fleet.node.view'] },
    });
    const writer = { 'x-api-key': made.json().data.key as string };
    const renamed = await h().app.inject({
      method: 'POST',
      url: `/api/nodes/${owner.nodeId}/sitelabel`,
      headers: writer,
      payload: { siteLabel: 'Renamed by a writing key' },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const read = await h().app.inject({ method: 'GET', url: `/api/nodes/${owner.nodeId}/detail`, headers: key });
    expect(read.json().data.siteLabel).toBe('Renamed by a writing key');
    const marked = await h().app.inject({ method: 'POST', url: `/account/notifications/${ids.get('notification')}/mark-read`, headers: writer });
    expect(marked.statusCode, marked.body).toBe(200);
    // A write scope of another area opens this area's writes no more than a view scope does.
    const other = await h().app.inject({
      method: 'POST',
      url: `/account/api-keys?password=${password}`,
      headers: owner.auth,
      payload: { keyName: 'dispatcher', scopes: ['fleet.node.view', 'fleet.dispatches.edit'] },
    });
    const refused = await h().app.inject({
      method: 'POST',
      url: `/api/nodes/${owner.nodeId}/sitelabel`,
      headers: { 'x-api-key': other.json().data.key as string },
      payload: { siteLabel: 'Renamed by a dispatcher' },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ error: 'scope_missing', data: { message: API_KEY_MESSAGES.scopeMissing } });
  });
  it('the OpenADR VTN: a read-only key gets no token, and a read_all client changes nothing', async () => {
    const B = '/openadr3/3.0.1';
    const token = (keyId: number, secret: string) =>
      h().app.inject({
        method: 'POST',
        url: `${B}/auth/token`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ grant_type: 'client_credentials', client_id: String(keyId), client_secret: secret }).toString(),
      });
    const password = encodeURIComponent(Buffer.from(PASSWORD).toString('base64'));
    const readOnly = (
      await h().app.inject({ method: 'POST', url: `/account/api-keys?password=${password}`, headers: owner.auth, payload: { keyName: 'plain' } })
    ).json().data;
    const refused = await token(readOnly.keyId, readOnly.key);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toBe('unauthorized_client');
    // The console's key itself is no VTN token.
    expect((await h().app.inject({ method: 'GET', url: `${B}/events`, headers: { authorization: `Bearer ${readOnly.key}` } })).statusCode).toBe(401);
    const reader = (
      await h().app.inject({
        method: 'POST',
        url: `/account/api-keys?password=${password}`,
        headers: owner.auth,
        payload: { keyName: 'reader', openadrScopes: ['read_all'] },
      })
    ).json().data;
    const auth = { authorization: `Bearer ${(await token(reader.keyId, reader.key)).json().access_token}` };
    const vpp = `vpp-${ids.get('powerstation')}`;
    const venId = `ven-${ids.get('openadr-ven')}`;
    const writes: [method: 'POST' | 'PUT' | 'DELETE', path: string, body?: object][] = [
      ['POST', '/programs', { programName: 'x' }],
      ['PUT', `/programs/${vpp}`, { programName: 'x' }],
      ['DELETE', `/programs/${vpp}`],
      ['POST', '/events', { programID: vpp, intervals: [] }],
      ['DELETE', `/events/event-${ids.get('dispatch')}`],
      ['POST', '/reports', { programID: vpp, eventID: `event-${ids.get('dispatch')}`, clientName: 'x', resources: [] }],
      [
        'POST',
        '/subscriptions',
        { clientName: 'x', programID: vpp, objectOperations: [{ objects: ['EVENT'], operations: ['CREATE'], callbackUrl: 'https://example.com/x' }] },
      ],
      ['POST', '/vens', { venName: 'x' }],
      ['PUT', `/vens/${venId}`, { venName: 'x' }],
      ['DELETE', `/vens/${venId}`],
      ['POST', `/vens/${venId}/resources`, { resourceName: 'x' }],
    ];
    const vtn = unchangedRun(h().ctx.db, h().dialect);
    for (const [method, path, body] of writes) {
      const before = await vtn.before();
      const res = await h().app.inject({ method, url: `${B}${path}`, headers: auth, ...(body ? { payload: body } : {}) });
      expect(res.statusCode, `${method} ${path} ${res.body}`).toBe(403);
      const after = await vtn.after();
      expect(after).toEqual(before);
      vtn.unchanged(after);
    }
  });
});
