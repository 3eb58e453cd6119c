import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { FleetSimulator } from '../../demo/simulator.ts';
import { type FleetWindow, seedFleet } from '../../test/fleet.ts';
import { describeEachDatabase } from '../../test/harness.ts';
import { nodeReports } from '../nodes/index.ts';

// The prediction measured against what the simulated fleet then does: a VPP of 40 simulated homes
// with a week of history is forecast for the next 24 hours, the simulator runs those 24 hours, and
// the forecast's hourly sums are compared with the telemetry's. The forecast knows only what the
// console knows: each home's measured history and the weather service's cloud forecast (whose
// error grows with the lead time), not the simulator's physics, households or weather.
describeEachDatabase('prediction against the simulated fleet', (h) => {
  let window: FleetWindow & { ids: number[] };
  let headers: { authorization: string };
  let vpp: number;
  type Point = { solarPower: number; housePower: number; batteryPower: number; meterPower: number; remainingCharge: number };
  let predicted: Record<string, Point>;
  let reporting: number;
  let forecastError: Record<string, number>;
  let actual: Map<number, Point>;

  beforeAll(async () => {
    const org = await h().org('RETAILER', 'Forecast Energy');
    headers = await h().bearer((await h().user(org)).username);
    window = await seedFleet(h(), { retailer: org, count: 40, seed: 11 }, [], 7);
    const res = await h().app.inject({ method: 'POST', url: '/api/powerstations', headers, payload: { type: 'STATIC', name: 'All', nodes: window.ids } });
    vpp = res.json().data.id;
    const prediction = await h().app.inject({ method: 'GET', url: `/api/powerstations/${vpp}/predictions?start=${window.to}`, headers });
    expect(prediction.statusCode, prediction.body).toBe(200);
    predicted = prediction.json().data.prediction;
    reporting = prediction.json().data.deployments;
    forecastError = prediction.json().data.forecastError;
    // The nodes the forecast counted: those reporting when it was made.
    const counted = (
      await h()
        .ctx.db.selectFrom('tel_latest')
        .select('node_id')
        .where('ts', '>=', window.to - 900)
        .where('node_id', 'in', window.ids)
        .execute()
    ).map((r) => r.node_id);
    const sim = new FleetSimulator(h().ctx.db, h().ctx.telemetry, { intervalS: 30, reports: nodeReports(h().ctx) });
    await sim.load();
    await h().ctx.telemetry.ensurePartitions(window.to, window.to + 2 * 86400);
    await sim.run(window.to, window.to + 86400 - 1, 300, (id) => counted.includes(id));
    const rows = await sql<{ ts: number; solar: number; house: number; battery: number; meter: number; remaining: number }>`
      select ts, sum(solar_p / nullif(cov, 0)) as solar, sum(house_p / nullif(cov, 0)) as house, sum(battery_p / nullif(cov, 0)) as battery,
        sum(meter_p / nullif(cov, 0)) as meter, sum(remaining / nullif(cov, 0)) as remaining
      from tel_5m where node_id in (${sql.join(counted)}) and ts >= ${window.to} and ts < ${window.to + 86400} group by ts`.execute(h().ctx.db);
    actual = new Map(
      rows.rows.map((r) => [
        Number(r.ts),
        {
          solarPower: Number(r.solar),
          housePower: Number(r.house),
          batteryPower: Number(r.battery),
          meterPower: Number(r.meter),
          remainingCharge: Number(r.remaining),
        },
      ]),
    );
  }, 120_000);

  /** Hourly mean absolute error of a metric, as a share of the mean absolute value the fleet showed. */
  const hourlyError = (metric: keyof Point) => {
    let err = 0;
    let size = 0;
    for (let hour = window.to; hour < window.to + 86400; hour += 3600) {
      let p = 0;
      let a = 0;
      for (let t = hour; t < hour + 3600; t += 300) {
        p += predicted[t][metric];
        a += actual.get(t)?.[metric] ?? 0;
      }
      err += Math.abs(p - a) / 12;
      size += Math.abs(a) / 12;
    }
    return err / size;
  };
  /** The day's energy of a metric, predicted over shown, less one. */
  const energyError = (metric: keyof Point) => {
    let p = 0;
    let a = 0;
    for (let t = window.to; t < window.to + 86400; t += 300) {
      p += predicted[t][metric];
      a += actual.get(t)?.[metric] ?? 0;
    }
    return p / a - 1;
  };

  it('tracks the forecast’s error on the homes’ previous day at 5 minutes, the VPP’s and home by home', () => {
    // Measured at seed 11: the VPP's net demand 0.72 kW off at the median interval (1.2 % of its mean),
    // a home's 0.084 kW (13.5 % of its mean load: the simulated households' own 5-minute noise is a
    // uniform ±25 %, whose median alone is 12.5 %).
    expect(forecastError.end - forecastError.start).toBe(86_400);
    expect(forecastError.intervals).toBe(288);
    expect(forecastError.medianAbsoluteErrorKw).toBeGreaterThan(0);
    expect(forecastError.relativeErrorPercent).toBeLessThan(10);
    expect(forecastError.homeMedianAbsoluteErrorKw).toBeGreaterThan(0);
    expect(forecastError.homeRelativeErrorPercent).toBeLessThan(25);
  });

  describe('the next 24 hours', () => {
    it('counts the reporting nodes', () => {
      expect(reporting).toBeGreaterThan(30);
      expect(actual.size).toBe(288);
    });

    // Measured at seed 11 (27 November, 15:45 UTC): hourly errors of 1.9% (solar), 0.8% (house),
    // 1.6% (battery), 2.9% (meter) and 0.7% (stored energy); the day's energy 1.8% off for solar,
    // 0.4% for the house. (With the simulator's own weather and households, as before issue 28, they
    // were 0.0 to 1.2% and 0.0 to 0.8%: perfect foresight.) The bounds leave room for a cloudier day.
    it('predicts every metric hour by hour within 8% of what the fleet then shows, and the day’s energy within 5%', () => {
      for (const m of ['solarPower', 'housePower', 'batteryPower', 'meterPower', 'remainingCharge'] as const) expect(hourlyError(m), m).toBeLessThan(0.08);
      for (const m of ['solarPower', 'housePower'] as const) expect(Math.abs(energyError(m)), m).toBeLessThan(0.05);
    });
  });
});
