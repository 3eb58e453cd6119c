import { beforeAll, describe, expect, it } from 'vitest';
import {
  airTemperature,
  type Command,
  cloudCover,
  frequency,
  type NodeModel,
  ONE_WAY_EFFICIENCY,
  type StepResult,
  solarAvailableKw,
  step,
  voltage,
} from './physics.ts';

const STEP = 300;
const H = STEP / 3600;
const DAY = 86400;
const WEEK = 7 * DAY;

const PLACES = [
  { region: 'NSW1', timezone: 'Australia/Sydney', postcode: '2042', lat: -33.8981, lng: 151.1794 },
  { region: 'NSW1', timezone: 'Australia/Sydney', postcode: '2612', lat: -35.2745, lng: 149.1355 },
  { region: 'VIC1', timezone: 'Australia/Melbourne', postcode: '3065', lat: -37.7984, lng: 144.9784 },
  { region: 'QLD1', timezone: 'Australia/Brisbane', postcode: '4870', lat: -16.9203, lng: 145.771 },
  { region: 'SA1', timezone: 'Australia/Adelaide', postcode: '5067', lat: -34.9213, lng: 138.6306 },
  { region: 'TAS1', timezone: 'Australia/Hobart', postcode: '7005', lat: -42.8979, lng: 147.3241 },
  { region: 'WEM', timezone: 'Australia/Perth', postcode: '6160', lat: -32.0569, lng: 115.7439 },
  { region: 'NT', timezone: 'Australia/Darwin', postcode: '0820', lat: -12.4308, lng: 130.8413 },
];
const BATTERIES = [
  { batteryKwh: 0, batteryKw: 0 },
  { batteryKwh: 7.68, batteryKw: 5 },
  { batteryKwh: 12.8, batteryKw: 6.4 },
  { batteryKwh: 9.1, batteryKw: 4.8 },
];

let nextId = 1;
function model(place: (typeof PLACES)[number], over: Partial<NodeModel> = {}): NodeModel {
  return {
    id: nextId++,
    ...place,
    phases: 1,
    solarKw: 6.6,
    inverterKw: 5,
    batteryKwh: 9.6,
    batteryKw: 5,
    loadScale: 1,
    submeterIds: [],
    ...over,
  };
}

/** 32 households: every place, every battery size (and none), single and three phase, small and large loads. */
const FLEET: NodeModel[] = PLACES.flatMap((place, p) =>
  BATTERIES.map((battery, b) => {
    const threePhase = (p + b) % 3 === 0;
    return model(place, {
      ...battery,
      phases: threePhase ? 3 : 1,
      inverterKw: threePhase ? 10 : 5,
      solarKw: threePhase ? 12.5 : 4 + b * 1.2,
      loadScale: 0.6 + ((p * 4 + b) % 7) * 0.2,
    });
  }),
);

interface Step {
  ts: number;
  socBefore: number;
  r: StepResult;
}

/** Steps a node through [from, from + seconds) from a starting state of charge, as the simulator does. */
function simulate(n: NodeModel, from: number, seconds: number, soc0: number, commands: Command[] = []): Step[] {
  const out: Step[] = [];
  let soc = soc0;
  for (let ts = from; ts < from + seconds; ts += STEP) {
    const r = step(n, ts, STEP, soc, commands);
    out.push({ ts, socBefore: soc, r });
    soc = r.socKwh;
  }
  return out;
}

/** Solar noon (UTC epoch s) of the day holding `ts` at a longitude, within the equation of time (±16 min). */
const solarNoon = (day: number, lng: number) => day * DAY + Math.round((12 - lng / 15) * 3600);
/** Hour of the local solar day (0 to 24) at a longitude. */
const solarHour = (ts: number, lng: number) => ((((ts + (lng / 15) * 3600) % DAY) + DAY) % DAY) / 3600;

/** The `count` days of 2025 (day numbers since the epoch) with the least cloud over the place's daylight. */
function clearestDays(place: { region: string; lng: number }, count: number): { day: number; cloud: number }[] {
  const days: { day: number; cloud: number }[] = [];
  const first = Date.UTC(2025, 0, 1) / 1000 / DAY;
  for (let day = first; day < first + 365; day++) {
    const noon = solarNoon(day, place.lng);
    let cloud = 0;
    for (let t = noon - 6 * 3600; t <= noon + 6 * 3600; t += 600) cloud = Math.max(cloud, cloudCover(place.region, t));
    days.push({ day, cloud });
  }
  return days.sort((a, b) => a.cloud - b.cloud).slice(0, count);
}

/** An assertion cheap enough for every step of a fleet-week. */
function must(ok: boolean, message: string) {
  if (!ok) expect.fail(message);
}

const SUMMER = Date.UTC(2025, 0, 13) / 1000;
const WINTER = Date.UTC(2025, 5, 16) / 1000;

describe('a simulated week of many households', () => {
  let runs: { n: NodeModel; from: number; steps: Step[] }[];
  beforeAll(() => {
    // A summer and a winter week each, starting from various states of charge.
    runs = FLEET.flatMap((n, i) => [SUMMER, WINTER].map((from) => ({ n, from, steps: simulate(n, from, WEEK, n.batteryKwh * ((i % 5) / 4)) })));
  });

  it('balances energy at every step: house = solar + grid − battery', () => {
    for (const { n, steps } of runs) {
      for (const { ts, r } of steps) {
        const error = Math.abs(r.solarKw + r.gridKw - r.batteryKw - r.houseKw);
        must(error <= 0.01 * r.houseKw, `node ${n.id} at ${ts}: house ${r.houseKw} ≠ ${r.solarKw} + ${r.gridKw} − ${r.batteryKw}`);
      }
    }
  });

  it('keeps the state of charge between empty and the usable capacity', () => {
    for (const { n, steps } of runs) {
      for (const { ts, r } of steps) {
        const percent = n.batteryKwh > 0 ? (r.socKwh / n.batteryKwh) * 100 : 0;
        must(r.socKwh >= 0 && r.socKwh <= n.batteryKwh && percent >= 0 && percent <= 100, `node ${n.id} at ${ts}: state of charge ${r.socKwh} kWh`);
      }
    }
  });

  it('moves the state of charge by exactly the energy into or out of the battery, less its losses', () => {
    for (const { n, steps } of runs) {
      for (const { ts, socBefore, r } of steps) {
        const stored = r.batteryKw > 0 ? r.batteryKw * ONE_WAY_EFFICIENCY * H : (r.batteryKw / ONE_WAY_EFFICIENCY) * H;
        must(Math.abs(r.socKwh - socBefore - stored) <= 1e-9, `node ${n.id} at ${ts}: ${socBefore} + ${stored} ≠ ${r.socKwh}`);
      }
    }
  });

  it('never runs the battery beyond its power, and a node without a battery never uses one', () => {
    for (const { n, steps } of runs) {
      for (const { ts, r } of steps) {
        must(Math.abs(r.batteryKw) <= n.batteryKw + 1e-9, `node ${n.id} at ${ts}: battery ${r.batteryKw} kW beyond ${n.batteryKw} kW`);
        if (n.batteryKwh === 0) must(r.batteryKw === 0 && r.socKwh === 0, `node ${n.id} without a battery at ${ts}: ${r.batteryKw} kW`);
      }
    }
  });

  it('generates nothing at night, something at every solar noon, and never more than the inverter allows', () => {
    for (const { n, steps } of runs) {
      let noons = 0;
      for (const { ts, r } of steps) {
        const hour = solarHour(ts, n.lng);
        must(r.solarKw >= 0 && r.solarKw <= n.inverterKw + 1e-9, `node ${n.id} at ${ts}: solar ${r.solarKw} kW`);
        if (hour >= 21 || hour < 3) must(r.sgaKw === 0, `node ${n.id} at solar hour ${hour}: solar ${r.sgaKw} kW at night`);
        if (Math.abs(hour - 12) < 0.05) {
          noons++;
          must(r.solarKw > 0, `node ${n.id} at solar noon ${ts}: no solar`);
        }
      }
      expect(noons).toBeGreaterThanOrEqual(7);
    }
  });

  it('charges the battery from surplus solar and covers the load from it, without a command', () => {
    for (const { n, steps } of runs) {
      if (n.batteryKwh === 0) continue;
      let charged = 0;
      let discharged = 0;
      for (const { ts, socBefore, r } of steps) {
        const at = `node ${n.id} at ${ts}: battery ${r.batteryKw} kW, grid ${r.gridKw} kW, state of charge ${socBefore} kWh`;
        const surplus = r.sgaKw - r.houseKw;
        if (surplus > 0) {
          // Positive battery is charge; the surplus the battery cannot take is exported (negative grid).
          if (socBefore < n.batteryKwh - 1e-9) must(r.batteryKw > 0, at);
          must(r.batteryKw <= surplus + 1e-9 && r.gridKw <= 1e-9, at);
          if (r.batteryKw > 0) charged++;
        } else {
          // Negative battery is discharge, never more than the load: the grid only ever imports.
          if (socBefore > 1e-9) must(r.batteryKw < 0, at);
          must(r.batteryKw >= surplus - 1e-9 && r.gridKw >= -1e-9, at);
          if (r.batteryKw < 0) discharged++;
        }
      }
      expect(charged).toBeGreaterThan(0);
      expect(discharged).toBeGreaterThan(0);
    }
  });

  it('imports when the load exceeds solar, and exports the surplus of a node without a battery', () => {
    for (const { n, steps } of runs.filter((x) => x.n.batteryKwh === 0)) {
      for (const { ts, r } of steps) {
        must(r.solarKw > r.houseKw ? r.gridKw < 0 : r.gridKw >= 0, `node ${n.id} at ${ts}: solar ${r.solarKw}, house ${r.houseKw}, grid ${r.gridKw}`);
      }
      expect(steps.some((s) => s.r.gridKw < 0)).toBe(true);
    }
  });
});

describe('solar generation', () => {
  it('peaks within an hour of solar noon for the longitude on the clearest days, everywhere', () => {
    for (const place of PLACES) {
      // Panels smaller than the inverter, so the peak is not clipped flat.
      const n = model(place, { solarKw: 5, inverterKw: 10 });
      for (const { day, cloud } of clearestDays(place, 3)) {
        expect(cloud, `cloud over ${place.region} on day ${day}`).toBeLessThan(0.2);
        const noon = solarNoon(day, place.lng);
        let peak = { ts: 0, kw: -1 };
        let energy = 0;
        let moment = 0;
        for (let ts = noon - 12 * 3600; ts < noon + 12 * 3600; ts += STEP) {
          const kw = solarAvailableKw(n, ts);
          if (kw > peak.kw) peak = { ts, kw };
          energy += kw;
          moment += kw * (ts - noon);
        }
        expect(Math.abs(peak.ts - noon), `${place.postcode} on day ${day}`).toBeLessThanOrEqual(3600);
        // The day's generation is centred on solar noon too.
        expect(Math.abs(moment / energy), `${place.postcode} on day ${day}`).toBeLessThanOrEqual(1800);
        expect(peak.kw).toBeGreaterThan(1);
      }
    }
  });

  it('is lower under heavy cloud than on a clear day at the same sun', () => {
    const place = PLACES[0];
    const n = model(place, { solarKw: 5, inverterKw: 10 });
    const [clear] = clearestDays(place, 1);
    const noon = solarNoon(clear.day, place.lng);
    // The cloudiest noon of the following weeks, compared with the clear noon.
    let cloudy = noon;
    for (let d = 1; d < 60; d++) if (cloudCover(place.region, noon + d * DAY) > cloudCover(place.region, cloudy)) cloudy = noon + d * DAY;
    expect(cloudCover(place.region, cloudy)).toBeGreaterThan(0.5);
    expect(solarAvailableKw(n, cloudy)).toBeLessThan(solarAvailableKw(n, noon) * 0.8);
  });
});

describe('commands', () => {
  const sydney = PLACES[0];
  const [clear] = clearestDays(sydney, 1);
  const noon = solarNoon(clear.day, sydney.lng);
  const align = (t: number) => t - (t % STEP);
  const night = align(noon + 12 * 3600);
  const middayStart = align(noon - 2 * 3600);

  it('charges at +3 kW as commanded until the battery is full, then stops', () => {
    const n = model(sydney, { batteryKwh: 9.6, batteryKw: 5 });
    const cmd: Command = { kind: 'battery_power', start: night, end: night + 4 * 3600, kw: 3 };
    const steps = simulate(n, night, 5 * 3600, 0, [cmd]);
    let atPower = 0;
    for (const { ts, socBefore, r } of steps) {
      if (ts >= cmd.end) continue;
      if (socBefore + 3 * ONE_WAY_EFFICIENCY * H <= n.batteryKwh) {
        expect(r.batteryKw).toBeCloseTo(3, 9);
        // At night the charge comes from the grid.
        expect(r.gridKw).toBeCloseTo(r.houseKw + 3 - r.solarKw, 9);
        atPower++;
      } else {
        expect(r.batteryKw).toBeLessThan(3);
        expect(r.socKwh).toBeCloseTo(n.batteryKwh, 9);
      }
    }
    expect(atPower).toBe(Math.floor(n.batteryKwh / (3 * ONE_WAY_EFFICIENCY * H)));
    expect(steps.filter((s) => s.ts < cmd.end).at(-1)?.r.socKwh).toBeCloseTo(n.batteryKwh, 9);
  });

  it('discharges at −3 kW as commanded, even with solar to spare, until the battery is empty', () => {
    const n = model(sydney, { batteryKwh: 9.6, batteryKw: 5, solarKw: 6.6, inverterKw: 5 });
    const cmd: Command = { kind: 'battery_power', start: middayStart, end: middayStart + 4 * 3600, kw: -3 };
    const steps = simulate(n, middayStart, 4 * 3600, n.batteryKwh, [cmd]);
    let atPower = 0;
    for (const { socBefore, r } of steps) {
      if (socBefore - (3 / ONE_WAY_EFFICIENCY) * H >= 0) {
        expect(r.batteryKw).toBeCloseTo(-3, 9);
        atPower++;
      } else {
        expect(r.batteryKw).toBeGreaterThan(-3);
        expect(r.socKwh).toBeCloseTo(0, 9);
      }
    }
    expect(atPower).toBe(Math.floor(n.batteryKwh / ((3 / ONE_WAY_EFFICIENCY) * H)));
    expect(steps.at(-1)?.r.socKwh).toBeCloseTo(0, 9);
  });

  it('keeps the backup reserve through the night on its own use, and gives it up to an order', () => {
    const n = model(sydney, { batteryKwh: 10, batteryKw: 5, backupReserveKwh: 2 });
    // A night on its own: the battery covers the home down to its reserve, then the grid does.
    const own = simulate(n, night, 5 * 3600, 2.5);
    for (const { r } of own) {
      expect(r.socKwh).toBeGreaterThanOrEqual(2 - 1e-9);
      expect(r.houseKw).toBeCloseTo(r.solarKw + r.gridKw - r.batteryKw, 9);
    }
    expect(own.at(-1)?.r.socKwh).toBeCloseTo(2, 9);
    expect(own.at(-1)?.r.gridKw).toBeGreaterThan(0);
    // An order to discharge goes below it, to empty.
    const cmd: Command = { kind: 'battery_power', start: night, end: night + 4 * 3600, kw: -3 };
    const ordered = simulate(n, night, 4 * 3600, 2, [cmd]);
    expect(ordered[0].r.batteryKw).toBeCloseTo(-3, 9);
    expect(ordered.at(-1)?.r.socKwh).toBeCloseTo(0, 9);
  });

  it('clamps a command beyond the battery power to its limit', () => {
    const n = model(sydney, { batteryKwh: 12.8, batteryKw: 4.8 });
    const charge = simulate(n, night, 3600, 0, [{ kind: 'battery_power', start: night, end: night + 3600, kw: 8 }]);
    for (const { r } of charge) expect(r.batteryKw).toBeCloseTo(4.8, 9);
    const discharge = simulate(n, night, 3600, n.batteryKwh, [{ kind: 'battery_power', start: night, end: night + 3600, kw: -8 }]);
    for (const { r } of discharge) expect(r.batteryKw).toBeCloseTo(-4.8, 9);
  });

  it('does nothing for a node without a battery', () => {
    const n = model(sydney, { batteryKwh: 0, batteryKw: 0 });
    for (const command of [
      { kind: 'battery_power', start: night, end: night + 3600, kw: -3 },
      { kind: 'charge_full', start: night, end: night + 3600 },
    ] as Command[]) {
      for (const { r } of simulate(n, night, 3600, 0, [command])) {
        expect(r.batteryKw).toBe(0);
        expect(r.gridKw).toBeCloseTo(r.houseKw - r.solarKw, 9);
      }
    }
  });

  it('returns to self-consumption when the command ends', () => {
    const n = model(sydney, { batteryKwh: 9.6, batteryKw: 5 });
    const cmd: Command = { kind: 'battery_power', start: night, end: night + 3600, kw: 2 };
    const steps = simulate(n, night, 2 * 3600, 4, [cmd]);
    for (const { ts, r } of steps) {
      if (ts < cmd.end) expect(r.batteryKw).toBeCloseTo(2, 9);
      // No sun: the battery covers the load.
      else expect(r.batteryKw).toBeCloseTo(-r.houseKw, 9);
    }
  });

  it('curtails solar so that net export never exceeds the limit', () => {
    for (const battery of [BATTERIES[0], { batteryKwh: 9.6, batteryKw: 5 }]) {
      const n = model(sydney, { ...battery, solarKw: 13, inverterKw: 10, loadScale: 0.6 });
      for (const limit of [0, 1.5]) {
        const cmd: Command = { kind: 'export_limit', start: middayStart, end: middayStart + 4 * 3600, kw: limit, mode: 'net' };
        const steps = simulate(n, middayStart, 4 * 3600, n.batteryKwh, [cmd]);
        let curtailed = 0;
        for (const { r } of steps) {
          expect(-r.gridKw).toBeLessThanOrEqual(limit + 1e-9);
          expect(r.solarKw).toBeLessThanOrEqual(r.sgaKw + 1e-9);
          if (r.solarKw < r.sgaKw - 1e-9) {
            curtailed++;
            // Curtailed to the limit, not below it.
            expect(-r.gridKw).toBeCloseTo(limit, 9);
          }
        }
        expect(curtailed, `limit ${limit} with battery ${battery.batteryKwh}`).toBeGreaterThan(0);
      }
    }
  });

  it('keeps net export within the limit even while a battery discharge is commanded', () => {
    const n = model(sydney, { batteryKwh: 9.6, batteryKw: 5, solarKw: 6.6, loadScale: 0.6 });
    const start = middayStart;
    const commands: Command[] = [
      { kind: 'battery_power', start, end: start + 2 * 3600, kw: -4 },
      { kind: 'export_limit', start, end: start + 2 * 3600, kw: 1, mode: 'net' },
    ];
    for (const { socBefore, r } of simulate(n, start, 2 * 3600, n.batteryKwh, commands)) {
      expect(-r.gridKw).toBeLessThanOrEqual(1 + 1e-9);
      expect(r.solarKw + r.gridKw - r.batteryKw).toBeCloseTo(r.houseKw, 9);
      expect(r.socKwh - socBefore).toBeCloseTo((r.batteryKw / ONE_WAY_EFFICIENCY) * H, 9);
    }
  });

  it('treats a negative net limit as no export at all, never generating more than the sun allows', () => {
    const n = model(sydney, { batteryKwh: 0, batteryKw: 0, solarKw: 6.6 });
    const cmd: Command = { kind: 'export_limit', start: night - DAY, end: night, kw: -1, mode: 'net' };
    for (const { r } of simulate(n, night - DAY, DAY, 0, [cmd])) {
      expect(r.solarKw).toBeLessThanOrEqual(r.sgaKw + 1e-9);
      expect(r.gridKw).toBeGreaterThanOrEqual(-1e-9);
    }
  });

  it('caps solar generation at a gross limit', () => {
    const n = model(sydney, { batteryKwh: 0, batteryKw: 0, solarKw: 13, inverterKw: 10 });
    const cmd: Command = { kind: 'export_limit', start: middayStart, end: middayStart + 4 * 3600, kw: 2, mode: 'gross' };
    const steps = simulate(n, middayStart, 4 * 3600, 0, [cmd]);
    for (const { r } of steps) {
      expect(r.solarKw).toBeLessThanOrEqual(2 + 1e-9);
      expect(r.solarKw).toBeCloseTo(Math.min(r.sgaKw, 2), 9);
    }
    expect(steps.every((s) => s.r.sgaKw > 2)).toBe(true);
  });

  it('lets the most restrictive of several limits win, and an event limit set the standing ones aside (CSIP-AUS)', () => {
    const n = model(sydney, { batteryKwh: 0, batteryKw: 0, solarKw: 13, inverterKw: 10 });
    const end = middayStart + 2 * 3600;
    const standing: Command[] = [
      { kind: 'export_limit', start: middayStart - 3600, end, kw: 1, mode: 'gross', standing: true },
      { kind: 'export_limit', start: middayStart - 3600, end, kw: 3, mode: 'gross', standing: true },
    ];
    for (const { r } of simulate(n, middayStart, 3600, 0, standing)) expect(r.solarKw).toBeCloseTo(Math.min(r.sgaKw, 1), 9);
    // A net event: the standing gross limits no longer apply, only the event's export limit.
    const event: Command = { kind: 'export_limit', start: middayStart, end, kw: 2, mode: 'net' };
    let above = 0;
    for (const { r } of simulate(n, middayStart, 3600, 0, [...standing, event])) {
      expect(-r.gridKw).toBeLessThanOrEqual(2 + 1e-9);
      if (r.solarKw > 1 + 1e-6) above++;
    }
    expect(above).toBeGreaterThan(0);
  });

  it('ramps a standing limit linearly from its previous value over its ramp duration (setGradW)', () => {
    const n = model(sydney, { batteryKwh: 0, batteryKw: 0, solarKw: 13, inverterKw: 10 });
    const cmd: Command = {
      kind: 'export_limit',
      start: middayStart,
      end: middayStart + 7200,
      kw: 1,
      mode: 'gross',
      standing: true,
      rampS: 1800,
      rampFromKw: 7,
    };
    for (const { ts, r } of simulate(n, middayStart, 3600, 0, [cmd])) {
      const cap = ts >= middayStart + 1800 ? 1 : 7 + (1 - 7) * ((ts - middayStart) / 1800);
      expect(r.solarKw, `${ts}`).toBeCloseTo(Math.min(r.sgaKw, cap), 9);
    }
  });

  it('under a net limit charges the battery with the surplus first, curtailing solar only when it is full or at its power limit', () => {
    const n = model(sydney, { batteryKwh: 9.6, batteryKw: 2, solarKw: 10, inverterKw: 10, loadScale: 0.6 });
    const cmd: Command = { kind: 'export_limit', start: middayStart, end: middayStart + 4 * 3600, kw: 0.5, mode: 'net' };
    let curtailed = 0;
    for (const { r } of simulate(n, middayStart, 4 * 3600, 2, [cmd])) {
      expect(-r.gridKw).toBeLessThanOrEqual(0.5 + 1e-9);
      expect(r.solarKw + r.gridKw - r.batteryKw).toBeCloseTo(r.houseKw, 9);
      if (r.solarKw < r.sgaKw - 1e-9) {
        curtailed++;
        expect(r.batteryKw >= 2 - 1e-9 || r.socKwh >= 9.6 - 1e-9).toBe(true);
      }
    }
    expect(curtailed).toBeGreaterThan(0);
  });

  it('under an import limit (opModImpLimW) stops charging from the grid first, then discharges to hold the import, down to its backup reserve', () => {
    const n = model(sydney, { batteryKwh: 12.8, batteryKw: 5, backupReserveKwh: 2.56, loadScale: 1.4 });
    const window = { start: night, end: night + 3 * 3600 };
    // A network's limit of 1 kW over a retailer's order to charge at 4 kW from the grid.
    const charging = simulate(n, night, 3 * 3600, 4, [
      { kind: 'battery_power', ...window, kw: 4 },
      { kind: 'import_limit', ...window, kw: 1 },
    ]);
    for (const { r } of charging) {
      expect(r.gridKw).toBeCloseTo(1, 9);
      // Charging less by what the limit takes: the house, then 1 kW of import left for the battery.
      expect(r.batteryKw).toBeCloseTo(1 - r.houseKw, 9);
      expect(r.solarKw + r.gridKw - r.batteryKw).toBeCloseTo(r.houseKw, 9);
    }
    // A hold (0 kW) under a limit of 0.2 kW: the battery discharges to cover the load above it, until its reserve.
    const held = simulate(n, night, 12 * 3600, 3.2, [
      { kind: 'battery_power', start: night, end: night + 12 * 3600, kw: 0 },
      { kind: 'import_limit', start: night, end: night + 12 * 3600, kw: 0.2 },
    ]);
    let discharged = 0;
    let atReserve = 0;
    for (const { socBefore, r } of held) {
      expect(r.batteryKw).toBeLessThanOrEqual(1e-9);
      expect(r.socKwh).toBeGreaterThanOrEqual(2.56 - 1e-9);
      expect(r.socKwh - socBefore).toBeCloseTo((r.batteryKw / ONE_WAY_EFFICIENCY) * H, 9);
      if (r.gridKw <= 0.2 + 1e-9) {
        if (r.batteryKw < -1e-9) discharged++;
      } else {
        // Beyond the limit only when the battery has reached its reserve (or its power rating).
        expect(r.socKwh <= 2.56 + 1e-6 || r.batteryKw <= -5 + 1e-9).toBe(true);
        atReserve++;
      }
    }
    expect(discharged).toBeGreaterThan(0);
    expect(atReserve).toBeGreaterThan(0);
    // Without a battery the limit changes nothing: the house imports what it uses.
    const none = model(sydney, { batteryKwh: 0, batteryKw: 0, loadScale: 1.4 });
    for (const { r } of simulate(none, night, 3600, 0, [{ kind: 'import_limit', start: night, end: night + 3600, kw: 0.2 }]))
      expect(r.gridKw).toBeCloseTo(r.houseKw - r.solarKw, 9);
  });

  it('charges at full power until full on charge_full, from the grid at night', () => {
    const n = model(sydney, { batteryKwh: 12.8, batteryKw: 6.4 });
    const cmd: Command = { kind: 'charge_full', start: night, end: night + 3 * 3600 };
    const steps = simulate(n, night, 3 * 3600, 1, [cmd]);
    let full = false;
    for (const { socBefore, r } of steps) {
      if (socBefore + 6.4 * ONE_WAY_EFFICIENCY * H <= n.batteryKwh) {
        expect(r.batteryKw).toBeCloseTo(6.4, 9);
        expect(r.gridKw).toBeGreaterThan(6.4 - r.solarKw);
      } else {
        expect(r.socKwh).toBeCloseTo(n.batteryKwh, 9);
        full = true;
      }
      // Once full it holds the charge rather than covering the load.
      if (socBefore >= n.batteryKwh - 1e-9) expect(r.batteryKw).toBeCloseTo(0, 9);
    }
    expect(full).toBe(true);
  });
});

describe('the grid connection', () => {
  it('sees voltage rise with export and fall with import', () => {
    const n = model(PLACES[2]);
    const ts = SUMMER + 3 * 3600;
    for (const phase of [0, 1, 2]) {
      expect(voltage(n, ts, -5, phase)).toBeGreaterThan(voltage(n, ts, 0, phase));
      expect(voltage(n, ts, 0, phase)).toBeGreaterThan(voltage(n, ts, 5, phase));
    }
    for (let t = SUMMER; t < SUMMER + DAY; t += STEP) {
      const v = voltage(n, t, 0, 0);
      expect(v).toBeGreaterThan(225);
      expect(v).toBeLessThan(250);
    }
  });

  it('keeps frequency close to 50 Hz', () => {
    for (const place of PLACES) {
      for (let t = WINTER; t < WINTER + DAY; t += 30) {
        const f = frequency(place.region, t);
        expect(Math.abs(f - 50)).toBeLessThanOrEqual(0.1);
      }
    }
  });
});

describe('a grid outage window (islanded home)', () => {
  const home: NodeModel = {
    id: 7,
    lat: -33.9,
    lng: 151.2,
    region: 'NSW1',
    postcode: '2000',
    timezone: 'Australia/Sydney',
    phases: 1,
    solarKw: 6.6,
    inverterKw: 5,
    batteryKwh: 13.5,
    batteryKw: 5,
    loadScale: 1,
    submeterIds: [],
  };
  // 7 pm in Sydney: no sun, the evening peak.
  const evening = Date.UTC(2026, 5, 1, 9, 0, 0) / 1000;
  const window = [{ kind: 'grid_outage' as const, start: evening - 3600, end: evening + 3600 }];

  it('reads 0 at the meter and runs the house from the battery while it has energy', () => {
    const r = step(home, evening, 300, 10, window);
    expect(r.gridKw).toBe(0);
    expect(r.solarKw).toBe(0);
    expect(r.houseKw).toBeGreaterThan(0);
    expect(r.batteryKw).toBeCloseTo(-r.houseKw, 9);
    expect(r.socKwh).toBeLessThan(10);
  });

  it('leaves the house dark once the battery is at its floor, still importing nothing', () => {
    const r = step(home, evening, 300, 0, window);
    expect(r).toMatchObject({ gridKw: 0, houseKw: 0, batteryKw: 0, socKwh: 0 });
  });
});

describe('air temperature (the ticker’s HIGH_TEMP)', () => {
  const at = (place: (typeof PLACES)[number], month: number, day: number, utcHour: number) => airTemperature(place, Date.UTC(2026, month, day, utcHour) / 1000);
  /** Every hour of a month at a place. */
  const month = (place: (typeof PLACES)[number], m: number) => Array.from({ length: 30 * 24 }, (_, k) => at(place, m, 1 + Math.floor(k / 24), k % 24));
  const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
  const [newtown, , melbourne, , , hobart, , darwin] = PLACES;

  it('is warmer in January than in July away from the tropics, and warmer nearer the equator', () => {
    for (const p of [newtown, melbourne, hobart]) expect(mean(month(p, 0)) - mean(month(p, 6))).toBeGreaterThan(6);
    expect(mean(month(darwin, 6))).toBeGreaterThan(mean(month(hobart, 6)) + 10);
  });

  it('peaks in the afternoon and is coolest before dawn, within what Australia sees', () => {
    // Melbourne in January: 15:00 local (AEDT, UTC+11) is 04:00 UTC; 05:00 local is 18:00 UTC the day before.
    const afternoons = Array.from({ length: 28 }, (_, d) => at(melbourne, 0, 2 + d, 4));
    const dawns = Array.from({ length: 28 }, (_, d) => at(melbourne, 0, 1 + d, 18));
    expect(mean(afternoons)).toBeGreaterThan(mean(dawns) + 6);
    const all = PLACES.flatMap((p) => [...month(p, 0), ...month(p, 6)]);
    expect(Math.min(...all)).toBeGreaterThan(-8);
    expect(Math.max(...all)).toBeLessThan(48);
  });
});
