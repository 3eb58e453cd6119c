import { formatDateTime } from '@vpp/shared/format';
import { escapeMarkdown } from '@vpp/shared/notifications/markdown';
import { expect, it } from 'vitest';
import { buildFleet } from '../../demo/builder.ts';
import { describeEachDatabase } from '../../test/harness.ts';
import { nodeReports } from './nodes.reports.service.ts';
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

    await notifyNodeStatus(h().ctx, { nodeId, ts: now - 3 * 86400, online: false }, now);
    await notifyNodeStatus(h().ctx, { nodeId, ts: now - 60, online: false }, now);

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

  it('escapes the site label users wrote when it goes into the markdown of a notification', async () => {
    const org = await h().org('RETAILER', 'Label Energy');
    const [nodeId] = await buildFleet(h().ctx.db, { count: 1, seed: 13, owners: { retailers: [org], networks: new Map(), installers: [] }, historyDays: 1 });
    await h().user(org, { username: 'labeller' });
    const headers = await h().bearer('labeller');
    const label = '[Pay now](https://evil.example) **urgent** <img src=x>';
    const set = await h().app.inject({ method: 'POST', url: `/api/nodes/${nodeId}/sitelabel`, headers, payload: { siteLabel: label } });
    expect(set.statusCode).toBe(200);
    const now = Math.floor(Date.now() / 1000);
    await notifyNodeStatus(h().ctx, { nodeId, ts: now - 60, online: false }, now);
    const [note] = (await h().app.inject({ method: 'GET', url: '/account/notifications', headers })).json().data.notifications;
    const node = await h().ctx.db.selectFrom('nodes').select(['street', 'suburb', 'state', 'timezone']).where('id', '=', nodeId).executeTakeFirstOrThrow();
    const name = `\\[Pay now\\]\\(https://evil\\.example\\) \\*\\*urgent\\*\\* \\<img src=x\\> \\(${escapeMarkdown(`${node.street}, ${node.suburb} ${node.state}`)}\\)`;
    expect(note.body).toBe(
      `**${name}** stopped reporting at ${formatDateTime(now - 60, node.timezone)}.\n\n[Open node ${nodeId}](/fleet-monitoring/nodes/${nodeId})`,
    );
  });

  it("keeps the fleet's connectivity reports: events in the node's log with the outage's length, last contact and status", async () => {
    const org = await h().org('RETAILER', 'Report Energy');
    const [nodeId] = await buildFleet(h().ctx.db, { count: 1, seed: 11, owners: { retailers: [org], networks: new Map(), installers: [] }, historyDays: 3 });
    const reports = nodeReports(h().ctx);
    const t = Math.floor(Date.now() / 1000) - 7 * 86400;
    await reports.connectivity([
      { nodeId, ts: t, online: false, offlineFrom: null },
      { nodeId, ts: t + 5400, online: true, offlineFrom: t },
    ]);
    const events = await h()
      .ctx.db.selectFrom('node_events')
      .select(['ts', 'event_type', 'description', 'duration'])
      .where('node_id', '=', nodeId)
      .where('ts', '>=', t)
      .orderBy('ts')
      .execute();
    expect(events).toEqual([
      { ts: t, event_type: 'NODE_OFFLINE', description: 'The Reposit unit stopped reporting.', duration: null },
      { ts: t + 5400, event_type: 'NODE_ONLINE', description: 'The Reposit unit is reporting again.', duration: 5400 },
    ]);
    await reports.contacts([{ nodeId, lastContact: t + 5400, online: false }]);
    expect(await h().ctx.db.selectFrom('nodes').select(['last_contact', 'connection_offline']).where('id', '=', nodeId).executeTakeFirst()).toEqual({
      last_contact: t + 5400,
      connection_offline: 1,
    });
    // No news about a unit leaves its status as it was.
    await reports.contacts([{ nodeId }]);
    expect((await h().ctx.db.selectFrom('nodes').select('connection_offline').where('id', '=', nodeId).executeTakeFirst())?.connection_offline).toBe(1);
  });
});
