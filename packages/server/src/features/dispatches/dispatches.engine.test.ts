import { describe, expect, it } from 'vitest';
import type { ExpectedPower } from '../../forecast/index.ts';
import { type AllocNode, allocate, type ForecastNode, forecast, sustainableKw } from './dispatches.engine.ts';

// Hand-computed cases. Efficiency is 0.95 each way: a battery delivers (stored − reserve) × 0.95 kWh
// at its meter, and absorbs (usable − stored) ÷ 0.95 kWh.
const t0 = 1_800_000_000;
/** 3.8 kWh to give above its reserve: (5 − 1) × 0.95. */
const small: AllocNode = { id: 1, maxKw: 5, usableKwh: 10, reserveKwh: 1, socKwh: 5 };
/** 15.2 kWh to give: (18 − 2) × 0.95. */
const large: AllocNode = { id: 2, maxKw: 5, usableKwh: 20, reserveKwh: 2, socKwh: 18 };
/** Room for 2 kWh: (10 − 8.1) ÷ 0.95. */
const nearlyFull: AllocNode = { id: 3, maxKw: 5, usableKwh: 10, reserveKwh: 1, socKwh: 8.1 };

describe('allocation of a dispatch among batteries', () => {
  const discharge = { start: t0, duration: 7200, realPowerP: -6 };

  it('greedy: each node gives its share at full rate, the short one stops early with a partial step, then holds at 0 kW', () => {
    const a = allocate([small, large], discharge, 'greedy');
    // Shares in proportion to the power limits: 3 kW each. The small battery's 3.8 kWh last
    // 15 steps at 3 kW (3.75 kWh) and 0.05 kWh more: 0.6 kW for one step.
    expect(a.nodes).toEqual([
      {
        nodeId: 1,
        shareKw: -3,
        energyKwh: expect.closeTo(-3.8, 9),
        intervals: [
          { start: t0, end: t0 + 4500, kw: -3 },
          { start: t0 + 4500, end: t0 + 4800, kw: -0.6 },
          { start: t0 + 4800, end: t0 + 7200, kw: 0 },
        ],
      },
      { nodeId: 2, shareKw: -3, energyKwh: -6, intervals: [{ start: t0, end: t0 + 7200, kw: -3 }] },
    ]);
    expect(a.steps).toHaveLength(24);
    expect(a.steps[0]).toEqual({ start: t0, end: t0 + 300, allocatedKw: -6, unallocatedKw: 0 });
    expect(a.steps[14].allocatedKw).toBe(-6);
    expect(a.steps[15].allocatedKw).toBeCloseTo(-3.6, 9);
    expect(a.steps[16]).toEqual({ start: t0 + 4800, end: t0 + 5100, allocatedKw: -3, unallocatedKw: -3 });
    // 0.2 kWh short in the partial step, 3 kW short for the last 40 minutes.
    expect(a.unallocatedKwh).toBeCloseTo(-2.2, 9);
  });

  it('uniform: each node gives the one power that lasts the whole duration, below its share when its energy is short', () => {
    const a = allocate([small, large], discharge, 'uniform');
    // The small battery: 3.8 kWh over 2 h is 1.9 kW; the large one can hold its 3 kW share.
    expect(a.nodes.map((n) => n.intervals)).toEqual([[{ start: t0, end: t0 + 7200, kw: -1.9 }], [{ start: t0, end: t0 + 7200, kw: -3 }]]);
    expect(a.steps.every((s) => s.allocatedKw === -4.9)).toBe(true);
    expect(a.steps[23]).toEqual({ start: t0 + 6900, end: t0 + 7200, allocatedKw: -4.9, unallocatedKw: expect.closeTo(-1.1, 9) });
    expect(a.unallocatedKwh).toBeCloseTo(-2.2, 9);
  });

  it('charges up to each battery’s room: greedy fills at the share, uniform spreads it over the duration', () => {
    const charge = { start: t0, duration: 3600, realPowerP: 4 };
    // 2 kWh of room at 4 kW: 30 minutes.
    expect(allocate([nearlyFull], charge, 'greedy').nodes[0].intervals).toEqual([
      { start: t0, end: t0 + 1800, kw: 4 },
      { start: t0 + 1800, end: t0 + 3600, kw: 0 },
    ]);
    expect(allocate([nearlyFull], charge, 'uniform').nodes[0].intervals).toEqual([{ start: t0, end: t0 + 3600, kw: 2 }]);
  });

  it('leaves a request beyond the summed power limits unallocated', () => {
    const a = allocate([small, large], { start: t0, duration: 600, realPowerP: -25 }, 'greedy');
    expect(a.nodes.map((n) => n.shareKw)).toEqual([-5, -5]);
    expect(a.steps).toEqual([
      { start: t0, end: t0 + 300, allocatedKw: -10, unallocatedKw: -15 },
      { start: t0 + 300, end: t0 + 600, allocatedKw: -10, unallocatedKw: -15 },
    ]);
  });

  it('locks every battery out at 0 kW for a 0 kW request, and ends a duration off the 5-minute grid with a short step', () => {
    const a = allocate([small, large], { start: t0, duration: 450, realPowerP: 0 }, 'greedy');
    expect(a.nodes.map((n) => n.intervals)).toEqual([[{ start: t0, end: t0 + 450, kw: 0 }], [{ start: t0, end: t0 + 450, kw: 0 }]]);
    expect(a.steps.map((s) => [s.start, s.end])).toEqual([
      [t0, t0 + 300],
      [t0 + 300, t0 + 450],
    ]);
  });

  it('gives nothing from a battery at or below its reserve', () => {
    const empty = { ...small, socKwh: 0.5 };
    expect(allocate([empty], discharge, 'greedy').nodes[0].intervals).toEqual([{ start: t0, end: t0 + 7200, kw: 0 }]);
    expect(sustainableKw(empty, -1, 7200)).toBe(0);
  });

  it('sustains less power over a longer duration', () => {
    // 3.8 kWh: the full 5 kW for up to 45.6 minutes, 1.9 kW over 2 h, 0.95 kW over 4 h.
    expect(sustainableKw(small, -1, 1800)).toBe(5);
    expect(sustainableKw(small, -1, 7200)).toBeCloseTo(1.9, 9);
    expect(sustainableKw(small, -1, 14400)).toBeCloseTo(0.95, 9);
  });
});

describe('forecast of a VPP day', () => {
  // 1 am to 5 am in Sydney (UTC+11 in summer): no sun, the battery covers the house.
  const night = Date.UTC(2026, 0, 15, 14, 0, 0) / 1000;
  const home: ForecastNode = { id: 7, solarKw: 6.6, inverterKw: 5, usableKwh: 10, batteryKw: 5, socKwh: 8 };
  // What the console's forecast expects of the home at night: no sun, a steady household.
  const dark: ExpectedPower = { solarKw: () => 0, houseKw: () => 0.6 };

  it('self-consumes at night: the battery covers the house, the meter imports nothing, the stored energy falls', () => {
    const f = forecast([home], { from: night, dayStart: night }, dark);
    const first = f.prediction[night];
    expect(first.solarPower).toBe(0);
    expect(first.batteryPower).toBe(-(first.housePower as number));
    expect(first.meterPower).toBe(0);
    expect(first.remainingCharge).toBeLessThan(8);
    expect(Object.keys(f.prediction)).toHaveLength(288);
    expect(f.adjustedPrediction).toBeNull();
  });

  it('applies a dispatch through the allocation: the same before it, the allocated power during it', () => {
    const start = night + 3600;
    const f = forecast([home], { from: night, dayStart: night, dispatch: { start, duration: 3600, realPowerP: -4, strategy: 'greedy' } }, dark);
    expect(f.adjustedPrediction?.[night]).toEqual(f.prediction[night]);
    expect(f.adjustedPrediction?.[start - 300]).toEqual(f.prediction[start - 300]);
    const intervals = f.allocation?.nodes[0].intervals ?? [];
    expect(intervals[0]).toEqual({ start, end: expect.any(Number), kw: -4 });
    expect(f.adjustedPrediction?.[start].batteryPower).toBe(-4);
    // The house takes what it needs; the rest of the 4 kW is exported.
    const p = f.adjustedPrediction?.[start] as { housePower: number; meterPower: number };
    expect(p.meterPower).toBeCloseTo(p.housePower - 4, 3);
  });

  it('leaves the buckets before `from` empty', () => {
    const f = forecast([home], { from: night + 600, dayStart: night }, dark);
    expect(f.prediction[night]).toEqual({ solarPower: null, housePower: null, batteryPower: null, meterPower: null, remainingCharge: null, soc: null });
    expect(f.prediction[night + 600].housePower).not.toBeNull();
  });
});
