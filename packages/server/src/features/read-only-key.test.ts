import { API_KEY_MESSAGES, type Endpoint, endpointUrl, isReadOnlyPermission, PERMISSIONS } from '@vpp/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { databaseSnapshot } from '../test/db-snapshot.ts';
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
        const before = await databaseSnapshot(h().ctx.db, h().dialect);
        const res = await call(e);
        if (access === 'write') {
          expect(res.statusCode, res.body).toBe(403);
          expect(res.json()).toMatchObject({ error: 'scope_missing', data: { message: API_KEY_MESSAGES.readOnlyKey } });
        } else {
          expect(res.statusCode, res.body).toBeLessThan(500);
        }
        expect(await databaseSnapshot(h().ctx.db, h().dialect)).toEqual(before);
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
});
