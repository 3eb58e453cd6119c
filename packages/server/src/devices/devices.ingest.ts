import {
  type DeviceReading,
  type DeviceState,
  deviceAckSchema,
  deviceReadingSchema,
  deviceStateSchema,
  deviceTelemetrySchema,
  MAX_CLOCK_AHEAD_S,
} from '@vpp/shared/devices/schemas';
import type { FastifyBaseLogger } from 'fastify';
import type { ZodError } from 'zod';
import { type Database, isSerializationConflict, nowS } from '../db/database.ts';
import type { AppContext } from '../platform/context.ts';
import type { Sample, SubmeterSample } from '../telemetry/index.ts';
import { resendToNodes } from './devices.commands.ts';
import * as repo from './devices.repo.ts';
import type { ConnectivityChange, FleetReports } from './devices.reports.ts';

/** Messages a device may send at once, and per second after that (a report every few seconds is far below it): the excess is dropped and counted. */
export const RATE_BURST = 30;
export const RATE_PER_S = 1;
/** Readings gathered into one write, and how long the first of them waits for others. */
const FLUSH_READINGS = 5000;
const FLUSH_WAIT_MS = 50;
/** How long the console trusts what it read of a node (its ratings, its submeters). */
const NODE_CACHE_MS = 60_000;
/** States recorded per transaction. */
const STATES = 2000;

interface Pending {
  node: repo.DeviceNode;
  readings: DeviceReading[];
  resolve: () => void;
  reject: (err: unknown) => void;
}

/** A refusal: what is wrong with a device's message, as its node's page shows it. */
export class Refusal extends Error {}

const zodReason = (e: ZodError) => {
  const i = e.issues[0];
  return `${i.path.length ? i.path.join('.') : 'payload'}: ${i.message}`;
};

function parseJson(payload: Buffer): unknown {
  try {
    return JSON.parse(payload.toString('utf8'));
  } catch {
    throw new Refusal('Malformed JSON.');
  }
}

/** Why a reading is outside what the device's rating and the console's clock allow, or null. */
export function readingProblem(r: DeviceReading, node: repo.DeviceNode, now: number, retentionS: number): string | null {
  if (r.ts > now + MAX_CLOCK_AHEAD_S) return `Reading ${r.seq}: timestamp ${r.ts} is more than 5 minutes ahead of the console's clock.`;
  if (r.ts + r.dt < now - retentionS) return `Reading ${r.seq}: timestamp ${r.ts} is older than the raw retention (${Math.round(retentionS / 86400)} days).`;
  const battery = r.batteryPower ?? 0;
  if (Math.abs(battery) > 3 * node.batteryKw + 0.01)
    return `Reading ${r.seq}: batteryPower ${battery} kW is beyond three times the rated ${node.batteryKw} kW.`;
  const solar = r.solarPower ?? 0;
  if (solar > 3 * node.solarKw + 0.01 || solar < -1) return `Reading ${r.seq}: solarPower ${solar} kW is beyond three times the rated ${node.solarKw} kW.`;
  if (r.soc !== null && r.soc !== undefined && (r.soc < 0 || r.soc > 100)) return `Reading ${r.seq}: soc ${r.soc} is outside 0–100.`;
  for (const s of r.submeters ?? []) if (!node.submeterIds.has(s.id)) return `Reading ${r.seq}: submeter ${s.id} is not one of this node's.`;
  return null;
}

function toSample(nodeId: number, r: DeviceReading): Sample {
  return {
    nodeId,
    ts: r.ts,
    dt: r.dt,
    meter_p: r.meterPower,
    meter_p_a: r.meterPowerA ?? null,
    meter_p_b: r.meterPowerB ?? null,
    meter_p_c: r.meterPowerC ?? null,
    solar_p: r.solarPower ?? null,
    sga_p: r.meterSGA ?? null,
    battery_p: r.batteryPower ?? null,
    house_p: r.housePower ?? null,
    voltage: r.meterVoltage ?? null,
    voltage_a: r.meterVoltageA ?? null,
    voltage_b: r.meterVoltageB ?? null,
    voltage_c: r.meterVoltageC ?? null,
    frequency: r.meterFrequency ?? null,
    meter_q: r.meterReactivePower ?? null,
    solar_q: r.solarReactivePower ?? null,
    current: r.meterCurrent ?? null,
    soc: r.soc ?? null,
    remaining: r.remainingCharge ?? null,
    curtailed_p: r.curtailedPower ?? null,
  };
}

const isUniqueViolation = (err: unknown) => /unique|duplicate key|PRIMARY KEY/i.test(String((err as Error)?.message ?? err));
/** PostgreSQL's deadlock and serialization failures: the transaction may simply run again. */

/**
 * The console's side of what devices publish: each message is checked (JSON, schema, the device's
 * ratings, the clock, its rate), refused with a reason recorded on its node and logged, or stored.
 * Readings of many devices are gathered into one write through the telemetry store; a reading's
 * (device, sequence) is recorded in the same transaction, so one sent again is stored once, also
 * after its bucket was folded, by any console process. Each call settles once its message is
 * stored or refused: the broker acknowledges the device only then.
 */
export class DeviceIngest {
  private readonly nodes = new Map<string, { at: number; node: Promise<repo.DeviceNode | null> }>();
  private readonly tokens = new Map<number, { tokens: number; at: number }>();
  private readonly dropped = new Map<number, number>();
  private pending: Pending[] = [];
  private pendingReadings = 0;
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();
  /** Counts since the start, for the log and the bench. */
  readonly counts = { stored: 0, duplicates: 0, refused: 0, dropped: 0 };

  constructor(
    private readonly ctx: AppContext,
    private readonly log: FastifyBaseLogger,
    private readonly reports: FleetReports,
    /** `back`: devices came back, their commands marked to go out again (committed): the outbox's round, now. */
    private readonly hooks: { back?: () => void; ack?: (nodeId: number, payload: unknown) => Promise<void> } = {},
  ) {}

  /** The node a serial number names (cached a minute). */
  node(serial: string): Promise<repo.DeviceNode | null> {
    const hit = this.nodes.get(serial);
    if (hit && Date.now() - hit.at < NODE_CACHE_MS) return hit.node;
    const node = repo.deviceNodeBySerial(this.ctx.db, serial);
    this.nodes.set(serial, { at: Date.now(), node });
    return node;
  }

  /** Handles one message a device published on one of its own topics. Never throws for a bad message: it is refused and recorded. */
  async handle(serial: string, kind: 'telemetry' | 'state' | 'ack', payload: Buffer): Promise<void> {
    const node = await this.node(serial);
    if (!node) {
      this.log.warn({ serial }, 'device message from an unknown serial number refused');
      return;
    }
    if (!this.allow(node.nodeId)) return;
    try {
      if (kind === 'telemetry') await this.telemetry(node, payload);
      else if (kind === 'state') await this.state(node, payload);
      else await this.hooks.ack?.(node.nodeId, this.parse(payload, deviceAckSchema));
    } catch (err) {
      if (!(err instanceof Refusal)) throw err;
      await this.refuse(node, err.message);
    }
  }

  /** Records a refusal on the node (its page shows the reason) and logs it. */
  async refuse(node: { nodeId: number; serial: string }, reason: string): Promise<void> {
    this.counts.refused++;
    this.log.warn({ serial: node.serial, nodeId: node.nodeId, reason }, 'device message refused');
    await repo.recordRejection(this.ctx.db, node.nodeId, reason, nowS());
  }

  private parse<T>(payload: Buffer, schema: { safeParse(v: unknown): { success: true; data: T } | { success: false; error: ZodError } }): T {
    const parsed = schema.safeParse(parseJson(payload));
    if (!parsed.success) throw new Refusal(zodReason(parsed.error));
    return parsed.data;
  }

  /** A token bucket per device: a flood is dropped and counted, never stored nor logged message by message. */
  private allow(nodeId: number): boolean {
    const now = Date.now();
    const b = this.tokens.get(nodeId) ?? { tokens: RATE_BURST, at: now };
    b.tokens = Math.min(RATE_BURST, b.tokens + ((now - b.at) / 1000) * RATE_PER_S);
    b.at = now;
    this.tokens.set(nodeId, b);
    if (b.tokens < 1) {
      this.counts.dropped++;
      this.dropped.set(nodeId, (this.dropped.get(nodeId) ?? 0) + 1);
      return false;
    }
    b.tokens -= 1;
    return true;
  }

  private async telemetry(node: repo.DeviceNode, payload: Buffer): Promise<void> {
    const raw = parseJson(payload);
    const parsed = deviceTelemetrySchema.safeParse(raw);
    if (!parsed.success) {
      // A single reading's own error says more than the union's.
      const single = deviceReadingSchema.safeParse(raw);
      throw new Refusal(zodReason(single.success ? parsed.error : single.error));
    }
    const all = 'readings' in parsed.data ? parsed.data.readings : [parsed.data];
    const now = nowS();
    const retention = this.ctx.config.TELEMETRY_RAW_RETENTION_DAYS * 86400;
    const good: DeviceReading[] = [];
    let problem: string | null = null;
    for (const r of all) {
      const p = readingProblem(r, node, now, retention);
      if (p) problem ??= p;
      else good.push(r);
    }
    // The good readings of a batch are stored; the first bad one's reason is recorded.
    if (problem) await this.refuse(node, problem);
    if (!good.length) return;
    await new Promise<void>((resolve, reject) => {
      this.pending.push({ node, readings: good, resolve, reject });
      this.pendingReadings += good.length;
      if (this.pendingReadings >= FLUSH_READINGS) this.flushSoon(0);
      else this.flushSoon(FLUSH_WAIT_MS);
    });
  }

  private flushSoon(ms: number) {
    if (this.timer && ms > 0) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      const batch = this.pending;
      this.pending = [];
      this.pendingReadings = 0;
      // One write at a time: the next batch waits for the one before (SQLite has one writer anyway).
      this.writing = this.writing.then(() => this.write(batch));
    }, ms);
  }

  private async write(batch: Pending[]): Promise<void> {
    try {
      for (let attempt = 0; ; attempt++) {
        try {
          await this.store(batch);
          break;
        } catch (err) {
          // Another console process stored some of the same readings meanwhile (read again which),
          // or its writes to the same nodes met these in a deadlock.
          if (attempt < 2 && (isUniqueViolation(err) || isSerializationConflict(err))) continue;
          throw err;
        }
      }
      for (const p of batch) p.resolve();
    } catch (err) {
      this.log.error({ err }, 'device readings could not be stored');
      for (const p of batch) p.reject(err);
    }
  }

  private async store(batch: Pending[]): Promise<void> {
    const candidates: { node: repo.DeviceNode; r: DeviceReading }[] = [];
    const inBatch = new Set<string>();
    for (const p of batch)
      for (const r of p.readings) {
        const key = `${p.node.nodeId}:${r.seq}`;
        if (inBatch.has(key)) {
          this.counts.duplicates++;
          continue;
        }
        inBatch.add(key);
        candidates.push({ node: p.node, r });
      }
    const stored = await repo.storedSequences(
      this.ctx.db,
      candidates.map((c) => ({ nodeId: c.node.nodeId, seq: c.r.seq })),
    );
    const fresh = candidates.filter((c) => !stored.has(`${c.node.nodeId}:${c.r.seq}`));
    this.counts.duplicates += candidates.length - fresh.length;
    const samples: Sample[] = [];
    const submeters: SubmeterSample[] = [];
    const contact = new Map<number, { node: repo.DeviceNode; ts: number }>();
    for (const { node, r } of fresh) {
      samples.push(toSample(node.nodeId, r));
      for (const s of r.submeters ?? []) submeters.push({ submeterId: s.id, ts: r.ts, dt: r.dt, p: s.p, q: s.q ?? 0 });
      const c = contact.get(node.nodeId);
      if (!c || r.ts > c.ts) contact.set(node.nodeId, { node, ts: r.ts });
    }
    const dropped = new Map(this.dropped);
    this.dropped.clear();
    const now = nowS();
    let back: { nodeId: number; lastContact: number | null }[] = [];
    await this.ctx.telemetry.ingest(samples, now, {
      submeters,
      alongside: async (trx) => {
        await repo.saveSequences(
          trx,
          fresh.map((c) => ({ nodeId: c.node.nodeId, seq: c.r.seq, ts: c.r.ts })),
        );
        // A node held offline whose device does not say when its connections begin (a one-off
        // publish, a device without a state) is online again by its readings: decided in the
        // database, where another console process may have recorded its last will.
        back = await repo.heardFromWhileOffline(trx, [...contact.keys()]);
        await this.reports.contacts(
          [...contact.values()].filter((c) => c.ts > (c.node.lastContact ?? 0)).map((c) => ({ nodeId: c.node.nodeId, lastContact: c.ts })),
          trx,
        );
        if (back.length) {
          await this.reports.connectivity(
            back.map((b) => ({ nodeId: b.nodeId, ts: now, online: true, offlineFrom: b.lastContact })),
            trx,
          );
          await resendToNodes(
            trx,
            back.map((b) => b.nodeId),
            now,
          );
        }
        if (dropped.size) await repo.addDropped(trx, dropped);
      },
    });
    for (const c of contact.values()) c.node.lastContact = Math.max(c.node.lastContact ?? 0, c.ts);
    for (const b of back) {
      const c = contact.get(b.nodeId);
      if (c) c.node.offline = false;
    }
    if (back.length) this.hooks.back?.();
    // Live readings wait in the open tables until their bucket closes and the fold job (one run per
    // bucket across the console processes, telemetry/fold.ts) moves them into the history.
    this.counts.stored += fresh.length;
  }

  /** States waiting for the next write, each settled once recorded. */
  private states: { node: repo.DeviceNode; state: DeviceState; done: () => void; failed: (err: unknown) => void }[] = [];
  private recordingStates: Promise<void> | null = null;

  /**
   * A device's retained state: online with what it is, or its last will (offline). Each change is
   * an event of its node. The states that arrive while one write is under way are recorded together
   * in the next, in one transaction: a fleet reconnecting at once (each device's last will, then its
   * state online) is a few writes, not two transactions a device.
   */
  private async state(cached: repo.DeviceNode, payload: Buffer): Promise<void> {
    const state = this.parse(payload, deviceStateSchema);
    await new Promise<void>((done, failed) => {
      this.states.push({ node: cached, state, done, failed });
      this.recordingStates ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.recordStates());
    });
  }

  private async recordStates(): Promise<void> {
    while (this.states.length) {
      const batch = this.states.splice(0, STATES);
      try {
        await this.saveStates(batch);
        for (const s of batch) s.done();
      } catch (err) {
        for (const s of batch) s.failed(err);
      }
    }
    this.recordingStates = null;
  }

  private async saveStates(batch: readonly { node: repo.DeviceNode; state: DeviceState }[]): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        const { held, online } = await this.ctx.db.transaction().execute((trx) => this.recordStateBatch(trx, batch));
        for (const { node } of batch) node.offline = held.get(node.nodeId)?.offline ?? node.offline;
        if (online.size) this.hooks.back?.();
        return;
      } catch (err) {
        // Two consoles' writes to the same nodes (states here, readings there) met in a deadlock: this one again.
        if (attempt < 3 && isSerializationConflict(err)) continue;
        throw err;
      }
    }
  }

  /**
   * Records a batch of states in the order they came. Whether the node is online is the one fact
   * two console processes must agree on, so its rows are read locked: the other process's states
   * of the same devices wait, and each decides on what the other wrote. A state that says when its
   * connection began (`ts`) counts only if that connection is not older than the one recorded: a
   * last will taken after its device's next state online (by the other process) is set aside, and
   * the state online of a connection whose will came first changes nothing. Answers what each node
   * is held as, and the nodes whose devices are (back) online: their commands, marked here, go out
   * again (in this transaction: no round sees the node online before they are marked).
   */
  private async recordStateBatch(trx: Database, batch: readonly { node: repo.DeviceNode; state: DeviceState }[]) {
    const held = await repo.lockConnectivity(
      trx,
      batch.map((s) => s.node.nodeId),
      this.ctx.dialect === 'postgres',
    );
    const now = nowS();
    const changes: ConnectivityChange[] = [];
    const recorded = new Map<number, { json: string; since: number | null }>();
    const online = new Set<number>();
    for (const { node, state } of batch) {
      const was = held.get(node.nodeId) ?? { offline: node.offline, lastContact: node.lastContact, since: null };
      const since = state.ts ?? null;
      if (since !== null && was.since !== null && (state.online ? since <= was.since : since < was.since)) continue;
      // In the order they came: a device's last will and then its state online, in one batch, are two events.
      if (state.online === was.offline)
        changes.push({ nodeId: node.nodeId, ts: now, online: state.online, offlineFrom: state.online ? was.lastContact : null });
      held.set(node.nodeId, { ...was, offline: !state.online, since });
      recorded.set(node.nodeId, { json: JSON.stringify(state), since });
      if (state.online) online.add(node.nodeId);
      else online.delete(node.nodeId);
    }
    for (const [nodeId, r] of recorded) await repo.saveState(trx, nodeId, r.json, r.since);
    await resendToNodes(trx, [...online], now);
    if (changes.length) {
      await this.reports.connectivity(changes, trx);
      const changed = new Set(changes.map((c) => c.nodeId));
      await this.reports.contacts(
        [...changed].map((nodeId) => ({ nodeId, online: !held.get(nodeId)?.offline })),
        trx,
      );
    }
    return { held, online };
  }

  /** Writes what is waiting, and the dropped counts. */
  async drain(): Promise<void> {
    if (this.timer) this.flushSoon(0);
    await new Promise((r) => setTimeout(r, 0));
    await this.writing;
    if (this.dropped.size) {
      const dropped = new Map(this.dropped);
      this.dropped.clear();
      await repo.addDropped(this.ctx.db, dropped);
    }
  }
}
