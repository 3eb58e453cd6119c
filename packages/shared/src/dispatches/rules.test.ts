import { describe, expect, it } from 'vitest';
import { defaultDispatchStart, onPowerStep, onTimeStep, powerMaxStep, powerMinStep, snapSlider, validPowerFactor } from './rules.ts';

describe('dispatch rules (spec 3 §4.1, §5, §9)', () => {
  it('starts four hours from now, rounded down to the local hour', () => {
    // 2026-01-15 09:47:10 UTC: Sydney 20:47 (UTC+11) → 00:47 → midnight local, 13:00 UTC.
    const now = Date.UTC(2026, 0, 15, 9, 47, 10) / 1000;
    expect(defaultDispatchStart(now, 'Australia/Sydney')).toBe(Date.UTC(2026, 0, 15, 13, 0, 0) / 1000);
    // Adelaide (UTC+10:30): 00:17 local → midnight local, 13:30 UTC.
    expect(defaultDispatchStart(now, 'Australia/Adelaide')).toBe(Date.UTC(2026, 0, 15, 13, 30, 0) / 1000);
  });

  it('keeps times on 5-minute steps and power on 0.1 kW steps', () => {
    expect([onTimeStep(1_800_000_000), onTimeStep(1_800_000_060)]).toEqual([true, false]);
    expect([onPowerStep(-4.7), onPowerStep(0.3), onPowerStep(1.25)]).toEqual([true, true, false]);
    // Bounds move toward zero onto the step: the VPP never offers more than it can give.
    expect([powerMinStep(-4.75), powerMaxStep(1.842), powerMinStep(-0.04), powerMaxStep(7.1)]).toEqual([-4.7, 1.8, 0, 7.1]);
  });

  it('accepts power factors from 0.7 to 1 in 0.05 steps', () => {
    expect([0.7, 0.75, 0.85, 1].map((pf) => validPowerFactor(pf))).toEqual([true, true, true, true]);
    expect([0.65, 0.72, 1.05].map((pf) => validPowerFactor(pf))).toEqual([false, false, false]);
  });

  it('snaps the power slider to its ends and to 0 within 4% of its range', () => {
    // Range −50 to 50: the zone is 4 kW.
    expect(snapSlider(46.5, -50, 50)).toBe(50);
    expect(snapSlider(-47, -50, 50)).toBe(-50);
    expect(snapSlider(3.9, -50, 50)).toBe(0);
    expect(snapSlider(-3.2, -50, 50)).toBe(0);
    expect(snapSlider(12.34, -50, 50)).toBe(12.3);
    expect(snapSlider(45.9, -50, 50)).toBe(45.9);
  });
});
