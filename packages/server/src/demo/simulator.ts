import { type Command, customerOptsOut, frequency, type NodeModel, step, submeterPower, voltage } from '@vpp/fleet/physics';
import { hash01 } from '@vpp/fleet/random';
import type { FastifyBaseLogger } from 'fastify';
import { clockMs, type Database, nowS } from '../db/database.ts';
import { type CommandSpec, type ConnectivityChange, commandSpec, type FleetReports, followedWindows, type UnitContact } from '../devices/index.ts';
import type { Sample, SubmeterSample, TelemetryStore } from '../telemetry/index.ts';
import type { SimParams } from './builder.ts';

/** Samples per ingest while catching up: big enough to write efficiently, small enough to keep the server answering. */
const FLUSH_SAMPLES = 50_000;
/** A catch-up after a downtime goes a day at a time: each run's commands and groups stay bounded. */
const CATCH_UP_S = 86_400;

/** What one transaction of the simulator stores: readings and news of these nodes, and their state. */
interface Batch {
  samples: Sample[];
  submeters: SubmeterSample[];
  changes: ConnectivityChange[];
  nodes: SimNode[];
}

interface SimNode {
  model: NodeModel;
  params: SimParams;
  commissionedAt: number | null;
  usableKwh: number;
  socKwh: number;
  /** The first second not yet simulated (0: never simulated): a step at `ts` of `dt` seconds covers [ts, ts + dt). */
  nextTs: number;
  /** The time of the node's last report, and the one last written to `nodes.last_contact`. */
  lastContact: number | null;
  savedContact: number | null;
  online: boolean;
  offlineFrom: number | null;
}

/** A node handed over to its device: its home, and where its simulation stands. */
export interface ReleasedNode {
  model: NodeModel;
  params: SimParams;
  commissionedAt: number | null;
  socKwh: number;
  /** The first second not simulated. */
  nextTs: number;
}

/** Whether a unit reports at `ts`: commissioned, in contact, and not in one of its rare outages. */
export function reporting(n: { model: NodeModel; params: SimParams; commissionedAt: number | null }, ts: number): boolean {
  if (n.commissionedAt === null || ts < n.commissionedAt || n.params.awaitingContact) return false;
  if (n.params.offlineSince !== undefined && ts >= n.params.offlineSince) return false;
  // About one day in forty holds an outage of one to six hours (connectivity, not the grid).
  if (n.params.outages === false) return true;
  for (const day of [Math.floor(ts / 86400), Math.floor(ts / 86400) - 1]) {
    if (hash01(n.model.id, day, 3) < 0.025) {
      const start = day * 86400 + Math.floor(hash01(n.model.id, day, 4) * 86400);
      const end = start + 3600 + Math.floor(hash01(n.model.id, day, 5) * 5 * 3600);
      if (ts >= start && ts < end) return false;
    }
  }
  return true;
}

/** Builds the telemetry sample of one step, with phases, voltage, frequency and reactive power. */
function sample(n: SimNode, ts: number, dt: number, r: ReturnType<typeof step>): Sample {
  const m = n.model;
  const phaseShare = m.phases === 3 ? [0.4, 0.35, 0.25] : [1];
  const volts = phaseShare.map((share, i) => voltage(m, ts, r.gridKw * share * (m.phases === 3 ? 3 : 1), i));
  const vAvg = volts.reduce((a, b) => a + b, 0) / volts.length;
  const meterQ = r.houseKw * 0.22 - r.solarKw * 0.06;
  return {
    nodeId: m.id,
    ts,
    dt,
    meter_p: r.gridKw,
    meter_p_a: r.gridKw * phaseShare[0],
    meter_p_b: m.phases === 3 ? r.gridKw * phaseShare[1] : null,
    meter_p_c: m.phases === 3 ? r.gridKw * phaseShare[2] : null,
    solar_p: r.solarKw,
    sga_p: r.sgaKw,
    battery_p: r.batteryKw,
    house_p: r.houseKw,
    voltage: vAvg,
    voltage_a: volts[0],
    voltage_b: volts[1] ?? null,
    voltage_c: volts[2] ?? null,
    frequency: frequency(m.region, ts),
    meter_q: meterQ,
    solar_q: -r.solarKw * 0.06,
    current: (Math.abs(r.gridKw) * 1000) / vAvg / m.phases,
    soc: n.usableKwh > 0 ? (r.socKwh / n.usableKwh) * 100 : null,
    remaining: n.usableKwh > 0 ? r.socKwh : null,
    curtailed_p: r.curtailedKw,
  };
}

/** How a device answers a command when it receives it: it takes it on, or its customer opts out. */
type CommandAnswer = 'ACCEPTED' | 'OPTED_OUT';

/** How a simulated home answers a command (the fleet's devices answer alike, packages/fleet). */
export function customerAnswer(c: { id: number; nodeId: number; spec: CommandSpec }): CommandAnswer {
  return customerOptsOut(c.nodeId, c.id, c.spec.kind === 'battery_power') ? 'OPTED_OUT' : 'ACCEPTED';
}

/**
 * The commands the devices must obey between `from` and `to` (both included), per node. A pending
 * command is delivered to its device, whose answer (`answer`: the device's, or its customer's) is
 * recorded; a device that `reachable` says is not reporting while the command is due cannot
 * receive it, and the command stays pending.
 */
export async function commandsFor(
  db: Database,
  from: number,
  to: number,
  nodeIds: readonly number[] | undefined,
  reachable: (nodeId: number, start: number, end: number) => boolean,
  answer: (command: { id: number; nodeId: number; spec: CommandSpec }) => CommandAnswer,
): Promise<Map<number, Command[]>> {
  let q = db
    .selectFrom('node_commands')
    .select(['id', 'node_id', 'kind', 'start_ts', 'end_ts', 'params', 'status', 'precedence', 'organisation_id'])
    .where('end_ts', '>', from)
    .where('start_ts', '<=', to)
    .where('status', 'in', ['PENDING', 'ACCEPTED']);
  if (nodeIds) q = q.where('node_id', 'in', nodeIds);
  const rows = await q.execute();
  const accepted: number[] = [];
  const optedOut: number[] = [];
  const held = new Map<
    number,
    { id: number; kind: string; start: number; end: number; precedence: number; organisationId: number | null; spec: CommandSpec }[]
  >();
  for (const r of rows) {
    const spec = commandSpec.parse(JSON.parse(r.params));
    if (r.status === 'PENDING') {
      if (!reachable(r.node_id, r.start_ts, r.end_ts)) continue;
      if (answer({ id: r.id, nodeId: r.node_id, spec }) === 'OPTED_OUT') {
        optedOut.push(r.id);
        continue;
      }
      accepted.push(r.id);
    }
    const list = held.get(r.node_id) ?? [];
    list.push({ id: r.id, kind: r.kind, start: r.start_ts, end: r.end_ts, precedence: r.precedence, organisationId: r.organisation_id, spec });
    held.set(r.node_id, list);
  }
  // One instruction per node at a time (docs/precedence.md): each command holds only where none with precedence stands.
  const out = new Map<number, Command[]>();
  for (const [nodeId, list] of held) {
    const commands: Command[] = [];
    for (const [c, windows] of followedWindows(list)) for (const w of windows) commands.push({ ...c.spec, start: w.start, end: w.end } as Command);
    out.set(nodeId, commands);
  }
  const at = nowS();
  for (let i = 0; i < accepted.length; i += 1000)
    await db
      .updateTable('node_commands')
      .set({ status: 'ACCEPTED', responded_at: at })
      .where('id', 'in', accepted.slice(i, i + 1000))
      .execute();
  for (let i = 0; i < optedOut.length; i += 1000)
    await db
      .updateTable('node_commands')
      .set({ status: 'OPTED_OUT', responded_at: at })
      .where('id', 'in', optedOut.slice(i, i + 1000))
      .execute();
  return out;
}

/**
 * The simulated fleet: every commissioned node's physics stepped through time, from the commands
 * it has been given, reporting telemetry through the same ingest a real fleet would use.
 */
export class FleetSimulator {
  private nodes: SimNode[] = [];
  private submeters = new Map<number, { id: number; name: string }[]>();
  private timer: NodeJS.Timeout | undefined;
  private running = false;

  constructor(
    private readonly db: Database,
    private readonly store: TelemetryStore,
    /** `backupReserve`: the share of each battery the households keep for themselves (0 by default). */
    private readonly opts: { intervalS: number; log?: FastifyBaseLogger; reports: FleetReports; backupReserve?: number },
  ) {}

  /** Loads the nodes and their last simulated state. */
  async load(): Promise<void> {
    const rows = await this.db
      .selectFrom('nodes')
      .leftJoin('sim_state', 'sim_state.node_id', 'nodes.id')
      .leftJoin('tel_latest', 'tel_latest.node_id', 'nodes.id')
      .select([
        'nodes.id',
        'lat',
        'lng',
        'region',
        'postcode',
        'timezone',
        'phases',
        'solar_kw',
        'inverter_kw',
        'battery_usable_kwh',
        'battery_kw',
        'sim_json',
        'commissioned_at',
        'connection_offline',
        'last_contact',
        'sim_state.ts as sim_ts',
        'sim_state.state_json',
        'tel_latest.ts as latest_ts',
        'tel_latest.remaining as latest_remaining',
      ])
      .execute();
    const subs = await this.db.selectFrom('submeters').selectAll().execute();
    this.submeters = new Map();
    for (const s of subs) this.submeters.set(s.node_id, [...(this.submeters.get(s.node_id) ?? []), { id: s.id, name: s.name }]);
    this.nodes = rows.map((r) => {
      const state = r.state_json ? (JSON.parse(r.state_json) as { socKwh: number }) : null;
      // A node's device may have reported past where this simulator left it (the demo's fleet on the
      // wire, up to its last reading of SIM_INTERVAL_S): it resumes after that reading, never over it.
      const reported = r.latest_ts === null || r.latest_ts === undefined ? 0 : Number(r.latest_ts) + this.opts.intervalS;
      const resumed = r.sim_ts !== null && reported > r.sim_ts;
      return {
        model: {
          id: r.id,
          lat: r.lat,
          lng: r.lng,
          region: r.region,
          postcode: r.postcode,
          timezone: r.timezone,
          phases: r.phases === 3 ? 3 : 1,
          solarKw: r.solar_kw,
          inverterKw: r.inverter_kw,
          batteryKwh: r.battery_usable_kwh,
          backupReserveKwh: r.battery_usable_kwh * (this.opts.backupReserve ?? 0),
          batteryKw: r.battery_kw,
          loadScale: (JSON.parse(r.sim_json) as SimParams).loadScale,
          submeterIds: (this.submeters.get(r.id) ?? []).map((s) => s.id),
        },
        params: JSON.parse(r.sim_json) as SimParams,
        commissionedAt: r.commissioned_at,
        usableKwh: r.battery_usable_kwh,
        socKwh: resumed && r.latest_remaining !== null ? Number(r.latest_remaining) : (state?.socKwh ?? r.battery_usable_kwh * 0.5),
        nextTs: resumed ? reported : (r.sim_ts ?? 0),
        // Before its first simulation the stored last contact is the builder's guess, not a report.
        lastContact: r.sim_ts ? r.last_contact : null,
        savedContact: r.last_contact,
        online: r.connection_offline === 0,
        offlineFrom: null,
      };
    });
    await this.leaveWired();
  }

  /** Nodes whose credential is the demo's own devices' (demo/fleet.ts): simulated here until they are released to them. */
  own: ReadonlySet<number> = new Set();

  /**
   * A node whose device holds a credential reports over MQTT (docs/devices.md): the in-process
   * simulation of it stops, so that it has one source of readings and answers commands once. The
   * demo's own devices are simulated here until `release` hands them over.
   */
  private async leaveWired(): Promise<void> {
    const wired = new Set((await this.db.selectFrom('device_credentials').select('node_id').execute()).map((r) => r.node_id));
    if (wired.size) this.nodes = this.nodes.filter((n) => !wired.has(n.model.id) || this.own.has(n.model.id));
  }

  /**
   * Hands these nodes over to their devices (the demo's fleet on the wire): answers where each
   * stands, and steps them no more.
   */
  release(ids: ReadonlySet<number>): Map<number, ReleasedNode> {
    const out = new Map<number, ReleasedNode>();
    for (const n of this.nodes)
      if (ids.has(n.model.id)) out.set(n.model.id, { model: n.model, params: n.params, commissionedAt: n.commissionedAt, socKwh: n.socKwh, nextTs: n.nextTs });
    this.nodes = this.nodes.filter((n) => !ids.has(n.model.id));
    this.own = new Set([...this.own].filter((id) => !ids.has(id)));
    return out;
  }

  /** Node ids the simulator models. */
  get nodeIds(): number[] {
    return this.nodes.map((n) => n.model.id);
  }

  /**
   * Steps every node from where it stopped (nodes never simulated: from `from`) through `to` at
   * `stepS`, storing telemetry, node events for outages, and the state reached. A node resuming
   * between two steps first steps to the next one, so no second is simulated twice or skipped,
   * however long ago it stopped, then folds the buckets they have all finished. Returns the number
   * of samples stored.
   */
  async run(from: number, to: number, stepS = 300, nodeFilter?: (id: number) => boolean): Promise<number> {
    let stored = 0;
    const targets = nodeFilter ? this.nodes.filter((n) => nodeFilter(n.model.id)) : this.nodes;
    let earliest = from;
    for (const n of targets) if (n.nextTs && n.nextTs < earliest) earliest = n.nextTs;
    // Groups of about FLUSH_SAMPLES samples, with a yield between them, keep the server answering
    // while history is backfilled, and make each ingest big enough to be efficient.
    const chunk = Math.max(1, Math.min(1000, Math.floor(FLUSH_SAMPLES / (Math.floor((to - earliest) / stepS) + 1))));
    for (let i = 0; i < targets.length; i += chunk) {
      const group = targets.slice(i, i + chunk);
      const firsts = new Map(group.map((n) => [n.model.id, n.nextTs || from]));
      const byId = new Map(group.map((n) => [n.model.id, n]));
      // A device answers a command only if it reports at some step of this run while the command is due.
      const reachable = (nodeId: number, start: number, end: number) => {
        const n = byId.get(nodeId);
        const first = firsts.get(nodeId);
        if (!n || first === undefined) return false;
        for (let ts = start <= first ? first : Math.ceil(start / stepS) * stepS; ts <= to && ts < end; ts += stepS - (ts % stepS)) {
          if (reporting(n, ts)) return true;
        }
        return false;
      };
      const commands = await commandsFor(
        this.db,
        Math.min(from, ...firsts.values()),
        to,
        group.map((n) => n.model.id),
        reachable,
        customerAnswer,
      );
      const batch: Batch = { samples: [], submeters: [], changes: [], nodes: [] };
      for (const n of group) {
        batch.nodes.push(n);
        let ts = firsts.get(n.model.id) as number;
        if (ts > to) continue;
        // A unit simulated for the first time starts in the state its schedule gives it, not the one stored at build.
        if (!n.nextTs) n.online = reporting(n, ts - stepS);
        for (; ts <= to; ts += stepS - (ts % stepS)) {
          const dt = stepS - (ts % stepS);
          const up = reporting(n, ts);
          if (up !== n.online) {
            this.transition(n, ts, up, batch.changes);
          }
          if (!up) continue;
          const r = step(n.model, ts, dt, n.socKwh, commands.get(n.model.id) ?? []);
          n.socKwh = r.socKwh;
          batch.samples.push(sample(n, ts, dt, r));
          for (const sm of this.submeters.get(n.model.id) ?? []) {
            const p = submeterPower(sm.name, sm.id, ts, r.houseKw, n.model.timezone);
            batch.submeters.push({ submeterId: sm.id, ts, dt, p, q: p * 0.15 });
          }
          n.lastContact = ts;
        }
        n.nextTs = ts;
        if (batch.samples.length >= FLUSH_SAMPLES) stored += await this.commit(batch, to);
      }
      stored += await this.commit(batch, to);
      await new Promise((resolve) => setImmediate(resolve));
    }
    // The report is in: the buckets every node it stepped has finished have closed, and their open
    // readings join the history, in a transaction of their own (a crash before it leaves them open
    // for the fold at the next start or report). No open reading before them: nothing to do.
    let reached = Number.POSITIVE_INFINITY;
    for (const n of targets) if (n.nextTs < reached) reached = n.nextTs;
    if (Number.isFinite(reached) && reached > 0) await this.store.fold(reached - (reached % 300));
    return stored;
  }

  private transition(n: SimNode, ts: number, up: boolean, changes: ConnectivityChange[]) {
    // No outage to report before commissioning, while awaiting contact, or before the unit's first report since
    // commissioning: a unit first simulated just as its schedule takes it offline was never heard, so neither its
    // going quiet nor its first report is an outage (the going quiet alone would leave an outage that never ends).
    if (n.commissionedAt === null || ts < n.commissionedAt || n.params.awaitingContact || (n.lastContact ?? 0) < n.commissionedAt) {
      n.online = up;
      return;
    }
    changes.push({ nodeId: n.model.id, ts, online: up, offlineFrom: up ? n.offlineFrom : null });
    n.offlineFrom = up ? null : ts;
    n.online = up;
  }

  /**
   * Stores a batch as one transaction: its readings, the connectivity news, each node's contact
   * and the state its nodes reached. A crash before the commit leaves the nodes where the last
   * batch left them, to be simulated again; after it, nothing of the batch is sent again. Either
   * way no reading is added twice to the rollups, nor lost. Empties the batch.
   */
  private async commit(batch: Batch, to: number): Promise<number> {
    const nodes = batch.nodes.splice(0);
    if (!nodes.length) return 0;
    const changes = batch.changes.splice(0);
    const stateRows = nodes.map((n) => ({ node_id: n.model.id, ts: n.nextTs || to, state_json: JSON.stringify({ socKwh: n.socKwh }) }));
    // Each node's last report (offline ones included) when it changed, and whether it reports now.
    const units: UnitContact[] = nodes.map((n) => {
      const changed = n.lastContact !== null && n.lastContact !== n.savedContact;
      // Reporting at the end of the run, or offline; a unit between the two has no news.
      const online = !n.online ? false : reporting(n, to) ? true : undefined;
      return { nodeId: n.model.id, ...(online === undefined ? {} : { online }), ...(changed ? { lastContact: n.lastContact as number } : {}) };
    });
    const stored = await this.store.ingest(batch.samples.splice(0), undefined, {
      submeters: batch.submeters.splice(0),
      alongside: async (trx) => {
        await trx
          .insertInto('sim_state')
          .values(stateRows)
          .onConflict((oc) => oc.column('node_id').doUpdateSet((eb) => ({ ts: eb.ref('excluded.ts'), state_json: eb.ref('excluded.state_json') })))
          .execute();
        if (changes.length) await this.opts.reports.connectivity(changes, trx);
        await this.opts.reports.contacts(units, trx);
      },
    });
    for (const n of nodes) n.savedContact = n.lastContact ?? n.savedContact;
    return stored;
  }

  /**
   * One live report: every node steps from where it stopped to now. Nodes more than three reports
   * behind (after a downtime, or a slow report) first catch up at 5 minutes through the last complete
   * 5-minute bucket, a day at a time, so that no second is skipped and a long downtime is caught
   * up in bounded pieces.
   */
  async tick(now = nowS()): Promise<void> {
    await this.leaveWired();
    const interval = this.opts.intervalS;
    const bucket = now - (now % 300);
    const behind = this.nodes.filter((n) => n.nextTs && n.nextTs < bucket && now - n.nextTs > 3 * interval);
    if (behind.length) {
      const ids = new Set(behind.map((n) => n.model.id));
      let from = behind.reduce((a, n) => Math.min(a, n.nextTs), bucket);
      while (from < bucket) {
        const end = Math.min(bucket, from - (from % CATCH_UP_S) + CATCH_UP_S);
        // Steps start at or before end - 1, so the last one ends at `end` (a 5-minute boundary).
        await this.run(from, end - 1, 300, (id) => ids.has(id));
        from = end;
      }
    }
    const t = now - (now % interval);
    // Nodes never simulated start here; the others resume where they stopped.
    await this.run(Math.min(bucket, t - 3 * interval), t, interval);
  }

  /**
   * Reports every SIM_INTERVAL_S until stopped. A failed tick is logged, the nodes go back to the
   * state last committed (the failed batch was not), and the next tick tries again from there.
   */
  start(): void {
    if (this.running) return;
    this.running = true;
    const loop = async () => {
      if (!this.running) return;
      try {
        await this.tick();
      } catch (err) {
        this.opts.log?.error({ err }, 'fleet simulator tick failed');
        await this.load().catch((e: unknown) => this.opts.log?.error({ err: e }, 'fleet simulator reload failed'));
      }
      if (this.running) this.timer = setTimeout(loop, clockMs(this.opts.intervalS));
    };
    this.timer = setTimeout(loop, 1000);
  }

  stop(): void {
    this.running = false;
    clearTimeout(this.timer);
  }
}
