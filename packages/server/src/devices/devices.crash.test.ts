import { type DeviceCmdMessage, deviceTopics } from '@vpp/shared/devices/schemas';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../test/free-port.ts';
import { serverProcess, waitFor } from '../test/server-process.ts';
import { type ServerProcess, startServerProcess } from '../test/start-server.ts';

/**
 * Issue 28 item 9: two console processes on one PostgreSQL and the machine's Mosquitto
 * (MQTT_TEST_URL) share the devices through the shared subscription. Each reading is stored once,
 * each command sent once, each job run once, and a process killed with SIGKILL loses no reading:
 * what the broker had handed it and it had not stored comes back to it (its persistent session,
 * named after its host and port) when it starts again, while the other carries on.
 */
const external = process.env.MQTT_TEST_URL;
const pgUrl = process.env.TEST_DATABASE_URL;

describe.skipIf(!external || !pgUrl)('two console processes on one PostgreSQL and one broker', () => {
  // A group of this run's own: the machine's broker may hold sessions of earlier runs' consoles.
  const env = {
    SIM_NODES: '8',
    SIM_HISTORY_DAYS: '1',
    SIM_DEMO_DISPATCHES: 'false',
    MQTT_URL: external as string,
    MQTT_SHARE_GROUP: `test-two-${process.pid}-${Date.now()}`,
  };
  const a = serverProcess('postgres', 'devices-two', env);
  let aUrl: string;
  let b: ServerProcess;
  let bPort: number;
  const clients: MqttClient[] = [];
  /** The second process on the first's database; its simulator off (one simulator per database). */
  const startB = (more: Record<string, string> = {}) =>
    startServerProcess({
      port: bPort,
      name: 'devices-two-b',
      log: 'pipe',
      onLog: () => undefined,
      env: { ...env, LOG_LEVEL: 'error', SIMULATOR: 'false', DATABASE_URL: pgUrl as string, DATABASE_SCHEMA: a.schema, CRASH_AT: '', ...more },
    });
  const count = async (sql: string) => Number((await a.query<{ n: number }>(sql))[0].n);

  beforeAll(async () => {
    aUrl = (await a.start()).url;
    bPort = await freePort();
    b = await startB();
  }, 300_000);

  afterAll(async () => {
    for (const c of clients) c.end(true);
    await b?.end('SIGTERM');
    await a.cleanup();
  });

  it('shares the devices: each reading stored once, each command sent once, each job run once, and a killed process loses no reading', async () => {
    const headers = await a.signIn(aUrl);
    const nodes = await a.query<{ id: number; serial_number: string }>('select id, serial_number from nodes order by id limit 4');
    const ids = nodes.map((n) => n.id).join(',');
    const got = new Map<string, DeviceCmdMessage[]>();
    const devices: { id: number; serial: string; c: MqttClient }[] = [];
    for (const n of nodes) {
      const res = await fetch(`${aUrl}/api/nodes/${n.id}/device/credential`, { method: 'POST', headers: { authorization: headers.authorization } });
      expect(res.status).toBe(200);
      const { secret } = ((await res.json()) as { data: { secret: string } }).data;
      const c = await mqtt.connectAsync(external as string, {
        username: n.serial_number,
        password: secret,
        clientId: `test-${n.serial_number}-${process.pid}`,
      });
      clients.push(c);
      got.set(n.serial_number, []);
      c.on('message', (_t, p) => got.get(n.serial_number)?.push(JSON.parse(p.toString())));
      await c.subscribeAsync(deviceTopics(n.serial_number).cmd, { qos: 1 });
      devices.push({ id: n.id, serial: n.serial_number, c });
    }
    const now = Math.floor(Date.now() / 1000);
    const publish = (d: (typeof devices)[number], seq: number) =>
      d.c.publishAsync(deviceTopics(d.serial).telemetry, JSON.stringify({ seq, ts: at(seq), dt: 30, meterPower: seq / 10 }), { qos: 1 });
    // Off the simulator's 30-second grid, so that no simulated reading of these homes shares a time with one of these.
    const at = (seq: number) => now - (now % 30) - 1200 + seq * 30 + 7;
    const stored = () => count(`select count(*) as n from device_readings where node_id in (${ids})`);

    // Both processes take readings: ten of each device.
    await Promise.all(devices.flatMap((d) => Array.from({ length: 10 }, (_, i) => publish(d, i + 1))));
    await waitFor('40 readings', async () => (await stored()) === 40);

    // A command to each device goes out once, from one process or the other.
    const insert = (kind: string, params: object, source: string) =>
      a.query(
        `insert into node_commands (node_id, kind, start_ts, end_ts, params, source, status, created_at) select id, '${kind}', ${now}, ${now + 900}, '${JSON.stringify(params)}', '${source}', 'PENDING', ${now} from nodes where id in (${ids})`,
      );
    await insert('battery_power', { kind: 'battery_power', kw: 2 }, 'test:two-a');
    await waitFor('a command at each device', () => [...got.values()].every((m) => m.length >= 1));
    for (const d of devices)
      for (const m of got.get(d.serial) ?? []) await d.c.publishAsync(deviceTopics(d.serial).ack, JSON.stringify({ id: m.id, result: 'ACCEPTED' }), { qos: 1 });
    await waitFor(
      'the answers',
      async () => (await count(`select count(*) as n from node_commands where source = 'test:two-a' and status = 'ACCEPTED'`)) === 4,
    );
    // A second command after it: both processes' outboxes have gone round since the first went out.
    await insert('export_limit', { kind: 'export_limit', kw: 1, mode: 'net' }, 'test:two-b');
    await waitFor('the second command at each device', () => [...got.values()].every((m) => m.length >= 2));
    for (const messages of got.values()) expect(messages.map((m) => ('control' in m ? m.control.type : 'cancel'))).toEqual(['batteryPowerW', 'opModExpLimW']);

    // Each job ran once: none done was taken twice.
    expect(await count(`select count(*) as n from jobs where status = 'done'`)).toBeGreaterThan(0);
    expect(await count(`select count(*) as n from jobs where status = 'done' and attempts > 1`)).toBe(0);

    // One process killed (SIGKILL) in the middle of storing readings (its simulator off, its only
    // telemetry writes are the devices'): the other stores what comes to it, and what the killed one
    // held, unacknowledged, comes back to it when it starts again.
    await b.end('SIGTERM');
    b = await startB({ CRASH_AT: 'telemetry-write:1' });
    const more = Promise.all(devices.flatMap((d) => Array.from({ length: 15 }, (_, i) => publish(d, i + 11))));
    expect(await b.exited).toBe('SIGKILL');
    await more;
    b = await startB();
    await waitFor('all 100 readings', async () => (await stored()) === 100);
    // Stored once: no reading twice in the raw tables either.
    for (const table of ['tel_open', 'tel_raw'])
      expect(
        await count(`select count(*) as n from (select node_id, ts from ${table} where node_id in (${ids}) group by node_id, ts having count(*) > 1) d`),
      ).toBe(0);
    const times = Array.from({ length: 25 }, (_, i) => at(i + 1)).join(',');
    expect(
      await count(
        `select count(*) as n from (select node_id, ts from tel_raw where node_id in (${ids}) union all select node_id, ts from tel_open where node_id in (${ids})) r where ts in (${times})`,
      ),
    ).toBe(100);
  }, 300_000);
});
