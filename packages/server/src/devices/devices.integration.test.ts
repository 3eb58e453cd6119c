import { type DeviceCmdMessage, type DeviceCommand, deviceTopics } from '@vpp/shared/devices/schemas';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { nowS } from '../db/database.ts';
import { nodeReports } from '../features/nodes/index.ts';
import { node } from '../test/factories.ts';
import { freePort } from '../test/free-port.ts';
import { describeEachDatabase } from '../test/harness.ts';
import { waitFor } from '../test/server-process.ts';
import { cancelCommands, sendCommands } from './devices.commands.ts';
import { type DeviceLink, startDevices } from './index.ts';

type Headers = { authorization: string };

describeEachDatabase('devices on the wire (embedded broker)', (h) => {
  let link: DeviceLink;
  let url: string;
  let admin: Headers;
  let viewer: Headers;
  let org: number;
  const clients: MqttClient[] = [];
  /** Nodes with a fresh credential each: `a` misbehaves in each case, `b` reports beside it. */
  let a: { id: number; serial: string; secret: string };
  let b: { id: number; serial: string; secret: string };
  let seq = 1000;

  const post = (path: string, headers: Headers) => h().app.inject({ method: 'POST', url: path, headers });
  const get = (path: string, headers: Headers) => h().app.inject({ method: 'GET', url: path, headers });

  async function commissioned() {
    const n = await node(h(), [org]);
    const r = await post(`/api/nodes/${n.id}/device/credential`, admin);
    expect(r.statusCode).toBe(200);
    return { ...n, secret: r.json().data.secret as string };
  }

  async function connect(d: { serial: string; secret: string }, opts: mqtt.IClientOptions = {}) {
    const c = await mqtt.connectAsync(url, { username: d.serial, password: d.secret, reconnectPeriod: 0, ...opts });
    clients.push(c);
    return c;
  }

  const reading = (over: Record<string, unknown> = {}) => ({
    seq: ++seq,
    ts: nowS() - 60,
    dt: 30,
    meterPower: 1.25,
    batteryPower: -2,
    soc: 55,
    solarPower: 3,
    ...over,
  });
  const publish = (c: MqttClient, serial: string, payload: unknown) =>
    c.publishAsync(deviceTopics(serial).telemetry, typeof payload === 'string' ? payload : JSON.stringify(payload), { qos: 1 });
  const stored = async (nodeId: number, s: number) =>
    Boolean(await h().ctx.db.selectFrom('device_readings').select('seq').where('node_id', '=', nodeId).where('seq', '=', s).executeTakeFirst());
  const lastRejected = async (nodeId: number) => (await get(`/api/nodes/${nodeId}/device`, viewer)).json().data.lastRejected?.reason as string | undefined;

  beforeAll(async () => {
    org = await h().org();
    admin = await h().bearer((await h().user(org, { permissions: ['fleet.administrator'] })).username);
    viewer = await h().bearer((await h().user(org, { permissions: ['fleet.node.view'] })).username);
    h().ctx.config.MQTT_PORT = await freePort();
    link = (await startDevices(h().ctx, h().app.log, nodeReports(h().ctx), { outboxEveryMs: 200 })) as DeviceLink;
    url = `mqtt://127.0.0.1:${link.port}`;
    a = await commissioned();
    b = await commissioned();
  });

  afterAll(async () => {
    for (const c of clients) c.end(true);
    await link?.stop();
  });

  /** Runs a misbehaviour of `a` while `b` reports: `b`'s reading must be stored all the same. */
  async function beside(misbehave: (c: MqttClient) => Promise<unknown>) {
    const ca = await connect(a);
    const cb = await connect(b);
    const good = reading();
    await Promise.all([misbehave(ca).catch(() => undefined), publish(cb, b.serial, good)]);
    expect(await stored(b.id, good.seq)).toBe(true);
  }

  it('issues a credential once to an administrator, shows viewers the device without it, and refuses others', async () => {
    const n = await node(h(), [org]);
    const other = await node(h(), [await h().org()]);
    expect((await post(`/api/nodes/${n.id}/device/credential`, viewer)).statusCode).toBe(403);
    expect((await post(`/api/nodes/${other.id}/device/credential`, admin)).statusCode).toBe(404);
    const issued = (await post(`/api/nodes/${n.id}/device/credential`, admin)).json().data;
    expect(issued).toMatchObject({ username: n.serial, broker: { url: null, port: link.port } });
    expect(issued.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const row = await h().ctx.db.selectFrom('device_credentials').selectAll().where('node_id', '=', n.id).executeTakeFirstOrThrow();
    expect(row.secret_hash).not.toContain(issued.secret);
    const view = (await get(`/api/nodes/${n.id}/device`, viewer)).json().data;
    expect(view).toEqual({
      username: n.serial,
      credentialIssuedAt: issued.issuedAt,
      broker: { url: null, port: link.port },
      lastRejected: null,
      rejectedCount: 0,
      droppedCount: 0,
    });
    expect(JSON.stringify(view)).not.toContain(issued.secret);
    expect((await get(`/api/nodes/${other.id}/device`, viewer)).statusCode).toBe(404);
  });

  it('lets a device in with its secret only, and not with the secret a rotation replaced', async () => {
    const d = await commissioned();
    await expect(connect({ serial: d.serial, secret: 'not-the-secret' })).rejects.toThrow(/Bad username or password|Not authorized|bad user/i);
    (await connect(d)).end(true);
    const rotated = (await post(`/api/nodes/${d.id}/device/credential`, admin)).json().data.secret as string;
    await expect(connect(d)).rejects.toThrow(/Bad username or password|Not authorized|bad user/i);
    (await connect({ serial: d.serial, secret: rotated })).end(true);
  });

  it('stores a reading in the node latest values, and a batch, each sequence once even when sent again after the fold', async () => {
    const c = await connect(a);
    const r = reading({ meterPower: 2.5 });
    await publish(c, a.serial, r);
    const latest = await h().ctx.db.selectFrom('tel_latest').select(['ts', 'meter_p']).where('node_id', '=', a.id).executeTakeFirstOrThrow();
    expect({ ts: Number(latest.ts), p: latest.meter_p }).toEqual({ ts: r.ts, p: 2.5 });
    const batch = [reading({ ts: nowS() - 3600 }), reading({ ts: nowS() - 3570 })];
    await publish(c, a.serial, { readings: batch });
    await h().ctx.telemetry.fold(undefined, nowS());
    // Sent again (a device that never saw its acknowledgement): nothing is added.
    await publish(c, a.serial, { readings: batch });
    await publish(c, a.serial, r);
    await h().ctx.telemetry.fold(undefined, nowS());
    const raw = await h()
      .ctx.db.selectFrom('tel_raw')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('node_id', '=', a.id)
      .where('ts', 'in', [batch[0].ts, batch[1].ts])
      .executeTakeFirstOrThrow();
    expect(Number(raw.n)).toBe(2);
    const cov = await h()
      .ctx.db.selectFrom('tel_5m')
      .select((eb) => eb.fn.sum<number>('cov').as('cov'))
      .where('node_id', '=', a.id)
      .where('ts', '>=', batch[0].ts - 300)
      .where('ts', '<', batch[1].ts + 300)
      .executeTakeFirstOrThrow();
    expect(Number(cov.cov)).toBe(60);
  });

  it('refuses malformed JSON and says so on the node page', async () => {
    await beside((c) => publish(c, a.serial, '{"seq": 1, "ts":'));
    expect(await lastRejected(a.id)).toBe('Malformed JSON.');
  });

  it('refuses wrong types, naming the field', async () => {
    await beside((c) => publish(c, a.serial, reading({ meterPower: 'lots' })));
    expect(await lastRejected(a.id)).toBe('meterPower: Invalid input: expected number, received string');
  });

  it('refuses battery power beyond three times its rating, and a state of charge outside 0–100', async () => {
    const r = reading({ batteryPower: 15.5 });
    await beside((c) => publish(c, a.serial, r));
    expect(await lastRejected(a.id)).toBe(`Reading ${r.seq}: batteryPower 15.5 kW is beyond three times the rated 5 kW.`);
    expect(await stored(a.id, r.seq)).toBe(false);
    const s = reading({ soc: 140 });
    await beside((c) => publish(c, a.serial, s));
    expect(await lastRejected(a.id)).toBe(`Reading ${s.seq}: soc 140 is outside 0–100.`);
  });

  it('refuses a timestamp more than 5 minutes ahead or older than raw retention, storing the rest of its batch', async () => {
    const ahead = reading({ ts: nowS() + 600 });
    const fine = reading();
    await beside((c) => publish(c, a.serial, { readings: [fine, ahead] }));
    expect(await lastRejected(a.id)).toBe(`Reading ${ahead.seq}: timestamp ${ahead.ts} is more than 5 minutes ahead of the console's clock.`);
    expect(await stored(a.id, fine.seq)).toBe(true);
    const old = reading({ ts: nowS() - 4 * 86400 });
    await beside((c) => publish(c, a.serial, old));
    expect(await lastRejected(a.id)).toBe(`Reading ${old.seq}: timestamp ${old.ts} is older than the raw retention (3 days).`);
  });

  it('refuses a publish on another device topic at the broker, and records it on the publisher', async () => {
    const intruder = reading();
    await beside(async (c) => {
      const closed = new Promise<void>((resolve) => c.once('close', () => resolve()));
      c.publish(deviceTopics(b.serial).telemetry, JSON.stringify(intruder), { qos: 1 });
      await closed;
    });
    expect(await stored(b.id, intruder.seq)).toBe(false);
    // The broker closes the publisher at once and records the refusal on its node after (CI read the
    // refusal before it, the last one recorded): wait for it, then assert its words.
    const refusal = `Refused a publish on another device's topic ${deviceTopics(b.serial).telemetry}.`;
    await waitFor('the refusal to be recorded on the publisher', async () => (await lastRejected(a.id)) === refusal);
    expect(await lastRejected(a.id)).toBe(refusal);
  });

  it('drops and counts a flood beyond the rate limit', async () => {
    const d = await commissioned();
    const c = await connect(d);
    const flood = Array.from({ length: 80 }, () => reading());
    await beside(() => Promise.all(flood.map((r) => publish(c, d.serial, r))));
    await link.ingest.drain();
    const view = (await get(`/api/nodes/${d.id}/device`, viewer)).json().data;
    expect(view.droppedCount).toBeGreaterThanOrEqual(40);
    const kept = await h()
      .ctx.db.selectFrom('device_readings')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('node_id', '=', d.id)
      .executeTakeFirstOrThrow();
    expect(Number(kept.n) + view.droppedCount).toBe(80);
  });

  it('sends a command to its device only while online, and records accepted, opted out and rejected answers', async () => {
    const d = await commissioned();
    await h().ctx.db.updateTable('nodes').set({ connection_offline: 1 }).where('id', '=', d.id).execute();
    const now = nowS();
    await sendCommands(h().ctx.db, [
      { nodeId: d.id, start: now, end: now + 3600, spec: { kind: 'export_limit', kw: 1.5, mode: 'net', rampS: 60 }, source: 'test:wire' },
      { nodeId: d.id, start: now, end: now + 3600, spec: { kind: 'battery_power', kw: 4 }, source: 'test:wire' },
      { nodeId: d.id, start: now, end: now + 3600, spec: { kind: 'charge_full' }, source: 'test:wire' },
    ]);
    // Created within the call: on a busy machine the call may end in the next second.
    const sentBy = nowS();
    const c = await connect(d, { will: { topic: deviceTopics(d.serial).state, payload: Buffer.from('{"online":false}'), qos: 1, retain: true } });
    const received: DeviceCommand[] = [];
    c.on('message', (_t, p) => received.push(JSON.parse(p.toString())));
    await c.subscribeAsync(deviceTopics(d.serial).cmd, { qos: 1 });
    // Offline: nothing is sent.
    await link.outbox.round();
    expect(received).toEqual([]);
    await c.publishAsync(
      deviceTopics(d.serial).state,
      JSON.stringify({
        online: true,
        firmware: '1.0.0',
        inverterKw: 5,
        batteryKw: 5,
        batteryKwh: 13.5,
        capabilities: { battery: true, solar: true, phases: 1, submeters: [] },
      }),
      { qos: 1, retain: true },
    );
    await waitFor('three commands', () => received.length === 3);
    expect(received.map((r) => r.control)).toEqual([
      { type: 'opModExpLimW', w: 1500, rampS: 60 },
      { type: 'batteryPowerW', w: 4000 },
      { type: 'chargeToFull' },
    ]);
    expect(received[0]).toMatchObject({ validFrom: now, validTo: now + 3600 });
    expect(received[0].createdAt).toBeGreaterThanOrEqual(now);
    expect(received[0].createdAt).toBeLessThanOrEqual(sentBy);
    const answers = [
      { id: received[0].id, result: 'ACCEPTED' },
      { id: received[1].id, result: 'OPTED_OUT' },
      { id: received[2].id, result: 'REJECTED', reason: 'Battery in service mode' },
    ];
    for (const ack of answers) await c.publishAsync(deviceTopics(d.serial).ack, JSON.stringify(ack), { qos: 1 });
    const rows = await h()
      .ctx.db.selectFrom('node_commands')
      .select(['status', 'reason', 'responded_at'])
      .where('source', '=', 'test:wire')
      .orderBy('id')
      .execute();
    expect(rows.map((r) => [r.status, r.reason])).toEqual([
      ['ACCEPTED', null],
      ['OPTED_OUT', null],
      ['REJECTED', 'Battery in service mode'],
    ]);
    const events = await h().ctx.db.selectFrom('node_events').select('event_type').where('node_id', '=', d.id).orderBy('id').execute();
    expect(events.map((e) => e.event_type)).toContain('NODE_ONLINE');
    // The device drops away: the broker publishes its last will, and the node goes offline.
    c.stream.destroy();
    await waitFor(
      'the last will',
      async () => (await h().ctx.db.selectFrom('nodes').select('connection_offline').where('id', '=', d.id).executeTakeFirstOrThrow()).connection_offline === 1,
    );
    const after = await h().ctx.db.selectFrom('node_events').select('event_type').where('node_id', '=', d.id).orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(after.event_type).toBe('NODE_OFFLINE');
  });

  it("records a device's answers to its own commands only: an answer naming another device's command changes nothing", async () => {
    const [a, b] = [await commissioned(), await commissioned()];
    const now = nowS();
    await sendCommands(h().ctx.db, [
      { nodeId: a.id, start: now, end: now + 3600, spec: { kind: 'battery_power', kw: 2 }, source: 'test:own' },
      { nodeId: b.id, start: now, end: now + 3600, spec: { kind: 'battery_power', kw: 3 }, source: 'test:own' },
    ]);
    const commands = await h().ctx.db.selectFrom('node_commands').select(['id', 'node_id']).where('source', '=', 'test:own').orderBy('id').execute();
    const [ofA, ofB] = commands.map((c) => c.id);
    const c = await connect(a);
    // On the embedded broker the acknowledgement follows the answers' recording.
    await c.publishAsync(deviceTopics(a.serial).ack, JSON.stringify({ id: ofB, result: 'OPTED_OUT' }), { qos: 1 });
    await c.publishAsync(deviceTopics(a.serial).ack, JSON.stringify({ id: ofA, result: 'ACCEPTED' }), { qos: 1 });
    const rows = await h().ctx.db.selectFrom('node_commands').select(['id', 'status', 'responded_at']).where('source', '=', 'test:own').orderBy('id').execute();
    expect(rows.map((r) => [r.id, r.status, r.responded_at === null])).toEqual([
      [ofA, 'ACCEPTED', false],
      [ofB, 'PENDING', true],
    ]);
  });

  it('sends each device only what it is to follow: the precedence resolved window by window, sent again as events come and go', async () => {
    const installer = await h().org('INSTALLER', 'Solar Fitters');
    const d = await commissioned();
    const c = await connect(d);
    const got: DeviceCmdMessage[] = [];
    c.on('message', (_t, p) => got.push(JSON.parse(p.toString())));
    await c.subscribeAsync(deviceTopics(d.serial).cmd, { qos: 1 });
    const t0 = nowS() + 3600;
    const hour = 3600;
    /** The last message the device had about a command, once it has had `n` of them. */
    const last = async (id: number, n = 1) => {
      await waitFor(`message ${n} about command ${id}`, () => got.filter((m) => m.id === id).length >= n);
      return got.filter((m) => m.id === id).at(-1);
    };
    const idOf = async (source: string) =>
      (await h().ctx.db.selectFrom('node_commands').select('id').where('source', '=', source).executeTakeFirstOrThrow()).id;
    const ack = (id: number, result: string) => c.publishAsync(deviceTopics(d.serial).ack, JSON.stringify({ id, result }), { qos: 1 });

    // The installer's three-hour lockout: the device follows all of it.
    await sendCommands(h().ctx.db, [{ nodeId: d.id, start: t0, end: t0 + 3 * hour, spec: { kind: 'battery_power', kw: 0 }, source: 'test:lockout' }], {
      organisationId: installer,
    });
    const lockout = await idOf('test:lockout');
    expect(await last(lockout)).toMatchObject({ validFrom: t0, validTo: t0 + 3 * hour, control: { type: 'batteryPowerW', w: 0 } });
    expect(await last(lockout)).not.toHaveProperty('windows');
    await ack(lockout, 'ACCEPTED');

    // The retailer's one-hour discharge inside it takes precedence: the lockout is sent again with the windows around it.
    await sendCommands(h().ctx.db, [{ nodeId: d.id, start: t0 + hour, end: t0 + 2 * hour, spec: { kind: 'battery_power', kw: 4 }, source: 'test:discharge' }], {
      organisationId: org,
    });
    const discharge = await idOf('test:discharge');
    expect(await last(discharge)).toMatchObject({ validFrom: t0 + hour, validTo: t0 + 2 * hour, control: { type: 'batteryPowerW', w: 4000 } });
    expect(await last(discharge)).not.toHaveProperty('windows');
    expect(await last(lockout, 2)).toMatchObject({
      windows: [
        { from: t0, to: t0 + hour },
        { from: t0 + 2 * hour, to: t0 + 3 * hour },
      ],
    });
    await ack(discharge, 'ACCEPTED');

    // The discharge is called off: the device is told, and follows the whole lockout again.
    await cancelCommands(h().ctx.db, 'test:discharge');
    expect(await last(discharge, 2)).toEqual({ id: discharge, cancel: true });
    expect(await last(lockout, 3)).not.toHaveProperty('windows');

    // Another discharge, which the customer declines: the lockout is set aside while it waits for the answer, and back after.
    await sendCommands(h().ctx.db, [{ nodeId: d.id, start: t0 + hour, end: t0 + 2 * hour, spec: { kind: 'battery_power', kw: 3 }, source: 'test:declined' }], {
      organisationId: org,
    });
    const declined = await idOf('test:declined');
    await last(declined);
    expect((await last(lockout, 4)) as DeviceCommand).toHaveProperty('windows');
    await ack(declined, 'OPTED_OUT');
    expect(await last(lockout, 5)).not.toHaveProperty('windows');

    // Every message was sent once: nothing unchanged went out again.
    await link.outbox.round();
    expect(got.filter((m) => m.id === lockout)).toHaveLength(5);
    expect(got.filter((m) => m.id === discharge)).toHaveLength(2);
  });
});
