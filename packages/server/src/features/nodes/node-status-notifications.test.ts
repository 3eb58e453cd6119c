import { expect, it } from 'vitest';
import { buildFleet } from '../../fleet/builder.ts';
import { describeEachDatabase } from '../../test/harness.ts';
import { notifyNodeStatus } from './nodes.service.ts';

describeEachDatabase('node status notifications', (h) => {
  it('tells the users of every fleet holding the node, and only of live changes', async () => {
    const retailer = await h().org('RETAILER', 'Notify Energy');
    const installer = await h().org('INSTALLER', 'Notify Installs');
    const stranger = await h().org('RETAILER', 'Unrelated Energy');
    const [nodeId] = await buildFleet(h().ctx.db, {
      count: 1,
      seed: 9,
      owners: { retailers: [retailer], networks: new Map(), installers: [installer] },
      historyDays: 3,
    });
    await h().user(retailer, { username: 'watcher' });
    await h().user(installer, { username: 'fitter' });
    await h().user(retailer, { username: 'nonode', permissions: ['fleet.dispatches.view'] });
    await h().user(stranger, { username: 'outsider' });
    const now = Math.floor(Date.now() / 1000);

    await notifyNodeStatus(h().ctx, { nodeId, ts: now - 3 * 86400, online: false, siteLabel: 'Old outage', address: '1 Test Street' }, now);
    await notifyNodeStatus(h().ctx, { nodeId, ts: now - 60, online: false, siteLabel: 'Smith Home', address: '1 Test Street, Newtown NSW' }, now);

    const list = async (username: string) =>
      (await h().app.inject({ method: 'GET', url: '/account/notifications', headers: await h().bearer(username) })).json().data.notifications as {
        summary: string;
        body: string;
      }[];
    for (const username of ['watcher', 'fitter']) {
      const notes = await list(username);
      expect(notes.map((n) => n.summary)).toEqual([`Node ${nodeId} is offline`]);
    }
    expect(await list('nonode')).toEqual([]);
    expect(await list('outsider')).toEqual([]);
  });
});
