import { beforeAll, expect, it } from 'vitest';
import { nowS } from '../../db/database.ts';
import { FleetSimulator } from '../../demo/simulator.ts';
import { seedFleet } from '../../test/fleet.ts';
import { describeEachDatabase } from '../../test/harness.ts';
import { nodeReports } from '../nodes/index.ts';
import { runOutageEngine, simulatedOptOut } from './outages.orders.service.ts';
import { chargeLeadS, outageSource } from './outages.orders.ts';

// A grid outage prepared on a simulated fleet: the engine sends the orders, the simulator runs up to
// and through the window; the batteries are full at the start and carry the homes while the grid is out.
describeEachDatabase('a grid outage weathered by the simulated fleet', (h) => {
  let id: number;
  let start: number;
  const duration = 7200;
  let batteries: { id: number; battery_usable_kwh: number; battery_kw: number }[] = [];
  let ordered: number[] = [];

  beforeAll(async () => {
    const org = await h().org('RETAILER', 'Sunrise');
    const headers = await h().bearer((await h().user(org)).username);
    const fleet = await seedFleet(h(), { retailer: org, count: 14, seed: 23 });
    const vpp = (
      await h().app.inject({ method: 'POST', url: '/api/powerstations', headers, payload: { type: 'STATIC', name: 'Fleet', nodes: fleet.ids } })
    ).json().data.id;
    // An evening window whatever the hour the test runs (11:00 UTC: 21:00 in Brisbane, 22:00 in
    // Sydney, 19:00 in Perth), past sunset, so the batteries carry the homes; the engine runs six
    // hours before it, more than any battery's charge lead, so the preparation runs in full.
    start = Math.ceil((nowS() + 6 * 3600 - 11 * 3600) / 86400) * 86400 + 11 * 3600;
    const engineAt = start - 6 * 3600;
    const res = await h().app.inject({ method: 'POST', url: '/grid-outage', headers, payload: { powerstation: vpp, startTime: start, duration } });
    expect(res.statusCode, res.body).toBe(200);
    id = res.json().data.id;
    batteries = await h()
      .ctx.db.selectFrom('nodes')
      .select(['id', 'battery_usable_kwh', 'battery_kw'])
      .where('id', 'in', fleet.ids)
      .where('unit_state', '=', 'COMMISSIONED')
      .where('battery_usable_kwh', '>', 0)
      .where('battery_kw', '>', 0)
      .execute();
    expect(batteries.length).toBeGreaterThan(3);
    expect(await runOutageEngine(h().ctx, engineAt)).toEqual([id]);
    expect(await runOutageEngine(h().ctx, engineAt)).toEqual([]);
    ordered = batteries.filter((b) => !simulatedOptOut(b.id, id)).map((b) => b.id);
    const sim = new FleetSimulator(h().ctx.db, h().ctx.telemetry, { intervalS: 30, reports: nodeReports(h().ctx) });
    await h().ctx.telemetry.ensurePartitions(fleet.to, start + 2 * duration);
    await sim.load();
    await sim.run(fleet.to, start + duration - 1, 300);
  }, 240_000);

  it('orders each battery to charge to full from its lead before the start, then the window; none to an opted-out one', async () => {
    const commands = await h()
      .ctx.db.selectFrom('node_commands')
      .select(['node_id', 'kind', 'start_ts', 'end_ts'])
      .where('source', '=', outageSource(id))
      .execute();
    expect([...new Set(commands.map((c) => c.node_id))].sort((a, b) => a - b)).toEqual([...ordered].sort((a, b) => a - b));
    for (const b of batteries.filter((x) => ordered.includes(x.id))) {
      const mine = commands.filter((c) => c.node_id === b.id).sort((x, y) => Number(x.start_ts) - Number(y.start_ts));
      expect(mine.map((c) => [c.kind, Number(c.start_ts), Number(c.end_ts)])).toEqual([
        ['charge_full', start - chargeLeadS(b), start],
        ['grid_outage', start, start + duration],
      ]);
    }
  });

  it('has every ordered battery full at the start', async () => {
    const rows = await h()
      .ctx.db.selectFrom('tel_5m')
      .select(['node_id', 'remaining', 'cov'])
      .where('node_id', 'in', ordered)
      .where('ts', '=', start - 300)
      .execute();
    expect(rows).toHaveLength(ordered.length);
    for (const r of rows) {
      const usable = batteries.find((b) => b.id === r.node_id)?.battery_usable_kwh as number;
      expect(Number(r.remaining) / Number(r.cov), `node ${r.node_id}`).toBeGreaterThanOrEqual(usable * 0.99);
    }
  });

  it('runs each home on solar and battery during the window: meter 0, the battery covering what the solar does not', async () => {
    const rows = await h()
      .ctx.db.selectFrom('tel_5m')
      .select(['node_id', 'ts', 'meter_p', 'battery_p', 'solar_p', 'house_p', 'remaining', 'cov'])
      .where('node_id', 'in', ordered)
      .where('ts', '>=', start)
      .where('ts', '<', start + duration)
      .execute();
    expect(rows.length).toBe((ordered.length * duration) / 300);
    let discharged = 0;
    for (const r of rows) {
      const cov = Number(r.cov);
      const [meter, battery, solar, house] = [r.meter_p, r.battery_p, r.solar_p, r.house_p].map((v) => Number(v) / cov);
      expect(Math.abs(meter), `node ${r.node_id} at ${r.ts}`).toBeLessThan(1e-6);
      // house = solar - battery (battery positive charging): the battery gives what the solar lacks.
      expect(house).toBeCloseTo(solar - battery, 6);
      expect(house).toBeGreaterThan(0);
      if (battery < 0) discharged -= (battery * 300) / 3600;
    }
    expect(discharged).toBeGreaterThan(0.1);
    // The stored energy fell through the window and no battery went below its floor.
    const last = rows.filter((r) => Number(r.ts) === start + duration - 300);
    for (const r of last) expect(Number(r.remaining) / Number(r.cov)).toBeGreaterThanOrEqual(0);
  });

  it('reports the ordered nodes as responded and the simulated opt-outs as cancelled deployments', async () => {
    const username = (await h().ctx.db.selectFrom('users').select('username').orderBy('id', 'desc').executeTakeFirstOrThrow()).username;
    const headers = await h().bearer(username);
    const r = (await h().app.inject({ method: 'GET', url: `/grid-outage/${id}/response`, headers })).json().data;
    expect(r.total_deployments).toBe(batteries.length);
    expect(r.responded).toBe(ordered.length);
    expect(r.total_cancelled_deployments).toBe(batteries.length - ordered.length);
    expect(r.cancelled_deployments.map((c: { deployment_uid: number }) => c.deployment_uid).sort()).toEqual(
      batteries
        .filter((b) => !ordered.includes(b.id))
        .map((b) => b.id)
        .sort(),
    );
  });
});
