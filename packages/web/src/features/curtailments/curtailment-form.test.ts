import { CURTAILMENT_MESSAGES } from '@vpp/shared/curtailments/messages';
import { describe, expect, it } from 'vitest';
import { inProgress } from './api.ts';
import {
  confirmBlocker,
  createCurtailmentBody,
  createSetpointBody,
  initialCurtailment,
  initialSetpoint,
  powerBounds,
  unavailableReason,
  withLimit,
  withPowerstation,
  withRamp,
  withSetpointLimit,
} from './curtailment-form.ts';

const ZONE = 'Australia/Sydney';
// 2026-01-15 09:47:10 UTC: 20:47 in Sydney (UTC+11); four hours on is 00:47, rounded down to midnight.
const NOW = Date.UTC(2026, 0, 15, 9, 47, 10) / 1000;
const C = { constraint: -12.5, deploymentsCurtailable: 4 };

describe('the New Curtailment rules (spec 3 §4.3, §5, §9)', () => {
  it('starts four hours ahead rounded down to the hour, for 14400 s, at 0 kW, net (grid)', () => {
    expect(initialCurtailment(NOW, ZONE, 7)).toEqual({
      powerstation: 7,
      startTime: Date.UTC(2026, 0, 15, 13, 0, 0) / 1000,
      duration: 14_400,
      realPowerP: 0,
      component: 'grid',
    });
  });

  it('bounds the slider by 0 above and the constraint below, on 0.1 kW steps', () => {
    expect(powerBounds(C)).toEqual({ min: -12.5, max: 0 });
    const d = initialCurtailment(NOW, ZONE, 7);
    expect(withLimit(d, -20, C).realPowerP).toBe(-12.5);
    expect(withLimit(d, 3, C).realPowerP).toBe(0);
    expect(withLimit(d, -4.26, C).realPowerP).toBe(-4.3);
    // A constraint off the step: the limit stays at or above it.
    expect(withLimit(d, -20, { constraint: -7.34, deploymentsCurtailable: 2 }).realPowerP).toBe(-7.3);
    expect(withPowerstation(withLimit(d, -5, C), 8)).toMatchObject({ powerstation: 8, realPowerP: 0 });
  });

  it('is unavailable with a warning when there is no VPP, or the VPP has no curtailable node or a constraint of 0', () => {
    expect(unavailableReason(0, undefined)).toBe(CURTAILMENT_MESSAGES.noVpp);
    expect(unavailableReason(3, { constraint: 0, deploymentsCurtailable: 2 })).toBe(CURTAILMENT_MESSAGES.noCurtailableNodes);
    expect(unavailableReason(3, { constraint: -3, deploymentsCurtailable: 0 })).toBe(CURTAILMENT_MESSAGES.noCurtailableNodes);
    expect(unavailableReason(3, C)).toBeNull();
    const d = withLimit(initialCurtailment(NOW, ZONE, 7), -5, C);
    expect(confirmBlocker(d, { constraint: 0, deploymentsCurtailable: 0 }, 3, NOW)).toBe(CURTAILMENT_MESSAGES.noCurtailableNodes);
    expect(confirmBlocker(d, C, 3, NOW)).toBeNull();
    expect(confirmBlocker({ ...d, startTime: NOW - 600 }, C, 3, NOW)).toBe(CURTAILMENT_MESSAGES.startInPast);
    expect(createCurtailmentBody({ ...d, component: 'solar' })).toEqual({
      powerstation: 7,
      startTime: d.startTime,
      duration: 14_400,
      realPowerP: -5,
      component: 'solar',
    });
  });
});

describe('the New Curtailment Setpoint rules (spec 3 §3.7, §5)', () => {
  it('starts with a 120 s ramp and both limits 0', () => {
    expect(initialSetpoint(4)).toEqual({ powerstation: 4, rampDuration: 120, meterRealPowerP: 0, inverterRealPowerP: 0 });
  });

  it('accepts a limit of 0 or less and ignores a positive one', () => {
    const d = initialSetpoint(4);
    expect(withSetpointLimit(d, 'meterRealPowerP', -5).meterRealPowerP).toBe(-5);
    expect(withSetpointLimit(d, 'inverterRealPowerP', '-12').inverterRealPowerP).toBe(-12);
    const held = withSetpointLimit(d, 'meterRealPowerP', -5);
    expect(withSetpointLimit(held, 'meterRealPowerP', 5)).toBe(held);
    expect(withSetpointLimit(held, 'meterRealPowerP', '3')).toBe(held);
    expect(withSetpointLimit(held, 'meterRealPowerP', '-')).toBe(held);
    expect(withSetpointLimit(held, 'meterRealPowerP', 0).meterRealPowerP).toBe(0);
    expect(withRamp(d, 300).rampDuration).toBe(300);
    expect(withRamp(d, -1)).toBe(d);
    expect(createSetpointBody(withSetpointLimit(held, 'inverterRealPowerP', -2))).toEqual({
      powerstation: 4,
      rampDuration: 120,
      meterRealPowerP: -5,
      inverterRealPowerP: -2,
    });
  });
});

describe('the detail refresh (spec 3 §4: every 8 s while in progress)', () => {
  it('counts a curtailment in progress between its start and its end, unless cancelled', () => {
    const c = { cancelledAt: null, request: { startTime: NOW, duration: 3600 } };
    expect(inProgress(c, (NOW - 1) * 1000)).toBe(false);
    expect(inProgress(c, NOW * 1000)).toBe(true);
    expect(inProgress(c, (NOW + 3599) * 1000)).toBe(true);
    expect(inProgress(c, (NOW + 3600) * 1000)).toBe(false);
    expect(inProgress({ ...c, cancelledAt: NOW + 60 }, (NOW + 120) * 1000)).toBe(false);
  });
});
