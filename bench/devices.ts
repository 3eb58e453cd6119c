// `npm run bench:devices -- --nodes 5000 --interval 30 --minutes 2`: devices reporting over MQTT through
// the embedded broker into one console (issue 28). Every device connects with its own credential and
// publishes a reading every `interval` seconds (spread evenly); on the embedded broker the PUBACK
// follows the reading's storage, so publish → PUBACK is publish → the node's latest values. Then a
// reconnect storm: every device drops, reconnects and resends a buffered 10 minutes as batches. Then a
// dispatch: a battery command to up to `--commands` devices with a battery (10,000 by default) is
// stored as a dispatch stores its orders; the outbox sends them; each device answers ACCEPTED on
// `cmd/ack`; measured until every device has its command, and until every answer is recorded.
// Prints messages per second, latency percentiles, the console's CPU per 1,000 messages a second and
// RSS, stored and duplicate counts. The devices run in this process too: CPU is the process's whole.
import { parseArgs } from 'node:util';
import { deviceTopics } from '@vpp/shared';
import mqtt, { type MqttClient } from 'mqtt';
import pino from 'pino';
import { buildFleet } from '../packages/server/src/demo/builder.ts';
import { sendCommands } from '../packages/server/src/devices/devices.commands.ts';
import { hashSecret, newSecret, saveCredential, startDevices } from '../packages/server/src/devices/index.ts';
import { nodeReports } from '../packages/server/src/features/nodes/index.ts';
import { freePort } from '../packages/server/src/test/free-port.ts';
import { openBench } from './setup.ts';

const { values } = parseArgs({
  options: {
    nodes: { type: 'string', default: '5000' },
    interval: { type: 'string', default: '30' },
    minutes: { type: 'string', default: '2' },
    commands: { type: 'string', default: '10000' },
  },
});
const NODES = Number(values.nodes);
const INTERVAL_S = Number(values.interval);
const MINUTES = Number(values.minutes);
const log = (s: string) => process.stderr.write(`${s}\n`);
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? Math.round(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]) : 0;
};

const { handle, ctx, org, close } = await openBench('devices', { MQTT_PORT: String(await freePort()) });
const now = Math.floor(Date.now() / 1000);
log(`Building ${NODES} nodes (${handle.dialect})…`);
const ids = await buildFleet(handle.db, { count: NODES, seed: 9, owners: { retailers: [org], networks: new Map(), installers: [] }, historyDays: 1, now });
await nodeReports(ctx).joined(ids);
await ctx.telemetry.ensurePartitions(now - 2 * 86400, now + 86400);
const nodes = await handle.db.selectFrom('nodes').select(['id', 'serial_number']).execute();
const secrets = new Map<number, string>();
for (const n of nodes) {
  const secret = newSecret();
  secrets.set(n.id, secret);
  await saveCredential(handle.db, n.id, hashSecret(secret), now);
}
const link = await startDevices(ctx, pino({ level: 'silent' }), nodeReports(ctx));
if (!link?.port) throw new Error('the embedded broker did not start');
const url = `mqtt://127.0.0.1:${link.port}`;

/** A device's connection, tried again when refused at the door (a loaded machine resets some of 200 connections at once). */
async function connect(username: string, password: string | undefined): Promise<MqttClient> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await mqtt.connectAsync(url, { username, password, reconnectPeriod: 1000 });
    } catch (err) {
      if (attempt >= 5) throw err;
      await new Promise((resolve) => setTimeout(resolve, 500 * attempt));
    }
  }
}

log(`Connecting ${NODES} devices…`);
const clients: { c: MqttClient; serial: string; seq: number }[] = [];
for (let i = 0; i < nodes.length; i += 100) {
  clients.push(
    ...(await Promise.all(
      nodes.slice(i, i + 100).map(async (n) => ({
        c: await connect(n.serial_number, secrets.get(n.id)),
        serial: n.serial_number,
        seq: 0,
      })),
    )),
  );
}
const reading = (d: (typeof clients)[number], ts: number) => ({ seq: ++d.seq, ts, dt: INTERVAL_S, meterPower: 1.2, meterVoltage: 240, meterFrequency: 50 });

const cpu0 = process.cpuUsage();
const t0 = Date.now();
const latencies: number[] = [];
let sent = 0;
log(`Reporting every ${INTERVAL_S} s for ${MINUTES} min…`);
await new Promise<void>((resolve) => {
  const perTick = Math.max(1, Math.round(NODES / (INTERVAL_S * 10)));
  let next = 0;
  const timer = setInterval(() => {
    if (Date.now() - t0 > MINUTES * 60_000) {
      clearInterval(timer);
      return resolve();
    }
    for (let k = 0; k < perTick; k++) {
      const d = clients[next++ % clients.length];
      const start = performance.now();
      sent++;
      void d.c
        .publishAsync(deviceTopics(d.serial).telemetry, JSON.stringify(reading(d, Math.floor(Date.now() / 1000))), { qos: 1 })
        .then(() => latencies.push(performance.now() - start));
    }
  }, 100);
});
const elapsedS = (Date.now() - t0) / 1000;
const cpu = process.cpuUsage(cpu0);
const rate = sent / elapsedS;
const cpuPerK = ((cpu.user + cpu.system) / 1e6 / elapsedS / (rate / 1000)) * 100;

log('Reconnect storm: every device drops, returns and resends 10 buffered minutes…');
const stormStart = Date.now();
const storedBefore = link.ingest.counts.stored;
for (const d of clients) d.c.end(true);
const storm: Promise<unknown>[] = [];
for (let i = 0; i < clients.length; i += 200) {
  const batch = clients.slice(i, i + 200);
  await Promise.all(
    batch.map(async (d, j) => {
      const n = nodes[i + j];
      d.c = await connect(d.serial, secrets.get(n.id));
      const t = Math.floor(Date.now() / 1000) - 600;
      const readings = Array.from({ length: 600 / INTERVAL_S }, (_, k) => reading(d, t + k * INTERVAL_S));
      storm.push(d.c.publishAsync(deviceTopics(d.serial).telemetry, JSON.stringify({ readings }), { qos: 1 }));
      // Resent (a device that missed its acknowledgement): stored once.
      storm.push(d.c.publishAsync(deviceTopics(d.serial).telemetry, JSON.stringify({ readings }), { qos: 1 }));
    }),
  );
}
await Promise.all(storm);
const stormS = (Date.now() - stormStart) / 1000;
const expected = clients.length * (600 / INTERVAL_S);

log('Dispatch: a battery command to every device with a battery, over MQTT, each answered on cmd/ack…');
const batteries = (await handle.db.selectFrom('nodes').select(['id', 'serial_number']).where('battery_kw', '>', 0).orderBy('id').execute()).slice(
  0,
  Number(values.commands),
);
const bySerial = new Map(clients.map((d) => [d.serial, d]));
const got = new Set<number>();
let lastGotMs = 0;
await Promise.all(
  batteries.map(async (n) => {
    const d = bySerial.get(n.serial_number);
    if (!d) return;
    const topics = deviceTopics(d.serial);
    d.c.on('message', (topic, payload) => {
      if (topic !== topics.cmd) return;
      const m = JSON.parse(payload.toString('utf8')) as { id: number; cancel?: boolean };
      if (m.cancel) return;
      if (!got.has(m.id)) {
        got.add(m.id);
        lastGotMs = performance.now();
      }
      void d.c.publishAsync(topics.ack, JSON.stringify({ id: m.id, result: 'ACCEPTED' }), { qos: 1 });
    });
    await d.c.subscribeAsync(topics.cmd, { qos: 1 });
  }),
);
const at = Math.floor(Date.now() / 1000);
await sendCommands(
  handle.db,
  batteries.map((n) => ({ nodeId: n.id, start: at + 60, end: at + 1860, spec: { kind: 'battery_power' as const, kw: -2 }, source: 'bench:dispatch' })),
  { organisationId: org },
);
// From the orders' commit, as a dispatch's creation stores them.
const ordered = performance.now();
let answeredMs = 0;
for (;;) {
  const [r] = await handle.db
    .selectFrom('node_commands')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('source', '=', 'bench:dispatch')
    .where('status', 'in', ['ACCEPTED', 'OPTED_OUT'])
    .execute();
  if (Number(r.n) >= batteries.length) {
    answeredMs = performance.now() - ordered;
    break;
  }
  if (performance.now() - ordered > 300_000) {
    answeredMs = Number.NaN;
    break;
  }
  await new Promise((resolve) => setTimeout(resolve, 200));
}

const figures = {
  devices: NODES,
  database: handle.dialect,
  messagesPerS: Math.round(rate),
  publishToLatestP50Ms: pct(latencies, 50),
  publishToLatestP99Ms: pct(latencies, 99),
  cpuPercentPer1000MsgPerS: Math.round(cpuPerK),
  rssMb: Math.round(process.memoryUsage().rss / 1e6),
  stormSeconds: Math.round(stormS),
  stormReadingsStored: link.ingest.counts.stored - storedBefore,
  stormReadingsExpected: expected,
  duplicatesIgnored: link.ingest.counts.duplicates,
  refused: link.ingest.counts.refused,
  dropped: link.ingest.counts.dropped,
  dispatchDevices: batteries.length,
  dispatchOnWireAllS: got.size === batteries.length ? Math.round((lastGotMs - ordered) / 100) / 10 : `${got.size} of ${batteries.length}`,
  dispatchAnsweredAllS: Math.round(answeredMs / 100) / 10,
};
// biome-ignore lint/suspicious/noConsole: the benchmark prints its figures as a table
console.table(figures);
for (const d of clients) d.c.end(true);
await link.stop();
await close();
process.exit(0);
