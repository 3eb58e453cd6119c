import * as shared from '@vpp/shared';
import { type Endpoint, endpointUrl, PERMISSIONS, type PermissionRequirement, satisfies } from '@vpp/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeEachDatabase } from '../test/harness.ts';

type AreaEndpoint = Endpoint & { area: string };

/** Every endpoint map the shared package exports (`<area>Endpoints`), found rather than listed. */
const AREAS: [string, AreaEndpoint[]][] = Object.entries(shared)
  .filter(([name, value]) => name.endsWith('Endpoints') && typeof value === 'object' && value !== null)
  .map(([name, value]) => [name, Object.values(value as Record<string, AreaEndpoint>)] as [string, AreaEndpoint[]])
  .filter(([, list]) => list.length > 0 && list.every((e) => typeof e.path === 'string' && typeof e.method === 'string' && typeof e.area === 'string'));

const urlOf = (e: Endpoint) => endpointUrl(e, { params: Object.fromEntries([...e.path.matchAll(/:([A-Za-z_]+)/g)].map((m) => [m[1], 1])) });
const guarded = (list: AreaEndpoint[]) => list.filter((e) => e.auth !== 'public');

/** Every permission that does not by itself open the requirement: a user holding all of them still may not call. */
const allBut = (requirement: PermissionRequirement) =>
  PERMISSIONS.map((p) => p.name).filter((p) => p !== 'fleet.administrator' && !satisfies([p], requirement));

it('finds the endpoint maps of every area in the shared package', () => {
  expect(AREAS.map(([name]) => name).sort()).toEqual(
    expect.arrayContaining(['accountEndpoints', 'apiKeyEndpoints', 'authEndpoints', 'nodeEndpoints', 'userEndpoints', 'vppEndpoints']),
  );
  const keys = AREAS.flatMap(([, list]) => list.map((e) => `${e.method} ${e.path}`));
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
          expect(res.json().data.message).toBe(shared.MESSAGES.notAuthorized);
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
