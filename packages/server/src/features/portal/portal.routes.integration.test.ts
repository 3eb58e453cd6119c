import { expect, it } from 'vitest';
import { buildFleet } from '../../demo/builder.ts';
import { describeEachDatabase } from '../../test/harness.ts';

describeEachDatabase('inverter web portal', (h) => {
  let nodeId: number;
  let inverterId: string;
  let otherNode: number;

  it('is refused without a token and without the permission', async () => {
    const org = await h().org('RETAILER', 'Portal Energy');
    const other = await h().org('RETAILER', 'Other Energy');
    const ids = await buildFleet(h().ctx.db, { count: 30, seed: 3, owners: { retailers: [org], networks: new Map(), installers: [] }, historyDays: 5 });
    otherNode = (await buildFleet(h().ctx.db, { count: 1, seed: 4, owners: { retailers: [other], networks: new Map(), installers: [] }, historyDays: 5 }))[0];
    const rows = await h().ctx.db.selectFrom('nodes').select(['id', 'system_json']).where('id', 'in', ids).execute();
    const withPortal = rows.find((r) => JSON.parse(r.system_json).energySystems[0].inverter.hasWebPortal);
    if (!withPortal) throw new Error('no inverter with a portal in the test fleet');
    nodeId = withPortal.id;
    inverterId = JSON.parse(withPortal.system_json).energySystems[0].inverter.id;
    await h().user(org, { username: 'portaladmin' });
    await h().user(org, { username: 'noportal', permissions: ['fleet.node.any'] });

    const url = `/auth/portal_token?deployment=${nodeId}&inverter=${inverterId}`;
    expect((await h().app.inject({ method: 'GET', url })).statusCode).toBe(401);
    const res = await h().app.inject({ method: 'GET', url, headers: await h().bearer('noportal') });
    expect(res.statusCode).toBe(403);
    expect(res.json().data.message).toBe('You do not have the required permissions to perform this action.');
  });

  it("refuses another organisation's node and an unknown inverter", async () => {
    const headers = await h().bearer('portaladmin');
    const other = await h().app.inject({ method: 'GET', url: `/auth/portal_token?deployment=${otherNode}&inverter=${inverterId}`, headers });
    expect(other.statusCode).toBe(404);
    const bad = await h().app.inject({ method: 'GET', url: `/auth/portal_token?deployment=${nodeId}&inverter=nope`, headers });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().data.message).toBe(`Node ${nodeId} has no inverter nope.`);
  });

  it('opens the simulated portal once per token', async () => {
    const headers = await h().bearer('portaladmin');
    const res = await h().app.inject({ method: 'GET', url: `/auth/portal_token?deployment=${nodeId}&inverter=${inverterId}`, headers });
    expect(res.statusCode).toBe(200);
    const { inverterPortalToken, portalUrl } = res.json();
    expect(portalUrl).toMatch(/\/inverter-portal$/);
    const first = await h().app.inject({ method: 'GET', url: `/inverter-portal?token=${inverterPortalToken}&auth=vpp-console` });
    expect(first.statusCode).toBe(200);
    expect(first.body).toContain('Live readings at');
    const again = await h().app.inject({ method: 'GET', url: `/inverter-portal?token=${inverterPortalToken}&auth=vpp-console` });
    expect(again.statusCode).toBe(403);
    expect(again.body).toContain('This portal link has expired or was already used.');
    const forged = await h().app.inject({ method: 'GET', url: `/inverter-portal?token=${inverterPortalToken.slice(0, -4)}AAAA` });
    expect(forged.statusCode).toBe(403);
  });
});
