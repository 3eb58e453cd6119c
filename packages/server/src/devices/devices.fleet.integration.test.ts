import { SimulatedDevice } from '@vpp/fleet/device';
import { type Fleet, runFleet } from '@vpp/fleet/fleet';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { nowS, setClock } from '../db/database.ts';
import { nodeReports } from '../features/nodes/index.ts';
import { createWorker, type Worker } from '../platform/jobs.ts';
import { TELEMETRY_FOLD_RECURRING, telemetryFoldJob } from '../telemetry/index.ts';
import { node } from '../test/factories.ts';
import { freePort } from '../test/free-port.ts';
import { describeEachDatabase } from '../test/harness.ts';
import { waitFor } from '../test/server-process.ts';
import { cancelCommands, sendCommands } from './devices.commands.ts';
import { commissionFleet, type DeviceLink, startDevices } from './index.ts';

/**
 * The simulated fleet (packages/fleet) against the console over the embedded broker, as
 * `npm run fleet:commission` and `npm run fleet` run it: the devices know only their identities
 * and the wire.
 */
describeEachDatabase('the simulated fleet on the wire', (h) => {
  let link: DeviceLink;
  let fleet: Fleet;
  let ids: number[];
  let org: number;
  let worker: Worker;
  const quiet = { info() {}, warn() {} };

  const start = async () => (await startDevices(h().ctx, h().app.log, nodeReports(h().ctx), { outboxEveryMs: 200 })) as DeviceLink;
  const seqs = async (nodeId: number) =>
    (await h().ctx.db.selectFrom('device_readings').select('seq').where('node_id', '=', nodeId).execute()).map((r) => Number(r.seq));

  beforeAll(async () => {
    org = await h().org();
    ids = [(await node(h(), [org])).id, (await node(h(), [org], { postcode: '2000' })).id];
    h().ctx.config.MQTT_PORT = await freePort();
    link = await start();
    const identities = await commissionFleet(h().ctx.db, { nodeIds: ids });
    // The console keeps each secret only as a hash.
    const stored = await h().ctx.db.selectFrom('device_credentials').select('secret_hash').where('node_id', 'in', ids).execute();
    expect(stored.map((s) => s.secret_hash).sort()).not.toContain(identities.devices[0].secret);
    expect(stored.every((s) => s.secret_hash.startsWith('sha256:'))).toBe(true);
    fleet = runFleet({ devices: identities.devices, broker: `mqtt://127.0.0.1:${link.port}`, intervalS: 2, log: quiet });
    // The console's fold of each closed 5-minute bucket, a job of its worker.
    worker = createWorker(h().ctx, [telemetryFoldJob], { recurring: [TELEMETRY_FOLD_RECURRING], pollMs: 100 });
    worker.start();
  });

  afterAll(async () => {
    await worker?.stop();
    await fleet?.stop();
    await link?.stop();
  });

  it('reports every interval from each device, which the console takes as online', async () => {
    for (const id of ids) await waitFor(`readings of node ${id}`, async () => (await seqs(id)).length >= 2);
    const nodes = await h().ctx.db.selectFrom('nodes').select(['id', 'connection_offline']).where('id', 'in', ids).execute();
    expect(nodes.map((n) => n.connection_offline)).toEqual([0, 0]);
    const latest = await h().ctx.db.selectFrom('tel_latest').selectAll().where('node_id', 'in', ids).execute();
    expect(latest).toHaveLength(2);
    for (const l of latest) expect(l.soc).toBeGreaterThan(0);
  });

  it('obeys a command and answers it; the console records the answer', async () => {
    const now = nowS();
    await sendCommands(h().ctx.db, [{ nodeId: ids[0], start: now - 1, end: now + 600, spec: { kind: 'battery_power', kw: 2 }, source: 'test:fleet' }]);
    const answer = await waitFor('the answer', async () => {
      const c = await h().ctx.db.selectFrom('node_commands').select(['status', 'responded_at']).where('source', '=', 'test:fleet').executeTakeFirstOrThrow();
      return c.status === 'PENDING' ? undefined : c;
    });
    // A customer may opt out of a battery command (one in twenty); otherwise the battery follows it.
    expect(['ACCEPTED', 'OPTED_OUT']).toContain(answer.status);
    expect(answer.responded_at).not.toBeNull();
    if (answer.status === 'ACCEPTED')
      await waitFor('the battery at the setpoint', async () => {
        const l = await h().ctx.db.selectFrom('tel_latest').select('battery_p').where('node_id', '=', ids[0]).executeTakeFirstOrThrow();
        return l.battery_p === 2;
      });
  });

  it('follows, of two events on its battery, the one the console says has precedence, and returns to the other when that one is called off', async () => {
    const installer = await h().org('INSTALLER', 'Solar Fitters');
    const now = nowS();
    const battery = async () =>
      (await h().ctx.db.selectFrom('tel_latest').select('battery_p').where('node_id', '=', ids[1]).executeTakeFirstOrThrow()).battery_p;
    const answer = async (source: string) =>
      waitFor(`the answer to ${source}`, async () => {
        const c = await h().ctx.db.selectFrom('node_commands').select('status').where('source', '=', source).executeTakeFirstOrThrow();
        return c.status === 'PENDING' ? undefined : c.status;
      });
    // The installer's lockout first, then the retailer's discharge over the same window: the discharge has precedence.
    await sendCommands(h().ctx.db, [{ nodeId: ids[1], start: now - 1, end: now + 600, spec: { kind: 'battery_power', kw: 0 }, source: 'test:lockout' }], {
      organisationId: installer,
    });
    await sendCommands(h().ctx.db, [{ nodeId: ids[1], start: now - 1, end: now + 600, spec: { kind: 'battery_power', kw: 3 }, source: 'test:discharge' }], {
      organisationId: org,
    });
    const lockout = await answer('test:lockout');
    const discharge = await answer('test:discharge');
    // (A customer may opt out of either: one in twenty.)
    if (discharge === 'ACCEPTED') await waitFor('the battery discharging', async () => (await battery()) === 3);
    await cancelCommands(h().ctx.db, 'test:discharge');
    if (lockout === 'ACCEPTED') await waitFor('the battery locked out again', async () => (await battery()) === 0);
  });

  it('keeps its readings while the broker is away and sends them as a batch once it is back', async () => {
    const device = fleet.devices[1];
    await link.stop();
    await waitFor('the device to see the broker gone', () => !device.connected);
    await waitFor('readings kept', () => device.buffer.length >= 2);
    const kept = device.buffer.map((r) => r.seq);
    link = await start();
    await waitFor('the kept readings stored', async () => {
      const stored = new Set(await seqs(ids[1]));
      return kept.every((s) => stored.has(s));
    });
    // As a batch (the device counts a batch once the broker has acknowledged it, after the console stored it).
    await waitFor('the batch acknowledged', () => device.counts.resent >= kept.length);
  });

  // Last in this file: it runs the console's clock fast (an hour in six seconds) and leaves it so.
  it('takes back a device away for an hour: its kept hour fills its graphs, and its offline and online events are in its history', async () => {
    const id = (await node(h(), [org], { postcode: '3000' })).id;
    const [identity] = (await commissionFleet(h().ctx.db, { nodeIds: [id] })).devices;
    // The fleet's own device, its reports timed by the test on the console's clock.
    const device = new SimulatedDevice(identity, { broker: `mqtt://127.0.0.1:${link.port}`, log: quiet });
    const headers = await h().bearer((await h().user(org)).username);
    const get = async (url: string) => {
      const res = await h().app.inject({ method: 'GET', url, headers });
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    };
    setClock(600, Date.now() / 1000);
    try {
      device.connect();
      await waitFor('the device connected', () => device.connected);
      const first = nowS() - (nowS() % 30);
      device.report(first, 30);
      await waitFor('its live reading', async () => (await seqs(id)).includes(first));
      // Away: the connection drops without a goodbye, and the broker publishes its last will.
      await device.stop('drop');
      await waitFor(
        'the node offline',
        async () => (await h().ctx.db.selectFrom('nodes').select('connection_offline').where('id', '=', id).executeTakeFirstOrThrow()).connection_offline === 1,
      );
      const offlineAt = Number(
        (await h().ctx.db.selectFrom('node_events').select('ts').where('node_id', '=', id).where('event_type', '=', 'NODE_OFFLINE').executeTakeFirstOrThrow())
          .ts,
      );
      // The hour it is away for, from its last will on; it keeps a reading every 30 s of it.
      const away = offlineAt - (offlineAt % 30) + 30;
      await waitFor('an hour to pass', () => nowS() >= away + 3600);
      for (let ts = away; ts < away + 3600; ts += 30) device.report(ts, 30);
      expect(device.buffer).toHaveLength(120);
      device.connect();
      await waitFor('the kept hour stored', async () => (await seqs(id)).length === 121, 60_000);
      // Its graph: every 5-minute bucket of the hour holds a value (a late reading joins its bucket's
      // history at the next fold, the fold job's run at the next 5-minute boundary).
      const from = away - (away % 300) + 300;
      const to = away + 3600 - ((away + 3600) % 300);
      const gaps = async () => {
        const series = (await get(`/api/nodes/${id}/data?metrics=meterPower,soc&start=${from}&end=${to}&interval=300&fill=null`)).series as Record<
          string,
          Record<string, number | null>
        >;
        const buckets = Object.entries(series).filter(([t]) => Number(t) >= from && Number(t) < to);
        expect(buckets.length).toBe((to - from) / 300);
        return buckets.filter(([, p]) => p.meterPower === null || p.soc === null).map(([t]) => t);
      };
      await waitFor('the graph filled', async () => (await gaps()).length === 0);
      // Its history: offline, then online again after the hour.
      await waitFor(
        'the node online',
        async () => (await h().ctx.db.selectFrom('nodes').select('connection_offline').where('id', '=', id).executeTakeFirstOrThrow()).connection_offline === 0,
      );
      const events = (await get(`/api/nodes/${id}/events?limit=10&offset=0`)).data as { eventType: string; ts: number; duration: number | null }[];
      const [online, offline] = events.filter((e) => e.eventType === 'NODE_ONLINE' || e.eventType === 'NODE_OFFLINE');
      expect(offline).toMatchObject({ eventType: 'NODE_OFFLINE' });
      expect(online).toMatchObject({ eventType: 'NODE_ONLINE' });
      expect(online.ts - offline.ts).toBeGreaterThanOrEqual(3600);
      expect(online.duration).toBeGreaterThanOrEqual(3600);
    } finally {
      await device.stop();
      setClock(1, 0);
    }
  }, 120_000);
});
