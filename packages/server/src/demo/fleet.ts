import { createHmac, randomBytes } from 'node:crypto';
import { type Fleet, runFleet } from '@vpp/fleet/fleet';
import type { FleetDevice } from '@vpp/shared/devices/identities';
import type { FastifyBaseLogger } from 'fastify';
import { clockMs, nowS } from '../db/database.ts';
import { commissionDemoFleet, type FleetReports } from '../devices/index.ts';
import type { AppContext } from '../platform/context.ts';
import { buildFleet, type FleetOwners, type SimParams } from './builder.ts';
import { FleetSimulator, type ReleasedNode, reporting } from './simulator.ts';
import { publishWeather, WEATHER_AHEAD_S } from './weather.ts';

/** Distribution networks the demo NETWORK organisation serves (east-coast networks). */
export const DEMO_NETWORK_AREAS = ['Ausgrid', 'Endeavour Energy', 'Essential Energy', 'Evoenergy', 'Energex', 'Ergon Energy'];

/** The demo's owners: every retailer and installer organisation, and the first network for its areas. */
async function demoOwners(ctx: AppContext): Promise<FleetOwners> {
  const orgs = await ctx.db.selectFrom('organisations').select(['id', 'suborg_type']).orderBy('id').execute();
  const network = orgs.find((o) => o.suborg_type === 'NETWORK');
  return {
    retailers: orgs.filter((o) => o.suborg_type === 'RETAILER').map((o) => o.id),
    installers: orgs.filter((o) => o.suborg_type === 'INSTALLER').map((o) => o.id),
    networks: new Map(network ? DEMO_NETWORK_AREAS.map((n) => [n, network.id]) : []),
    retailerShare: 0.85,
    installerShare: 0.6,
  };
}

/**
 * Something done at a moment of the fleet's history (the demo's past dispatches: created and their
 * orders sent as at `at`), before the backfill simulates the time after it, so the physics obey it.
 */
export interface HistoryStep {
  /** Epoch seconds, on a 5-minute boundary: the backfill has simulated everything before it. */
  at: number;
  act: () => Promise<void>;
}

/** The settings row that keeps a fresh fleet's history plan until its steps are done. */
const HISTORY_KEY = 'fleet_history';

interface HistoryPlan {
  from: number;
  to: number;
  /** The last step done (`from` before the first). */
  done: number;
}

async function historyPlan(ctx: AppContext): Promise<HistoryPlan | null> {
  const row = await ctx.db.selectFrom('settings').select('value').where('key', '=', HISTORY_KEY).executeTakeFirst();
  return row ? (JSON.parse(row.value) as HistoryPlan) : null;
}

async function saveHistoryPlan(ctx: AppContext, plan: HistoryPlan): Promise<void> {
  const value = JSON.stringify(plan);
  const done = await ctx.db.updateTable('settings').set({ value }).where('key', '=', HISTORY_KEY).executeTakeFirst();
  if (Number(done.numUpdatedRows) === 0) await ctx.db.insertInto('settings').values({ key: HISTORY_KEY, value }).execute();
}

/** The steps of a freshly built fleet's history between `from` and `to` (the backfilled window). */
export type FleetHistory = (from: number, to: number) => Promise<HistoryStep[]>;

/** The settings row that keeps the key the demo's device secrets are derived from. */
const DEVICE_KEY = 'demo_device_key';

/**
 * The demo's devices: every node that reports (commissioned, heard from, not gone quiet for good)
 * with a credential of the demo's own, its secret derived from a key kept in the database (this is
 * a demo: whoever reads its database may act as its devices). A node whose credential was issued to
 * someone else is theirs (docs/devices.md, "The demo").
 */
async function demoDevices(ctx: AppContext): Promise<Map<number, FleetDevice>> {
  let row = await ctx.db.selectFrom('settings').select('value').where('key', '=', DEVICE_KEY).executeTakeFirst();
  if (!row) {
    await ctx.db
      .insertInto('settings')
      .values({ key: DEVICE_KEY, value: randomBytes(32).toString('base64url') })
      .onConflict((oc) => oc.column('key').doNothing())
      .execute();
    row = await ctx.db.selectFrom('settings').select('value').where('key', '=', DEVICE_KEY).executeTakeFirstOrThrow();
  }
  const key = row.value;
  const nodes = await ctx.db.selectFrom('nodes').select(['id', 'sim_json']).where('commissioned_at', 'is not', null).execute();
  const reporting = nodes.filter((n) => {
    const p = JSON.parse(n.sim_json) as SimParams;
    return !p.awaitingContact && p.offlineSince === undefined;
  });
  return commissionDemoFleet(
    ctx.db,
    reporting.map((n) => n.id),
    (serial) => createHmac('sha256', key).update(serial).digest('base64url'),
  );
}

/**
 * Starts the simulated fleet: on first start builds SIM_NODES nodes and backfills SIM_HISTORY_DAYS
 * of 5-minute history (in the background, the console is usable meanwhile), then reports live every
 * SIM_INTERVAL_S: readings to the telemetry store, connectivity to `reports` (the console's side).
 * `history` (the demo's) acts at moments of a freshly built fleet's history, the backfill stopping at each.
 */
export async function startFleet(
  ctx: AppContext,
  log: FastifyBaseLogger,
  reports: FleetReports,
  history?: FleetHistory,
  /** The broker the demo's devices connect to (the embedded one); absent: the simulator reports live itself. */
  wire?: { broker: string },
) {
  const { SIM_NODES, SIM_HISTORY_DAYS, SIM_INTERVAL_S, SIM_SEED, SIM_BACKUP_RESERVE, SIM_OUTAGES } = ctx.config;
  const now = nowS();
  const existing = await ctx.db.selectFrom('nodes').select('id').limit(1).executeTakeFirst();
  const built = !existing && SIM_NODES > 0;
  // The history's window and how far its steps have gone, kept until the last one is done: a first
  // start killed on the way resumes its steps where it stopped (issue 32 item 6).
  let plan = await historyPlan(ctx);
  if (built && history) {
    let from = now - SIM_HISTORY_DAYS * 86400;
    from -= from % 300;
    // History ends with the last complete 5-minute bucket; the live reports carry on from there.
    plan = { from, to: now - (now % 300) - 300, done: from };
    await saveHistoryPlan(ctx, plan);
  }
  if (built) {
    const ids = await buildFleet(ctx.db, {
      count: SIM_NODES,
      seed: SIM_SEED,
      owners: await demoOwners(ctx),
      historyDays: SIM_HISTORY_DAYS,
      now,
      outages: SIM_OUTAGES,
    });
    await reports.joined(ids);
    log.info(`Built a simulated fleet of ${SIM_NODES} nodes`);
  }
  await ctx.telemetry.ensurePartitions(now - (SIM_HISTORY_DAYS + 1) * 86400, now + 62 * 86400);
  // Readings a stop or a crash left open in buckets that have closed since join the history now.
  const folded = await ctx.telemetry.fold(undefined, now);
  if (folded) log.info(`Folded ${folded} open readings into the telemetry history`);
  // The world's weather over the history and the days ahead, then issued anew every hour.
  await publishWeather(ctx.db, now - (SIM_HISTORY_DAYS + 1) * 86400, now + WEATHER_AHEAD_S, now);
  const sim = new FleetSimulator(ctx.db, ctx.telemetry, { intervalS: SIM_INTERVAL_S, log, reports, backupReserve: SIM_BACKUP_RESERVE });
  // The demo's devices, simulated here through the backfill, then handed over to the fleet on the wire.
  const own = wire ? await demoDevices(ctx) : new Map<number, FleetDevice>();
  sim.own = new Set(own.keys());
  await sim.load();
  let stopped = false;
  let live: Fleet | null = null;
  /** The history is in: the homes go live, over MQTT as devices of packages/fleet, or (no wire) reported by the simulator itself. */
  const goLive = async () => {
    if (!wire || !own.size) return sim.start();
    // The last stretch up to the current report, still simulated here, then each home is its device's.
    await sim.tick();
    if (stopped) return;
    const homes = sim.release(new Set(own.keys()));
    const bySerial = new Map<string, ReleasedNode>();
    for (const [id, d] of own) {
      const h = homes.get(id);
      if (h) bySerial.set(d.serial, h);
    }
    live = runFleet({
      devices: [...own.values()].filter((d) => bySerial.has(d.serial)),
      broker: wire.broker,
      intervalS: SIM_INTERVAL_S,
      backupReserve: SIM_BACKUP_RESERVE,
      // A device's troubles (a refused connection while the broker restarts) are its own, not the console's log's.
      log: { info: (m) => log.info(m), warn: (m) => log.debug(m) },
      clock: { now: nowS, delayMs: clockMs },
      homes: new Map(
        [...bySerial].map(([serial, h]) => [
          serial,
          { key: h.model.id, loadScale: h.model.loadScale, socKwh: h.socKwh, ...(h.nextTs ? { nextTs: h.nextTs } : {}) },
        ]),
      ),
      // Each home's internet drops now and then, as the simulator's units did: its device is cut off and keeps its readings.
      online: (serial, ts) => {
        const h = bySerial.get(serial);
        return h ? reporting(h, ts) : false;
      },
    });
    log.info(`The demo's ${bySerial.size} devices report every ${SIM_INTERVAL_S} s over MQTT (${wire.broker})`);
  };
  // The raw readings' pruning and the partitions are the telemetry store's hourly job; the demo's world issues its weather.
  const maintenance = setInterval(() => {
    const t = nowS();
    void publishWeather(ctx.db, t, t + WEATHER_AHEAD_S, t).catch((err) => log.error({ err }, 'weather forecast failed'));
  }, 3600 * 1000);
  void (async () => {
    const started = Date.now();
    let from = now - SIM_HISTORY_DAYS * 86400;
    from -= from % 300;
    const to = now - (now % 300) - 300;
    let samples = 0;
    // The steps still to do: all of a fresh fleet's; after a kill, those after the last one done.
    const steps =
      plan && history ? (await history(plan.from, plan.to)).filter((s) => s.at > (plan?.done ?? 0) && s.at <= (plan?.to ?? 0) && s.at % 300 === 0) : [];
    if (plan && steps.length && !built) log.info(`Resuming the fleet history's ${steps.length} steps after ${new Date(plan.done * 1000).toISOString()}`);
    if (plan) from = Math.min(from, plan.done);
    for (const s of steps.sort((a, b) => a.at - b.at)) {
      // Simulated up to the step (its last bucket ends at `at`), then the step acts as at that time.
      if (s.at > from) samples += await sim.run(from, s.at - 300, 300);
      from = Math.max(from, s.at);
      await s.act().catch((err) => log.error({ err }, 'fleet history step failed'));
      if (plan) await saveHistoryPlan(ctx, { ...plan, done: s.at });
    }
    if (plan) await ctx.db.deleteFrom('settings').where('key', '=', HISTORY_KEY).execute();
    samples += await sim.run(from, to, 300);
    if (samples) log.info(`Fleet history ready: ${samples} samples in ${Math.round((Date.now() - started) / 1000)} s`);
    // The days the backfill wrote after the start's compaction are packed now, not at the next hour's.
    if (samples) {
      const packed = await ctx.telemetry.compact();
      if (packed.days) log.info(`Compacted the telemetry history: ${packed.days} node-days of ${packed.nodes} nodes`);
    }
    if (!stopped) await goLive();
  })().catch((err) => log.error({ err }, 'fleet backfill failed'));
  return {
    simulator: sim,
    /** The devices on the wire, once live. */
    devices: () => live,
    /** Stops it; the devices leave the broker without a word, so their homes stay as they were until the next start. */
    async stop() {
      stopped = true;
      clearInterval(maintenance);
      sim.stop();
      await (live as Fleet | null)?.stop('quiet');
    },
  };
}
