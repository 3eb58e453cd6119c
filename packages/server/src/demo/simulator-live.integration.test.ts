import type { NodeModel } from '@vpp/fleet/physics';
import { sql } from 'kysely';
import { beforeAll, expect, it } from 'vitest';
import { nowS } from '../db/database.ts';
import { commandResponses, sendCommands } from '../devices/index.ts';
import { nodeReports } from '../features/nodes/index.ts';
import { describeEachDatabase } from '../test/harness.ts';
import { buildFleet, type SimParams } from './builder.ts';
import { FleetSimulator, reporting } from './simulator.ts';

const HOUR = 3600;
const LIVE = 30;

describeEachDatabase('fleet simulator going live', (h) => {
  // History up to a 5-minute bucket two hours ago, then live reports, a pause, and live reports again.
  const seam = Math.floor(nowS() / 300) * 300 - 2 * HOUR;
  const from = seam - 6 * HOUR;
  const resumed = seam + 2400;
  const end = seam + 3000;
  const commandAt = end + LIVE;
  let nodes: { id: number; commissioned_at: number | null; battery_kw: number; params: SimParams }[];
  let sim: FleetSimulator;

  const reports = (n: (typeof nodes)[number], ts: number) =>
    reporting({ model: { id: n.id } as NodeModel, params: n.params, commissionedAt: n.commissioned_at === null ? null : Number(n.commissioned_at) }, ts);

  beforeAll(async () => {
    const { db, telemetry } = h().ctx;
    const org = await h().org();
    await buildFleet(db, { count: 80, seed: 11, owners: { retailers: [org], networks: new Map(), installers: [] }, historyDays: 1, now: seam });
    const rows = await db.selectFrom('nodes').select(['id', 'commissioned_at', 'battery_kw', 'sim_json']).orderBy('id').execute();
    nodes = rows.map(({ sim_json, ...r }) => ({ ...r, params: JSON.parse(sim_json) as SimParams }));
    await telemetry.ensurePartitions(from - HOUR, end + HOUR);
    sim = new FleetSimulator(db, telemetry, { intervalS: LIVE, reports: nodeReports(h().ctx) });
    await sim.load();
    await sim.run(from, seam, 300);
    for (let t = seam + 150; t < seam + 900; t += LIVE) await sim.tick(t);
    for (let t = resumed; t < end; t += LIVE) await sim.tick(t);
  });

  it('never counts a second twice, nor skips one, where history meets live reports and after a catch-up', async () => {
    const { db } = h().ctx;
    const rows = await sql<{ node_id: number; ts: number; cov: number }>`select node_id, ts, cov from tel_5m where ts >= ${seam - 600} and ts < ${end}`.execute(
      db,
    );
    const cov = new Map(rows.rows.map((r) => [`${r.node_id}:${Number(r.ts)}`, Number(r.cov)]));
    let full = 0;
    for (const n of nodes) {
      for (let b = seam - 600; b < end; b += 300) {
        const seconds = cov.get(`${n.id}:${b}`) ?? 0;
        expect(seconds, `node ${n.id}, bucket ${b - seam} s after the seam`).toBeLessThanOrEqual(300);
        let upThroughout = true;
        for (let ts = b; ts < b + 300; ts += LIVE) upThroughout &&= reports(n, ts);
        if (upThroughout) {
          expect(seconds, `node ${n.id}, bucket ${b - seam} s after the seam`).toBe(300);
          full++;
        }
      }
    }
    expect(full).toBeGreaterThan(0);
  });

  it('has a command starting at a live report answered and obeyed at that report, by the nodes reporting then only', async () => {
    const { db, telemetry } = h().ctx;
    await sendCommands(
      db,
      nodes.map((n) => ({ nodeId: n.id, start: commandAt, end: commandAt + 600, spec: { kind: 'battery_power' as const, kw: -1 }, source: 'test:live' })),
    );
    await sim.tick(commandAt);
    const byNode = new Map((await commandResponses(db, 'test:live')).map((r) => [r.node_id, r]));
    let obeyed = 0;
    let silent = 0;
    for (const n of nodes) {
      const response = byNode.get(n.id);
      if (!reports(n, commandAt)) {
        expect(response, `node ${n.id}`).toMatchObject({ status: 'PENDING', responded_at: null });
        silent++;
        continue;
      }
      expect(['ACCEPTED', 'OPTED_OUT'], `node ${n.id}`).toContain(response?.status);
      if (response?.status !== 'ACCEPTED' || n.battery_kw === 0) continue;
      const before = await telemetry.nodeSeries(n.id, ['remaining'], commandAt - LIVE, commandAt, LIVE);
      if (((before.get(commandAt - LIVE)?.remaining as number) ?? 0) < 0.05) continue;
      const at = await telemetry.nodeSeries(n.id, ['battery_p'], commandAt, commandAt + 1, LIVE);
      expect(at.get(commandAt)?.battery_p, `node ${n.id}`).toBeCloseTo(-Math.min(1, n.battery_kw), 6);
      obeyed++;
    }
    expect(obeyed).toBeGreaterThan(0);
    expect(silent).toBeGreaterThan(0);
  });
});
