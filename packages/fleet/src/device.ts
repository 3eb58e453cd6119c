import type { FleetDevice } from '@vpp/shared/devices/identities';
import {
  type DeviceAck,
  type DeviceCommand,
  type DeviceReading,
  type DeviceState,
  deviceCmdMessageSchema,
  deviceTopics,
  MAX_BATCH_READINGS,
} from '@vpp/shared/devices/schemas';
import mqtt, { type MqttClient } from 'mqtt';
import { type Command, customerOptsOut, frequency, type NodeModel, step, submeterPower, voltage } from './physics.ts';
import { hash01, stringKey } from './random.ts';

export const FIRMWARE = 'vpp-fleet-sim 1.0';
/** Readings a device keeps while the broker is away: a day at 30 s; beyond it the oldest go. */
export const BUFFER_LIMIT = 2880;
/** The device's reconnect backoff (ms): a few seconds, as docs/devices.md asks of devices. */
const RECONNECT_MS = 3000;

export interface FleetLog {
  info(msg: string): void;
  warn(msg: string): void;
}

/**
 * A command of the wire as the home's physics obey it: one piece per window in which the device is
 * to follow it (the console has resolved the precedence among its commands; docs/devices.md).
 */
export function toCommands(c: DeviceCommand): Command[] {
  const windows = c.windows ?? [{ from: c.validFrom, to: c.validTo }];
  return windows.filter((w) => w.to > w.from).map((w) => toCommand(c, w.from, w.to));
}

function toCommand(c: DeviceCommand, start: number, end: number): Command {
  const base = { start, end };
  const ctl = c.control;
  switch (ctl.type) {
    case 'batteryPowerW':
      return { ...base, kind: 'battery_power', kw: ctl.w / 1000 };
    case 'opModExpLimW':
    case 'opModGenLimW':
      return {
        ...base,
        kind: 'export_limit',
        mode: ctl.type === 'opModExpLimW' ? 'net' : 'gross',
        kw: ctl.w / 1000,
        ...(ctl.standing !== undefined ? { standing: ctl.standing } : {}),
        ...(ctl.rampS !== undefined ? { rampS: ctl.rampS } : {}),
        ...(ctl.rampFromW !== undefined ? { rampFromKw: ctl.rampFromW === null ? null : ctl.rampFromW / 1000 } : {}),
      };
    case 'opModImpLimW':
      return { ...base, kind: 'import_limit', kw: ctl.w / 1000 };
    case 'chargeToFull':
      return { ...base, kind: 'charge_full' };
    case 'outageReserve':
      return { ...base, kind: 'grid_outage' };
  }
}

/**
 * One simulated home on the wire: its own physics and state of charge, its own MQTT connection
 * with its credential, a retained `state` with `{ online: false }` as its last will (both naming
 * when the connection began). Every report
 * it steps its physics over the interval and publishes the reading; while the broker is away it
 * keeps its readings and, once back, sends them as batches in sequence order. It obeys the commands
 * it is sent and answers each (its customer may opt out of a battery command).
 *
 * A reading's `seq` is its timestamp: a device that restarts never reuses a number the console has
 * seen (the console stores a (device, seq) once).
 */
export class SimulatedDevice {
  readonly model: NodeModel;
  socKwh: number;
  /** Readings taken while the broker was away, not yet sent. */
  readonly buffer: DeviceReading[] = [];
  readonly counts = { published: 0, resent: 0, commands: 0, optedOut: 0, rejected: 0 };
  /** The commands it follows, by id (a command sent again replaces its pieces). */
  private readonly commands = new Map<number, Command[]>();
  private client: MqttClient | null = null;
  /** When its present connection began (epoch seconds, to the millisecond; each later than the last): its `state` and last will say so. */
  private since = 0;
  private flushing: Promise<void> | null = null;
  private readonly key: number;

  /** The first second not yet reported (a reading at `ts` of `dt` seconds covers [ts, ts + dt)); null before the first report. */
  nextTs: number | null;

  constructor(
    readonly identity: FleetDevice,
    private readonly o: { broker: string; log: FleetLog; backupReserve?: number; home?: HomeState },
  ) {
    this.key = o.home?.key ?? stringKey(identity.serial);
    this.model = {
      id: this.key,
      lat: identity.lat,
      lng: identity.lng,
      region: identity.region,
      postcode: identity.postcode,
      timezone: identity.timezone,
      phases: identity.phases,
      solarKw: identity.solarKw,
      inverterKw: identity.inverterKw,
      batteryKwh: identity.batteryKwh,
      batteryKw: identity.batteryKw,
      backupReserveKwh: identity.batteryKwh * (o.backupReserve ?? 0.2),
      // The household's size: the device's own, from its serial.
      loadScale: o.home?.loadScale ?? Math.round((0.6 + hash01(this.key, 1) * 1.2) * 100) / 100,
      submeterIds: identity.submeters.map((s) => s.id),
    };
    this.socKwh = o.home?.socKwh ?? identity.batteryKwh * 0.5;
    this.nextTs = o.home?.nextTs ?? null;
  }

  /** Whether it has a connection to the broker, up or being made (not after `drop` or `stop`). */
  get linked(): boolean {
    return this.client !== null;
  }

  /** The broker refused its credential: it connects no more (its readings are kept, up to the buffer). */
  refused = false;

  get connected(): boolean {
    return this.client?.connected ?? false;
  }

  private get topics() {
    return deviceTopics(this.identity.serial);
  }

  /** Connects (and keeps reconnecting every few seconds while the broker is away). */
  connect(): void {
    if (this.refused) return;
    const { identity } = this;
    // Each connection's last will names when it began, as its state online does: of two console
    // processes, the one that records the will last must not take the device for gone (docs/devices.md).
    const begin = () => {
      this.since = Math.max(Date.now(), Math.round(this.since * 1000) + 1) / 1000;
      return { topic: this.topics.state, payload: Buffer.from(JSON.stringify({ online: false, ts: this.since })), qos: 1 as const, retain: true };
    };
    const client = mqtt.connect(this.o.broker, {
      username: identity.serial,
      password: identity.secret,
      clientId: `fleet-${identity.serial}`,
      reconnectPeriod: RECONNECT_MS,
      connectTimeout: 10_000,
      will: begin(),
    });
    // MQTT.js reads its options afresh for each reconnection.
    client.on('reconnect', () => {
      client.options.will = begin();
    });
    this.client = client;
    client.on('connect', () => {
      void this.onConnect(client).catch((err: unknown) => this.o.log.warn(`${identity.serial}: ${String(err)}`));
    });
    client.on('message', (_topic, payload) => {
      void this.onCommand(client, payload).catch((err: unknown) => this.o.log.warn(`${identity.serial}: command failed: ${String(err)}`));
    });
    client.on('error', (err) => {
      // Refused its user name or password (MQTT 3.1.1 return codes 4 and 5): its credential was
      // rotated for another device. It stops rather than knock every few seconds.
      const code = (err as { code?: unknown }).code;
      if (code === 4 || code === 5) {
        this.o.log.warn(`${identity.serial}: the broker refused its credential; it stops`);
        if (this.client === client) this.client = null;
        this.refused = true;
        void client.endAsync(true);
        return;
      }
      this.o.log.warn(`${identity.serial}: ${err.message}`);
    });
  }

  private async onConnect(client: MqttClient): Promise<void> {
    const { identity } = this;
    const state: DeviceState = {
      online: true,
      ts: this.since,
      firmware: FIRMWARE,
      inverterKw: identity.inverterKw,
      batteryKw: identity.batteryKw,
      batteryKwh: identity.batteryKwh,
      capabilities: { battery: identity.batteryKwh > 0, solar: identity.solarKw > 0, phases: identity.phases, submeters: identity.submeters },
    };
    await client.publishAsync(this.topics.state, JSON.stringify(state), { qos: 1, retain: true });
    await client.subscribeAsync(this.topics.cmd, { qos: 1 });
    await this.flush();
  }

  /** Sends what the device kept while away, in batches, oldest first. */
  flush(): Promise<void> {
    // (The finally runs after the assignment, also when there is nothing to send.)
    this.flushing ??= this.sendKept().finally(() => {
      this.flushing = null;
    });
    return this.flushing;
  }

  private async sendKept(): Promise<void> {
    while (this.buffer.length && this.client?.connected) {
      const batch = this.buffer.slice(0, MAX_BATCH_READINGS);
      await this.client.publishAsync(this.topics.telemetry, JSON.stringify({ readings: batch }), { qos: 1 });
      this.buffer.splice(0, batch.length);
      this.counts.resent += batch.length;
    }
  }

  private async onCommand(client: MqttClient, payload: Buffer): Promise<void> {
    let raw: unknown;
    try {
      raw = JSON.parse(payload.toString('utf8'));
    } catch {
      return; // Not a command of this protocol, and no id to answer.
    }
    const parsed = deviceCmdMessageSchema.safeParse(raw);
    const id = (raw as { id?: unknown })?.id;
    let ack: DeviceAck;
    if (parsed.success && 'cancel' in parsed.data) {
      // Withdrawn: not followed any more, and not answered.
      this.commands.delete(parsed.data.id);
      return;
    }
    if (!parsed.success) {
      if (typeof id !== 'number' || !Number.isInteger(id) || id <= 0) return;
      this.counts.rejected++;
      ack = { id, result: 'REJECTED', reason: `Not a command this device understands: ${parsed.error.issues[0]?.message ?? 'invalid'}`.slice(0, 200) };
    } else {
      const cmd = parsed.data as DeviceCommand;
      this.counts.commands++;
      if (customerOptsOut(this.key, cmd.id, cmd.control.type === 'batteryPowerW')) {
        this.counts.optedOut++;
        ack = { id: cmd.id, result: 'OPTED_OUT' };
      } else {
        this.commands.set(cmd.id, toCommands(cmd));
        ack = { id: cmd.id, result: 'ACCEPTED' };
      }
    }
    await client.publishAsync(this.topics.ack, JSON.stringify(ack), { qos: 1 });
  }

  /** One report: the physics stepped over [ts, ts + dt), published, or kept while the broker is away. */
  report(ts: number, dt: number): DeviceReading {
    for (const [id, pieces] of this.commands) if (pieces.every((c) => c.end <= ts)) this.commands.delete(id);
    const m = this.model;
    const r = step(m, ts, dt, this.socKwh, [...this.commands.values()].flat());
    this.socKwh = r.socKwh;
    const share = m.phases === 3 ? [0.4, 0.35, 0.25] : [1];
    const volts = share.map((s, i) => voltage(m, ts, r.gridKw * s * (m.phases === 3 ? 3 : 1), i));
    const vAvg = volts.reduce((a, b) => a + b, 0) / volts.length;
    const round = (v: number) => Math.round(v * 1000) / 1000;
    const reading: DeviceReading = {
      seq: ts,
      ts,
      dt,
      meterPower: round(r.gridKw),
      meterPowerA: round(r.gridKw * share[0]),
      ...(m.phases === 3 ? { meterPowerB: round(r.gridKw * share[1]), meterPowerC: round(r.gridKw * share[2]) } : {}),
      solarPower: round(r.solarKw),
      meterSGA: round(r.sgaKw),
      batteryPower: round(r.batteryKw),
      housePower: round(r.houseKw),
      meterVoltage: round(vAvg),
      meterVoltageA: round(volts[0]),
      ...(m.phases === 3 ? { meterVoltageB: round(volts[1]), meterVoltageC: round(volts[2]) } : {}),
      meterFrequency: round(frequency(m.region, ts)),
      meterReactivePower: round(r.houseKw * 0.22 - r.solarKw * 0.06),
      solarReactivePower: round(-r.solarKw * 0.06),
      meterCurrent: round((Math.abs(r.gridKw) * 1000) / vAvg / m.phases),
      ...(this.identity.batteryKwh > 0 ? { soc: round((r.socKwh / this.identity.batteryKwh) * 100), remainingCharge: round(r.socKwh) } : {}),
      curtailedPower: round(r.curtailedKw),
      ...(this.identity.submeters.length
        ? {
            submeters: this.identity.submeters.map((s) => {
              const p = round(submeterPower(s.name, s.id, ts, r.houseKw, m.timezone));
              return { id: s.id, p, q: round(p * 0.15) };
            }),
          }
        : {}),
    };
    this.nextTs = ts + dt;
    const client = this.client;
    if (client?.connected && !this.buffer.length) {
      this.counts.published++;
      // QoS 1: a reading in flight when the connection drops is sent again by the client itself.
      void client.publishAsync(this.topics.telemetry, JSON.stringify(reading), { qos: 1 }).catch(() => this.keep(reading));
    } else {
      this.keep(reading);
      if (client?.connected) void this.flush();
    }
    return reading;
  }

  private keep(reading: DeviceReading) {
    this.buffer.push(reading);
    if (this.buffer.length > BUFFER_LIMIT) this.buffer.splice(0, this.buffer.length - BUFFER_LIMIT);
  }

  /**
   * Disconnects. `offline` (the default): says so on its `state`, then leaves. `quiet`: leaves with
   * a clean DISCONNECT and no word (the broker drops its last will; its node stays as it was, for a
   * process that stops and starts again). `drop`: the connection is lost (the broker publishes the
   * last will: offline). The device keeps its readings meanwhile and sends them once connected again.
   */
  async stop(how: 'offline' | 'quiet' | 'drop' = 'offline'): Promise<void> {
    const client = this.client;
    this.client = null;
    if (!client) return;
    if (how === 'offline')
      await client.publishAsync(this.topics.state, JSON.stringify({ online: false, ts: this.since }), { qos: 1, retain: true }).catch(() => undefined);
    // Forced, the socket goes without a DISCONNECT, as when the home's internet goes: the broker sends the will.
    await client.endAsync(how === 'drop');
  }
}

/** Where a home stands when its device starts: the demo hands over the homes it has simulated so far. */
export interface HomeState {
  /** The key of its physics' randomness (by default from its serial). */
  key?: number;
  loadScale?: number;
  socKwh?: number;
  /** The first second it has not reported yet. */
  nextTs?: number;
}
