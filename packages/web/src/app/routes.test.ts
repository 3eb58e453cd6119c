import { type PermissionRequirement, satisfies } from '@vpp/shared/permissions/registry';
import { expect, it } from 'vitest';
import { ROUTES } from './routes.tsx';

it('has every signed-in page say who may open it, so a refused page is refused before it calls anything', () => {
  const undeclared = ROUTES.filter((r) => r.page && !r.public && r.permission === undefined).map((r) => r.path);
  expect(undeclared).toEqual([]);
});

/** The smallest sets of permissions that satisfy a requirement. */
const holders = (req: PermissionRequirement): string[][] => (typeof req === 'string' ? [[req]] : 'anyOf' in req ? req.anyOf.map((p) => [p]) : [[...req.allOf]]);

it('has every sidebar entry open a page that its own permission lets in', () => {
  const refused = ROUTES.filter((r) => {
    const page = r.permission;
    if (!r.nav || !page) return false;
    const nav = r.nav.permission;
    return nav === null || !holders(nav).every((held) => satisfies(held, page));
  }).map((r) => r.path);
  expect(refused).toEqual([]);
});
