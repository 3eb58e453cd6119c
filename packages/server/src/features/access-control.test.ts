import { type Endpoint, endpointUrl, MESSAGES, PERMISSIONS, type PermissionRequirement, satisfies } from '@vpp/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeEachDatabase } from '../test/harness.ts';
import { FEATURES } from './index.ts';

/** Every endpoint of every area, as the areas' modules declare them: a new area is covered by being listed. */
const AREAS: [string, Endpoint[]][] = FEATURES.map((f) => [f.name, (f.endpoints ?? []).flatMap((map) => Object.values(map))]);

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
