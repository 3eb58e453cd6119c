// A process of `npm run bench:devices`' devices (forked with an IPC channel): it owns its devices'
// MQTT sockets, so that the console's process holds one socket per device (on the embedded broker)
// or none (on Mosquitto). Each device connects with its own credential, a retained `state` and its
// last will as a real one does, subscribes to its `cmd`, and reports a reading of every metric a
// simulated home reports. The parent steers it phase by phase (connect, report, storm, dispatch) and
// gets back what only the devices see: publish → PUBACK times, the publish time of each probe
// device's readings, each command's arrival. Times are Date.now() (one clock for every process).
import { deviceTopics } from '@vpp/shared/devices/schemas';
import mqtt, { type MqttClient } from 'mqtt';

export interface BenchDevice {
  serial: string;
  secret: string;
  /** Its place in the whole fleet (0…n-1): sets its report's offset within the interval. */
  index: number;
  batteryKw: number;
  solarKw: number;
  /** A probe: the parent watches its latest values in the database to time publish → latest. */
  probe: boolean;
}

export type ToFleet =
  | { cmd: 'init'; broker: string; devices: BenchDevice[]; total: number; intervalS: number; connectTimeoutS: number }
  | { cmd: 'connect' }
  | { cmd: 'report'; startMs: number; minutes: number }
  | { cmd: 'storm'; spreadS: number; bufferedS: number; resendEvery: number }
  | { cmd: 'dispatch-report' }
  | { cmd: 'stop' };

export type FromFleet =
  | { type: 'ready' }
  | { type: 'connected'; connected: number; failed: number }
  | { type: 'probes'; published: [serial: string, ts: number, ms: number][] }
  | { type: 'reported'; sent: number; pubackMs: number[] }
  | { type: 'stormed'; reconnected: number; failed: number; readings: number; resent: number; lastAckMs: number; lost: number; abandoned: number }
  | { type: 'commands'; received: number; firstMs: number; lastMs: number };

interface Device extends BenchDevice {
  c: MqttClient | null;
  seq: number;
  /** The timestamps of what it reported live, so that its buffered readings fall between them (new sequence numbers, new times). */
  lastTs: number;
  /** When its present connection began (epoch seconds, to the millisecond): its state and last will say so (docs/devices.md). */
  since: number;
  /** Its connection under way (attempts with backoff), shared by whoever waits for it. */
  connecting: Promise<boolean> | null;
}

let broker = '';
let total = 1;
let intervalS = 30;
/** How long a device waits for its CONNACK before it gives the attempt up. */
let connectTimeoutMs = 35_000;
const devices: Device[] = [];
const send = (m: FromFleet) => process.send?.(m);
const commands = { received: 0, firstMs: 0, lastMs: 0, seen: new Set<number>() };
/** Live connections the devices lost (and came back from) and connection attempts they gave up (their sockets ended), since the last count. */
const churn = { lost: 0, abandoned: 0 };
/** Set at `stop`: a connection that ends then is not come back from. */
let stopping = false;

function reading(d: Device, ts: number) {
  // Every metric a simulated home reports (packages/fleet), inside the node's ratings.
  const solar = Math.round(d.solarKw * 0.4 * 1000) / 1000;
  const battery = Math.round(d.batteryKw * 0.3 * 1000) / 1000;
  return {
    seq: ++d.seq,
    ts,
    dt: intervalS,
    meterPower: -1.234,
    meterPowerA: -1.234,
    solarPower: solar,
    meterSGA: solar,
    batteryPower: battery,
    housePower: 0.912,
    meterVoltage: 241.3,
    meterVoltageA: 241.3,
    meterFrequency: 50.01,
    meterReactivePower: 0.2,
    solarReactivePower: -0.1,
    meterCurrent: 5.1,
    ...(d.batteryKw > 0 ? { soc: 64.2, remainingCharge: 8.61 } : {}),
    curtailedPower: 0,
  };
}

/**
 * One connection attempt: answers the client once the broker has acknowledged it. An attempt given
 * up (no CONNACK within `ms`, an error, a close before the CONNACK) is abandoned: its socket is
 * ended, so that its CONNECT cannot reach the broker later and take the client id over from the
 * device's next, live connection.
 */
function attempt(d: Device, ms: number): Promise<MqttClient> {
  return new Promise<MqttClient>((resolve, reject) => {
    const c = mqtt.connect(broker, {
      username: d.serial,
      password: d.secret,
      clientId: `bench-${d.serial}`,
      reconnectPeriod: 0,
      connectTimeout: Math.min(30_000, ms),
      will: { topic: deviceTopics(d.serial).state, payload: Buffer.from(JSON.stringify({ online: false, ts: d.since })), qos: 1, retain: true },
    });
    const give = (err: Error) => {
      clearTimeout(timer);
      c.removeListener('connect', connected);
      c.removeListener('close', closed);
      churn.abandoned++;
      c.end(true);
      reject(err);
    };
    const timer = setTimeout(() => give(new Error('no CONNACK')), ms);
    const closed = () => give(new Error('closed before its CONNACK'));
    const connected = () => {
      clearTimeout(timer);
      c.removeListener('close', closed);
      resolve(c);
    };
    c.on('error', () => undefined);
    c.once('connect', connected);
    c.once('close', closed);
  });
}

/** Connects a device (once at a time: a second caller waits for the same attempts); false when it gave up after 30 attempts. */
function connectOne(d: Device): Promise<boolean> {
  d.connecting ??= connectWithBackoff(d).finally(() => {
    d.connecting = null;
  });
  return d.connecting;
}

async function connectWithBackoff(d: Device): Promise<boolean> {
  const topics = deviceTopics(d.serial);
  for (let attempts = 1; ; attempts++) {
    let c: MqttClient | null = null;
    try {
      d.since = Math.max(Date.now(), Math.round(d.since * 1000) + 1) / 1000;
      c = await attempt(d, connectTimeoutMs);
      c.on('message', (topic, payload) => {
        if (topic !== topics.cmd) return;
        const m = JSON.parse(payload.toString('utf8')) as { id: number; cancel?: boolean };
        if (m.cancel) return;
        if (!commands.seen.has(m.id)) {
          commands.seen.add(m.id);
          commands.received++;
          const now = Date.now();
          commands.firstMs ||= now;
          commands.lastMs = now;
        }
        void c?.publishAsync(topics.ack, JSON.stringify({ id: m.id, result: 'ACCEPTED' }), { qos: 1 }).catch(() => undefined);
      });
      const state = {
        online: true,
        ts: d.since,
        firmware: 'bench 1.0',
        inverterKw: d.solarKw,
        batteryKw: d.batteryKw,
        batteryKwh: d.batteryKw * 2,
        capabilities: { battery: d.batteryKw > 0, solar: d.solarKw > 0, phases: 1, submeters: [] },
      };
      await whileOpen(c, c.publishAsync(topics.state, JSON.stringify(state), { qos: 1, retain: true }));
      await whileOpen(c, c.subscribeAsync(topics.cmd, { qos: 1 }));
      const live = c;
      d.c = live;
      // A live connection that drops (taken over, reset by a loaded broker) comes back, as a device's would.
      live.once('close', () => {
        if (d.c !== live || stopping) return;
        d.c = null;
        churn.lost++;
        void connectOne(d);
      });
      return true;
    } catch {
      c?.end(true);
      // Refused at the door by a loaded machine (a reset, a timeout): again, as a device's backoff would.
      if (attempts >= 30) return false;
      await new Promise((resolve) => setTimeout(resolve, Math.min(10_000, 500 * attempts) + Math.random() * 1000));
    }
  }
}

/** `p`, failed if the client's connection closes first (MQTT.js may leave a QoS 1 publish unsettled then). */
function whileOpen<T>(c: MqttClient, p: Promise<T>): Promise<T> {
  if (!c.connected) return Promise.reject(new Error('not connected'));
  return new Promise<T>((resolve, reject) => {
    const closed = () => reject(new Error('connection closed'));
    c.once('close', closed);
    p.then(
      (v) => {
        c.removeListener('close', closed);
        resolve(v);
      },
      (err: unknown) => {
        c.removeListener('close', closed);
        reject(err);
      },
    );
  });
}

/** Publishes on the device's connection, again on its next one when it drops first (a QoS 1 message may arrive twice: the console stores a reading once). False when it gave up reconnecting. */
async function publishSure(d: Device, topic: string, payload: string): Promise<boolean> {
  for (;;) {
    const c = d.c;
    if (!c) {
      if (!(await connectOne(d))) return false;
      continue;
    }
    try {
      await whileOpen(c, c.publishAsync(topic, payload, { qos: 1 }));
      return true;
    } catch {
      // Dropped under way: its close handler has it come back.
      if (d.c === c) {
        d.c = null;
        c.end(true);
      }
    }
  }
}

/** Runs `work` over the devices, at most `width` at once. */
async function pool<T>(items: readonly T[], width: number, work: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, items.length) }, async () => {
      while (next < items.length) await work(items[next++]);
    }),
  );
}

async function connectAll() {
  let connected = 0;
  let failed = 0;
  await pool(devices, 100, async (d) => {
    if (await connectOne(d)) connected++;
    else failed++;
  });
  send({ type: 'connected', connected, failed });
}

/** Each device reports every interval at its own offset (the fleet spread evenly over the interval). */
async function report(startMs: number, minutes: number) {
  const pubackMs: number[] = [];
  let probes: [string, number, number][] = [];
  let sent = 0;
  const endMs = startMs + minutes * 60_000;
  const due = devices.map((d) => startMs + (d.index / total) * intervalS * 1000);
  const pending: Promise<unknown>[] = [];
  await new Promise<void>((resolve) => {
    const tick = setInterval(() => {
      const now = Date.now();
      if (now >= endMs) {
        clearInterval(tick);
        return resolve();
      }
      for (let i = 0; i < devices.length; i++) {
        if (due[i] > now) continue;
        const d = devices[i];
        const ts = Math.floor(due[i] / 1000);
        due[i] += intervalS * 1000;
        if (!d.c) continue;
        d.lastTs = ts;
        const t0 = performance.now();
        const published = Date.now();
        sent++;
        if (d.probe) probes.push([d.serial, ts, published]);
        pending.push(
          d.c.publishAsync(deviceTopics(d.serial).telemetry, JSON.stringify(reading(d, ts)), { qos: 1 }).then(
            () => pubackMs.push(performance.now() - t0),
            () => undefined,
          ),
        );
      }
      if (probes.length) {
        send({ type: 'probes', published: probes });
        probes = [];
      }
    }, 50);
  });
  await Promise.all(pending);
  send({ type: 'reported', sent, pubackMs });
}

/**
 * The reconnect storm: every device's connection drops (the broker publishes its last will), then
 * each reconnects at a moment of its own within `spreadS` and sends what it kept over `bufferedS`
 * as one batch; every `resendEvery`-th device sends the batch a second time (its first
 * acknowledgement lost), which must be stored once. The kept readings fall between the live ones
 * (15 s after each), so that they are new readings, not the live ones again.
 */
async function storm(spreadS: number, bufferedS: number, resendEvery: number) {
  for (const d of devices) {
    const c = d.c;
    d.c = null;
    c?.end(true);
  }
  churn.lost = 0;
  churn.abandoned = 0;
  let reconnected = 0;
  let failed = 0;
  let readings = 0;
  let resent = 0;
  let lastAckMs = 0;
  const start = Date.now();
  await Promise.all(
    devices.map(async (d) => {
      await new Promise((resolve) => setTimeout(resolve, Math.random() * spreadS * 1000));
      if (!(await connectOne(d))) {
        failed++;
        return;
      }
      reconnected++;
      const count = Math.round(bufferedS / intervalS);
      const from = (d.lastTs || Math.floor(start / 1000)) - bufferedS + intervalS / 2;
      const batch = JSON.stringify({ readings: Array.from({ length: count }, (_, k) => reading(d, from + k * intervalS)) });
      readings += count;
      const topic = deviceTopics(d.serial).telemetry;
      if (!(await publishSure(d, topic, batch))) return;
      if (d.index % resendEvery === 0 && (await publishSure(d, topic, batch))) resent += count;
      lastAckMs = Math.max(lastAckMs, Date.now());
    }),
  );
  send({ type: 'stormed', reconnected, failed, readings, resent, lastAckMs, lost: churn.lost, abandoned: churn.abandoned });
}

process.on('message', (m: ToFleet) => {
  const run = async () => {
    switch (m.cmd) {
      case 'init':
        broker = m.broker;
        total = m.total;
        intervalS = m.intervalS;
        connectTimeoutMs = m.connectTimeoutS * 1000;
        for (const d of m.devices) devices.push({ ...d, c: null, seq: 0, lastTs: 0, since: 0, connecting: null });
        return send({ type: 'ready' });
      case 'connect':
        return connectAll();
      case 'report':
        return report(m.startMs, m.minutes);
      case 'storm':
        return storm(m.spreadS, m.bufferedS, m.resendEvery);
      case 'dispatch-report':
        return send({ type: 'commands', received: commands.received, firstMs: commands.firstMs, lastMs: commands.lastMs });
      case 'stop':
        stopping = true;
        for (const d of devices) d.c?.end(true);
        process.exit(0);
    }
  };
  run().catch((err: unknown) => {
    process.stderr.write(`bench fleet process: ${String(err)}\n`);
    process.exit(1);
  });
});
