import { nowS } from '../db/database.ts';
import { buildFleet } from '../demo/builder.ts';
import { FleetSimulator } from '../demo/simulator.ts';
import { publishWeather, WEATHER_AHEAD_S } from '../demo/weather.ts';
import { nodeReports } from '../features/nodes/index.ts';
import type { Harness } from './harness.ts';

/** Where a test fleet's history ends (a 5-minute boundary) and begins. */
export interface FleetWindow {
  from: number;
  to: number;
}

/**
 * Builds `count` nodes into the retailer's fleet (and the installer's, when given), and simulates
 * their history at 5 minutes for `days` up to now, with the world's weather over it and the week
 * ahead: the nodes and data the routes answer about. Without the fleet's rare outages (SIM_OUTAGES=false):
 * a unit's outage starts at an hour its id and the day decide, so a test's event or window met one at
 * some hours of some days only (the dispatch delivered by the simulated fleet, at 16:29 UTC on 29
 * November); the outages have tests of their own (demo/simulator.integration.test.ts).
 */
export async function seedFleet(
  h: Harness,
  opts: { retailer: number; installer?: number; count: number; seed: number },
  more: { retailer: number; count: number; seed: number }[] = [],
  days = 1,
): Promise<FleetWindow & { ids: number[] }> {
  const to = Math.floor(nowS() / 300) * 300;
  const from = to - days * 86400;
  const { db, telemetry } = h.ctx;
  const ids = await buildFleet(db, {
    count: opts.count,
    seed: opts.seed,
    owners: { retailers: [opts.retailer], networks: new Map(), installers: opts.installer ? [opts.installer] : [] },
    historyDays: days + 2,
    now: to,
    outages: false,
  });
  const reports = nodeReports(h.ctx);
  await reports.joined(ids);
  for (const m of more) {
    const theirs = await buildFleet(db, {
      count: m.count,
      seed: m.seed,
      owners: { retailers: [m.retailer], networks: new Map(), installers: [] },
      historyDays: days + 2,
      now: to,
      outages: false,
    });
    await reports.joined(theirs);
  }
  await telemetry.ensurePartitions(from - 86400, to + 86400);
  await publishWeather(db, from - 86400, to + WEATHER_AHEAD_S, to);
  const sim = new FleetSimulator(db, telemetry, { intervalS: 30, reports });
  await sim.load();
  await sim.run(from, to, 300);
  return { ids, from, to };
}
