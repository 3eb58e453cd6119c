// `npm run bench:devices -- --nodes 3000 --minutes 2 [--connect-timeout S] [--fleet-processes K] [--broker embedded|mosquitto] [--consoles 1|2]`
// (issue 28, docs/performance.md "Devices over MQTT"). The console runs as its own process (main.ts,
// no demo, no simulator) on a database this bench prepares; its devices run in K other processes
// (bench/devices-fleet.ts), each owning its devices' sockets. `--broker embedded` (the default): the
// console's embedded broker, so the console holds one socket per device. `--broker mosquitto`: a
// Mosquitto this bench starts on a free port with the password file and ACL of docs/devices.md, the
// console on it through MQTT_URL. `--consoles 2`: two console processes on one PostgreSQL database
// (BENCH_DATABASE_URL) sharing the devices through the shared subscription (needs mosquitto).
//
// Phases: every device connects; each reports every `--interval` s (spread evenly) for `--minutes`;
// a reconnect storm (every connection drops, each device returns within `--storm-spread` s and sends
// a buffered 10 minutes, one in four twice) while a user reads the API; a dispatch (a battery
// command to up to `--commands` devices with a battery, stored as a dispatch stores its orders) timed
// until every device has it and until every answer is recorded. `--cpu-prof DIR` profiles the
// console(s) (written at their stop).
//
// publish → latest values: on the embedded broker a device's PUBACK follows the reading's storage,
// so publish → PUBACK is publish → latest (every reading). On either broker, one device in 20 is a
// probe: the bench reads their latest values (tel_latest) every 100 ms and times each reading from
// its publish to its appearance there (up to 100 ms late, by the polling).
import { type ChildProcess, fork, spawn } from 'node:child_process';
import { pbkdf2Sync, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loginReply } from '@vpp/shared/auth/schemas';
import mqtt from 'mqtt';
import { buildFleet } from '../packages/server/src/demo/builder.ts';
import { hashSecret, newSecret, RESEND_S, sendCommands } from '../packages/server/src/devices/index.ts';
import { nodeReports } from '../packages/server/src/features/nodes/index.ts';
import { freePort } from '../packages/server/src/test/free-port.ts';
import { postLogin } from '../packages/server/src/test/sign-in.ts';
import { type ServerProcess, startServerProcess } from '../packages/server/src/test/start-server.ts';
import type { BenchDevice, FromFleet, ToFleet } from './devices-fleet.ts';
import { openBench } from './setup.ts';

const { values } = parseArgs({
  options: {
    nodes: { type: 'string', default: '3000' },
    interval: { type: 'string', default: '30' },
    minutes: { type: 'string', default: '2' },
    commands: { type: 'string', default: '10000' },
    'fleet-processes': { type: 'string' },
    broker: { type: 'string', default: 'embedded' },
    consoles: { type: 'string', default: '1' },
    'storm-spread': { type: 'string', default: '10' },
    // How long a device waits for its CONNACK before it gives the attempt up (ends its socket) and tries again.
    'connect-timeout': { type: 'string', default: '35' },
    'cpu-prof': { type: 'string' },
    skip: { type: 'string', default: '' },
  },
});
const NODES = Number(values.nodes);
const INTERVAL_S = Number(values.interval);
const MINUTES = Number(values.minutes);
const FLEETS = Number(values['fleet-processes'] ?? Math.max(1, Math.ceil(NODES / 6000)));
const BROKER = values.broker;
const CONSOLES = Number(values.consoles);
const SKIP = new Set(values.skip.split(',').filter(Boolean));
const log = (s: string) => process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${s}\n`);
if (BROKER !== 'embedded' && BROKER !== 'mosquitto') throw new Error('--broker is embedded or mosquitto');
if (CONSOLES !== 1 && CONSOLES !== 2) throw new Error('--consoles is 1 or 2');
if (CONSOLES === 2 && (BROKER !== 'mosquitto' || !process.env.BENCH_DATABASE_URL))
  throw new Error('--consoles 2 shares the devices through an external broker on one PostgreSQL: give --broker mosquitto and BENCH_DATABASE_URL');

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? Math.round(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]) : 0;
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
/** A process's CPU seconds so far (user + system), from /proc. */
const cpuS = (pid: number) => {
  const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(f[11]) + Number(f[12])) / 100;
};
const rssMb = (pid: number) => {
  const s = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return { rss: Math.round(Number(/VmRSS:\s+(\d+)/.exec(s)?.[1]) / 1024), peak: Math.round(Number(/VmHWM:\s+(\d+)/.exec(s)?.[1]) / 1024) };
};

// The database: nodes, their credentials, the bench's user.
const { handle, ctx, org, schema, dataDir, close } = await openBench('devices');
const now = Math.floor(Date.now() / 1000);
log(`Building ${NODES} nodes (${handle.dialect})…`);
const ids = await buildFleet(handle.db, { count: NODES, seed: 9, owners: { retailers: [org], networks: new Map(), installers: [] }, historyDays: 1, now });
await nodeReports(ctx).joined(ids);
await ctx.telemetry.ensurePartitions(now - 2 * 86400, now + 86400);
const nodes = await handle.db.selectFrom('nodes').select(['id', 'serial_number', 'battery_kw', 'solar_kw']).orderBy('id').execute();
const secrets = nodes.map(() => newSecret());
for (let i = 0; i < nodes.length; i += 1000)
  await handle.db
    .insertInto('device_credentials')
    .values(nodes.slice(i, i + 1000).map((n, j) => ({ node_id: n.id, secret_hash: hashSecret(secrets[i + j]), issued_at: now })))
    .execute();

const children: { stop(): Promise<unknown> }[] = [];
async function cleanUp() {
  // The devices first; the consoles record their last wills before they stop.
  if (fleets.length) {
    await Promise.all(fleets.map(stopChild));
    await sleep(3000);
  }
  for (const c of children.reverse()) await c.stop().catch(() => undefined);
  await close();
  fs.rmSync(mosquittoDir, { recursive: true, force: true });
}
process.once('SIGINT', () => void cleanUp().then(() => process.exit(1)));

// The broker the devices reach.
let deviceUrl: string;
let consoleEnv: Record<string, string>;
let mosquittoPid = 0;
const mosquittoDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vpp-bench-mosquitto-'));
if (BROKER === 'mosquitto') {
  const port = await freePort();
  const consolePassword = randomBytes(12).toString('hex');
  // The password file as mosquitto_passwd writes it (PBKDF2-SHA512, 101 rounds): one run of the tool per device would take minutes.
  const line = (user: string, password: string) => {
    const salt = randomBytes(12);
    return `${user}:$7$101$${salt.toString('base64')}$${pbkdf2Sync(password, salt, 101, 64, 'sha512').toString('base64')}`;
  };
  fs.writeFileSync(
    path.join(mosquittoDir, 'passwd'),
    `${[line('vpp-console', consolePassword), ...nodes.map((n, i) => line(n.serial_number, secrets[i]))].join('\n')}\n`,
  );
  fs.writeFileSync(
    path.join(mosquittoDir, 'acl'),
    'pattern write vpp/v1/%u/telemetry\npattern write vpp/v1/%u/state\npattern write vpp/v1/%u/cmd/ack\npattern read vpp/v1/%u/cmd\n\nuser vpp-console\ntopic readwrite vpp/v1/#\n',
  );
  const conf = path.join(mosquittoDir, 'mosquitto.conf');
  fs.writeFileSync(
    conf,
    [
      `listener ${port} 127.0.0.1`,
      'allow_anonymous false',
      `password_file ${path.join(mosquittoDir, 'passwd')}`,
      `acl_file ${path.join(mosquittoDir, 'acl')}`,
      'persistence true',
      `persistence_location ${mosquittoDir}/`,
      `user ${os.userInfo().username}`,
      // The console's share of a storm waits in its queue: Mosquitto's default (1,000 messages) would drop the rest (docs/devices.md).
      'max_queued_messages 1000000',
      'max_inflight_messages 1000',
      '',
    ].join('\n'),
  );
  const bin = fs.existsSync('/usr/sbin/mosquitto') ? '/usr/sbin/mosquitto' : 'mosquitto';
  const child = spawn(bin, ['-c', conf], { stdio: ['ignore', 'ignore', fs.openSync(path.join(mosquittoDir, 'log'), 'a')] });
  mosquittoPid = child.pid ?? 0;
  children.push({ stop: () => stopChild(child) });
  for (let i = 0; ; i++) {
    const c = await mqtt.connectAsync(`mqtt://127.0.0.1:${port}`, { username: 'vpp-console', password: consolePassword, reconnectPeriod: 0 }).catch(() => null);
    if (c) {
      await c.endAsync();
      break;
    }
    if (i > 50) throw new Error(`mosquitto did not start: ${fs.readFileSync(path.join(mosquittoDir, 'log'), 'utf8')}`);
    await sleep(200);
  }
  deviceUrl = `mqtt://127.0.0.1:${port}`;
  consoleEnv = { MQTT_URL: `mqtt://vpp-console:${consolePassword}@127.0.0.1:${port}`, MQTT_SHARE_GROUP: `bench-${process.pid}` };
} else {
  const port = await freePort();
  deviceUrl = `mqtt://127.0.0.1:${port}`;
  consoleEnv = { MQTT_PORT: String(port) };
}

function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

// The console(s): the server's main on the prepared database.
const profDir = values['cpu-prof'] ? path.resolve(values['cpu-prof']) : undefined;
const consoles: ServerProcess[] = [];
/** What the consoles logged (errors only): counted in the figures, the first few printed. */
const consoleLog: string[] = [];
for (let i = 0; i < CONSOLES; i++) {
  const env: Record<string, string> = {
    DEMO: 'false',
    SIMULATOR: 'false',
    LOG_LEVEL: 'error',
    CAPTCHA_COST: '200',
    DATABASE_URL: process.env.BENCH_DATABASE_URL ?? '',
    DATABASE_SCHEMA: process.env.BENCH_DATABASE_URL ? schema : '',
    ...consoleEnv,
    // The second console has no embedded broker of its own (it shares the first's external one).
    ...(i > 0 && BROKER === 'embedded' ? { MQTT_PORT: '0' } : {}),
  };
  const p = await startServerProcess({
    env,
    dataDir,
    log: 'pipe',
    onLog: (l) => consoleLog.push(l),
    nodeArgs: profDir ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`] : [],
  });
  consoles.push(p);
  children.push({ stop: () => p.end('SIGTERM') });
}
const pids = consoles.map((c) => c.child.pid as number);
const consoleCpu = () => pids.reduce((a, pid) => a + cpuS(pid), 0);
log(`${CONSOLES} console process(es) (${pids.join(', ')}) on the ${BROKER} broker, ${FLEETS} device process(es); load ${load()}`);

// The devices' processes, each with its share of the fleet.
const fleets: ChildProcess[] = [];
const inbox: FromFleet[][] = [];
const probePublished = new Map<string, number>();
const devices: BenchDevice[] = nodes.map((n, i) => ({
  serial: n.serial_number,
  secret: secrets[i],
  index: i,
  batteryKw: n.battery_kw,
  solarKw: n.solar_kw,
  probe: i % 20 === 0,
}));
for (let k = 0; k < FLEETS; k++) {
  const child = fork(path.join(import.meta.dirname, 'devices-fleet.ts'), [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  inbox.push([]);
  child.on('message', (m: FromFleet) => {
    if (m.type === 'probes') for (const [serial, ts, ms] of m.published) probePublished.set(`${serial}:${ts}`, ms);
    else inbox[k].push(m);
  });
  fleets.push(child);
  children.push({ stop: () => stopChild(child) });
  child.send({
    cmd: 'init',
    broker: deviceUrl,
    devices: devices.filter((_, i) => i % FLEETS === k),
    total: NODES,
    intervalS: INTERVAL_S,
    connectTimeoutS: Number(values['connect-timeout']),
  } satisfies ToFleet);
}
/** Sends every device process a command and waits for each one's answer of `type`. */
async function all<T extends FromFleet['type']>(cmd: ToFleet | null, type: T): Promise<Extract<FromFleet, { type: T }>[]> {
  if (cmd) for (const f of fleets) f.send(cmd);
  const out: Extract<FromFleet, { type: T }>[] = [];
  for (let k = 0; k < fleets.length; k++)
    for (;;) {
      const i = inbox[k].findIndex((m) => m.type === type);
      if (i >= 0) {
        out.push(inbox[k].splice(i, 1)[0] as Extract<FromFleet, { type: T }>);
        break;
      }
      if (fleets[k].exitCode !== null) throw new Error(`device process ${k} exited`);
      await sleep(50);
    }
  return out;
}
await all(null, 'ready');

// The probes' latest values, read every 100 ms: a reading's time there minus its publish.
const probeIds = nodes.filter((_, i) => i % 20 === 0);
const probeSerial = new Map(probeIds.map((n) => [n.id, n.serial_number]));
const seen = new Map<number, number>();
const probeLatencies: number[] = [];
let probing = true;
const probeLoop = (async () => {
  while (probing) {
    const t = Date.now();
    for (let i = 0; i < probeIds.length; i += 1000) {
      const rows = await handle.db
        .selectFrom('tel_latest')
        .select(['node_id', 'ts'])
        .where(
          'node_id',
          'in',
          probeIds.slice(i, i + 1000).map((n) => n.id),
        )
        .execute();
      const at = Date.now();
      for (const r of rows) {
        const ts = Number(r.ts);
        if (seen.get(r.node_id) === ts) continue;
        seen.set(r.node_id, ts);
        const published = probePublished.get(`${probeSerial.get(r.node_id)}:${ts}`);
        if (published !== undefined) {
          probeLatencies.push(at - published);
          probePublished.delete(`${probeSerial.get(r.node_id)}:${ts}`);
        }
      }
    }
    await sleep(Math.max(0, 100 - (Date.now() - t)));
  }
})();

// A user reading the API meanwhile: a node's detail and the fleet's node list, one after the other.
const base = consoles[0].url;
const login = await postLogin(base, 'bench');
if (!login.ok) throw new Error(`login: ${login.status} ${await login.text()}`);
const headers = { authorization: `Bearer ${loginReply.parse(await login.json()).access_token}` };
let apiLatencies: number[] = [];
let apiErrors = 0;
let reading = true;
const apiLoop = (async () => {
  for (let i = 0; reading; i++) {
    const n = nodes[(i * 7919) % nodes.length];
    const url = i % 2 ? `${base}/api/nodes/${n.id}/detail` : `${base}/v2/nodes?limit=10&offset=${(i * 10) % 1000}`;
    const t = performance.now();
    const res = await fetch(url, { headers }).catch(() => null);
    await res?.arrayBuffer();
    if (res?.ok) apiLatencies.push(performance.now() - t);
    else apiErrors++;
    await sleep(200);
  }
})();

log(`Connecting ${NODES} devices…`);
const tConnect = Date.now();
const connected = await all({ cmd: 'connect' }, 'connected');
const connectedN = connected.reduce((a, c) => a + c.connected, 0);
log(`  ${connectedN} connected, ${connected.reduce((a, c) => a + c.failed, 0)} failed, in ${Math.round((Date.now() - tConnect) / 1000)} s; load ${load()}`);
// The connections' own work (the state messages) settles before the steady phase is measured.
await sleep(5000);

log(`Reporting every ${INTERVAL_S} s for ${MINUTES} min…`);
const load0 = load();
apiLatencies = [];
const cpu0 = consoleCpu();
const mosq0 = mosquittoPid ? cpuS(mosquittoPid) : 0;
const t0 = Date.now();
const reported = await all({ cmd: 'report', startMs: Date.now() + 200, minutes: MINUTES }, 'reported');
const elapsedS = (Date.now() - t0) / 1000;
const cpu = consoleCpu() - cpu0;
const mosqCpu = mosquittoPid ? cpuS(mosquittoPid) - mosq0 : 0;
const sent = reported.reduce((a, r) => a + r.sent, 0);
const rate = sent / elapsedS;
const puback = reported.flatMap((r) => r.pubackMs);
await sleep(1000);
const steadyProbe = probeLatencies.splice(0);
const steadyApi = apiLatencies.splice(0);
const mem = pids.map(rssMb);
const loadSteady = load();
log(`  ${sent} readings, ${Math.round(rate)}/s; load ${loadSteady}`);

const count = async () =>
  Number(
    (
      await handle.db
        .selectFrom('device_readings')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
let storm: Record<string, unknown> = {};
if (!SKIP.has('storm')) {
  log('Reconnect storm: every connection drops; each device returns and sends a buffered 10 minutes…');
  await waitStored(sent);
  const before = await count();
  const stormCpu0 = consoleCpu();
  const stormStart = Date.now();
  apiLatencies = [];
  const stormed = all({ cmd: 'storm', spreadS: Number(values['storm-spread']), bufferedS: 600, resendEvery: 4 }, 'stormed');
  // Until every reading of the devices that came back is stored (a device that gave up after 8 attempts sends nothing).
  let sentInStorm = connectedN * (600 / INTERVAL_S);
  void stormed.then((s) => {
    sentInStorm = s.reduce((a, x) => a + x.readings, 0);
  });
  let storedAllMs = 0;
  while (!storedAllMs) {
    if ((await count()) - before >= sentInStorm) storedAllMs = Date.now();
    else if (Date.now() - stormStart > 900_000) break;
    else await sleep(250);
  }
  const s = await stormed;
  const stormApi = apiLatencies.splice(0);
  // Every device is back: none of their nodes may be left offline (a last will recorded after the state online that followed it).
  const offlineAfter = await offlineNodes();
  const stored = (await count()) - before;
  storm = {
    stormReconnected: s.reduce((a, x) => a + x.reconnected, 0),
    stormReconnectFailed: s.reduce((a, x) => a + x.failed, 0),
    // Live connections lost during the storm (each came back) and connection attempts given up (their sockets ended).
    stormConnectionsLost: s.reduce((a, x) => a + x.lost, 0),
    stormAttemptsAbandoned: s.reduce((a, x) => a + x.abandoned, 0),
    stormAllAcknowledgedS: Math.round((Math.max(...s.map((x) => x.lastAckMs)) - stormStart) / 100) / 10,
    stormAllStoredS: storedAllMs ? Math.round((storedAllMs - stormStart) / 100) / 10 : 'not in 15 min',
    stormReadingsSent: s.reduce((a, x) => a + x.readings, 0),
    stormReadingsSentTwice: s.reduce((a, x) => a + x.resent, 0),
    stormReadingsStored: stored,
    nodesOfflineAfterStorm: offlineAfter,
    stormConsoleCpuS: Math.round((consoleCpu() - stormCpu0) * 10) / 10,
    stormApiP50Ms: pct(stormApi, 50),
    stormApiP99Ms: pct(stormApi, 99),
    stormApiRequests: stormApi.length,
    stormLoad: load(),
  };
  log(`  ${JSON.stringify(storm)}`);
}

/** Nodes the console holds offline. */
async function offlineNodes() {
  return Number(
    (
      await handle.db
        .selectFrom('nodes')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('connection_offline', '=', 1)
        .executeTakeFirstOrThrow()
    ).n,
  );
}

async function waitStored(n: number) {
  for (let i = 0; i < 600 && (await count()) < n; i++) await sleep(100);
}

let dispatch: Record<string, unknown> = {};
if (!SKIP.has('dispatch')) {
  log('Dispatch: a battery command to every device with a battery, over MQTT, each answered on cmd/ack…');
  const batteries = nodes.filter((n) => n.battery_kw > 0).slice(0, Number(values.commands));
  // The readings sent before are stored first: the console's CPU in the dispatch is the dispatch's.
  await waitStored(sent + Number(storm.stormReadingsStored ?? 0));
  const at = Math.floor(Date.now() / 1000);
  const dispatchCpu0 = consoleCpu();
  await sendCommands(
    handle.db,
    batteries.map((n) => ({ nodeId: n.id, start: at + 60, end: at + 1860, spec: { kind: 'battery_power' as const, kw: -2 }, source: 'bench:dispatch' })),
    { organisationId: org },
  );
  // From the orders' commit; another process than the console stored them, so its outbox finds them at its next round (≤ 1 s).
  const ordered = Date.now();
  let answeredMs = Number.NaN;
  let answered = 0;
  let answeredAt = Date.now();
  for (;;) {
    const [r] = await handle.db
      .selectFrom('node_commands')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('source', '=', 'bench:dispatch')
      .where('status', 'in', ['ACCEPTED', 'OPTED_OUT'])
      .execute();
    if (Number(r.n) >= batteries.length) {
      answeredMs = Date.now() - ordered;
      break;
    }
    // Nothing more over two of the outbox's resends: some devices are not there to answer.
    if (Number(r.n) > answered) [answered, answeredAt] = [Number(r.n), Date.now()];
    if (Date.now() - answeredAt > (2 * RESEND_S + 10) * 1000 || Date.now() - ordered > 300_000) {
      log(`  gave up after ${Math.round((Date.now() - ordered) / 1000)} s, ${answered} answered`);
      break;
    }
    await sleep(200);
  }
  const got = await all({ cmd: 'dispatch-report' }, 'commands');
  // Where the commands stand: by status, whether the outbox marked them sent, whether their node is held offline.
  const states = await handle.db
    .selectFrom('node_commands as c')
    .innerJoin('nodes as n', 'n.id', 'c.node_id')
    .select((eb) => [
      'c.status',
      eb.case().when('c.sent_at', 'is', null).then('unsent').else('sent').end().as('sent'),
      'n.connection_offline',
      eb.fn.countAll<number>().as('n'),
    ])
    .where('c.source', '=', 'bench:dispatch')
    .groupBy(['c.status', 'sent', 'n.connection_offline'])
    .execute();
  log(`  commands: ${states.map((s) => `${s.status}/${s.sent}/${s.connection_offline ? 'offline' : 'online'} ${s.n}`).join(', ')}`);
  const received = got.reduce((a, g) => a + g.received, 0);
  dispatch = {
    dispatchBatteries: batteries.length,
    dispatchOnWireAllS:
      received >= batteries.length ? Math.round((Math.max(...got.map((g) => g.lastMs)) - ordered) / 100) / 10 : `${received} of ${batteries.length}`,
    dispatchAnsweredAllS: Number.isNaN(answeredMs) ? `${answered} of ${batteries.length}` : Math.round(answeredMs / 100) / 10,
    dispatchConsoleCpuS: Math.round((consoleCpu() - dispatchCpu0) * 10) / 10,
    dispatchLoad: load(),
  };
}

probing = false;
reading = false;
await Promise.all([probeLoop, apiLoop]);
// Each reading the console took (device_readings) is in the telemetry once: in the open tables or, folded, in raw.
const telemetryRows = Number(
  (
    await handle.db
      .selectFrom((eb) =>
        eb
          .selectFrom('tel_raw')
          .select(['node_id', 'ts'])
          .unionAll(eb.selectFrom('tel_open').select(['node_id', 'ts']))
          .as('r'),
      )
      .innerJoin('device_readings as d', (j) => j.onRef('d.node_id', '=', 'r.node_id').onRef('d.ts', '=', 'r.ts'))
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
  ).n,
);
const figures = {
  devices: NODES,
  connected: connectedN,
  database: handle.dialect,
  broker: BROKER,
  consoles: CONSOLES,
  deviceProcesses: FLEETS,
  messagesPerS: Math.round(rate),
  publishToPubackP50Ms: BROKER === 'embedded' ? pct(puback, 50) : '(broker acks)',
  publishToPubackP99Ms: BROKER === 'embedded' ? pct(puback, 99) : '(broker acks)',
  publishToLatestProbesP50Ms: pct(steadyProbe, 50),
  publishToLatestProbesP99Ms: pct(steadyProbe, 99),
  probeReadings: steadyProbe.length,
  consoleCpuPercentPer1000MsgPerS: Math.round((cpu / elapsedS / (rate / 1000)) * 100),
  consoleCpuPercent: Math.round((cpu / elapsedS) * 100),
  ...(mosquittoPid ? { mosquittoCpuPercent: Math.round((mosqCpu / elapsedS) * 100) } : {}),
  consoleRssMb: mem.map((m) => m.rss).join(' + '),
  consolePeakRssMb: mem.map((m) => m.peak).join(' + '),
  apiP50MsSteady: pct(steadyApi, 50),
  apiErrors,
  loadSteady: `${load0} → ${loadSteady}`,
  ...storm,
  telemetryRowsOfThem: telemetryRows,
  deviceReadingsStored: await count(),
  ...dispatch,
  // At the end, the states of the storm all recorded (some may still have been on their way when its readings were stored).
  nodesOfflineAtEnd: await offlineNodes(),
  consoleErrorsLogged: consoleLog.length,
};
for (const l of consoleLog.slice(0, 3)) log(`console: ${l.slice(0, 300)}`);
// biome-ignore lint/suspicious/noConsole: the benchmark prints its figures as a table
console.table(figures);
fs.writeFileSync(path.join(os.tmpdir(), `bench-devices-${Date.now()}.json`), JSON.stringify(figures, null, 2));
await cleanUp();
process.exit(0);
