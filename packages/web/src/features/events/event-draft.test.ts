import { DISPATCH_MESSAGES } from '@vpp/shared/dispatches/messages';
import { snapSlider } from '@vpp/shared/dispatches/rules';
import type { DispatchConstraints } from '@vpp/shared/dispatches/schemas';
import { localDateToEpoch } from '@vpp/shared/time';
import { describe, expect, it } from 'vitest';
import {
  brushSelection,
  confirmBlocker,
  createBody,
  DEFAULT_MESSAGE,
  type DispatchDraft,
  initialDraft,
  leadLagEditable,
  messageApplies,
  powerFactorEditable,
  prefilledMessage,
  strategyShown,
  withEnd,
  withPower,
  withPowerFactor,
  withPowerstation,
  withStartDate,
} from './event-draft.ts';
import { clampStart } from './event-window.ts';

const SYDNEY = 'Australia/Sydney';
const ALL = { powerFactor: true, strategy: true };
const NONE = { powerFactor: false, strategy: false };
/** 25/11/2026 10:17:30 in Sydney (UTC+11). */
const NOW = localDateToEpoch('2026-11-25', SYDNEY) + 10 * 3600 + 17 * 60 + 30;

const constraints = (patch: Partial<DispatchConstraints> = {}): DispatchConstraints => ({
  realPowerPMin: -50,
  realPowerPMax: 40,
  realPowerAvailable: true,
  powerFactorMin: 0.8,
  powerFactorMax: 1,
  powerFactorAvailable: true,
  powerFactorLeadLag: ['LEADING', 'LAGGING'],
  powerFactorConstraintMessage: null,
  deploymentsAvailable: 12,
  conflictMessage: null,
  ...patch,
});

const draft = (patch: Partial<DispatchDraft> = {}): DispatchDraft => ({ ...initialDraft({ nowS: NOW, zone: SYDNEY, powerstation: 7, can: ALL }), ...patch });

describe('the default dispatch (spec 3 §4.1)', () => {
  it('starts four hours from now rounded down to the hour, for 14400 s, greedy, as a lockout with power factor 1', () => {
    const d = initialDraft({ nowS: NOW, zone: SYDNEY, powerstation: 7, can: ALL });
    expect(d.startTime).toBe(localDateToEpoch('2026-11-25', SYDNEY) + 14 * 3600);
    expect(d).toMatchObject({ powerstation: 7, duration: 14_400, strategy: 'greedy', realPowerP: 0, powerFactor: 1, powerFactorLeadLag: null });
    expect(d.message).toEqual({ title: 'GridCredits Event', text: DISPATCH_MESSAGES.defaultMessageText });
  });

  it('rounds down to the hour of Adelaide, which starts at half past the UTC hour', () => {
    const adelaideNow = localDateToEpoch('2026-11-25', 'Australia/Adelaide') + 9 * 3600 + 50 * 60;
    const d = initialDraft({ nowS: adelaideNow, zone: 'Australia/Adelaide', can: ALL });
    expect(d.startTime).toBe(localDateToEpoch('2026-11-25', 'Australia/Adelaide') + 13 * 3600);
  });

  it('carries no power factor for a user without fleet.dispatches.powerFactor, and no VPP unless one is given', () => {
    const d = initialDraft({ nowS: NOW, zone: SYDNEY, can: NONE });
    expect(d.powerFactor).toBeNull();
    expect(d.powerstation).toBeNull();
  });

  it('prefills the most recent previous message, or the standard one when there is none', () => {
    const previous = [
      { title: 'Heatwave', customerMessage: 'Thanks for helping tonight.', createdAt: 2 },
      { title: 'Old', customerMessage: 'Older text', createdAt: 1 },
    ];
    expect(prefilledMessage(previous)).toEqual({ title: 'Heatwave', text: 'Thanks for helping tonight.' });
    expect(prefilledMessage([])).toEqual(DEFAULT_MESSAGE);
    expect(prefilledMessage(undefined)).toEqual(DEFAULT_MESSAGE);
  });
});

describe('the power slider (spec 3 §4.1, §5)', () => {
  // Range 90 kW: the snap zone is 3.6 kW.
  it('snaps to its ends within 4% of the range, to 0 within 4% of zero, and otherwise to 0.1 kW', () => {
    expect(snapSlider(-46.5, -50, 40)).toBe(-50);
    expect(snapSlider(36.5, -50, 40)).toBe(40);
    expect(snapSlider(3.5, -50, 40)).toBe(0);
    expect(snapSlider(-3.5, -50, 40)).toBe(0);
    expect(snapSlider(-12.34, -50, 40)).toBe(-12.3);
    expect(snapSlider(3.7, -50, 40)).toBe(3.7);
  });

  it('keeps a typed power inside the constraints and on the 0.1 kW step', () => {
    const c = constraints();
    expect(withPower(draft(), -80, c).realPowerP).toBe(-50);
    expect(withPower(draft(), 12.345, c).realPowerP).toBe(12.3);
    expect(withPower(draft(), 5, undefined).realPowerP).toBe(0);
  });

  it('returns power factor to 1 when a discharge becomes a charge, and clears lead/lag', () => {
    const c = constraints();
    const discharging = withPowerFactor(withPower(draft(), -20, c), 0.9);
    const d = { ...discharging, powerFactorLeadLag: 'LEADING' as const };
    expect(withPower(d, -10, c)).toMatchObject({ powerFactor: 0.9, powerFactorLeadLag: 'LEADING' });
    expect(withPower(d, 10, c)).toMatchObject({ realPowerP: 10, powerFactor: 1, powerFactorLeadLag: null });
  });
});

describe('when power factor, lead/lag, strategy and the message apply (spec 3 §4.1)', () => {
  const c = constraints();
  it('power factor only when discharging, or when no real power is available, and only with the permission', () => {
    expect(powerFactorEditable(draft({ realPowerP: -5 }), c)).toBe(true);
    expect(powerFactorEditable(draft({ realPowerP: 0 }), c)).toBe(false);
    expect(powerFactorEditable(draft({ realPowerP: 5 }), c)).toBe(false);
    expect(powerFactorEditable(draft({ realPowerP: 0 }), constraints({ realPowerAvailable: false, realPowerPMin: 0, realPowerPMax: 0 }))).toBe(true);
    expect(powerFactorEditable(draft({ realPowerP: -5, powerFactor: null }), c)).toBe(false);
    expect(powerFactorEditable(draft({ realPowerP: -5 }), undefined)).toBe(false);
  });

  it('lead/lag only below power factor 1; back at 1 the choice is cleared', () => {
    expect(leadLagEditable(draft({ powerFactor: 1 }))).toBe(false);
    expect(leadLagEditable(draft({ powerFactor: 0.95 }))).toBe(true);
    expect(withPowerFactor(draft({ powerFactor: 0.9, powerFactorLeadLag: 'LAGGING' }), 1).powerFactorLeadLag).toBeNull();
    expect(withPowerFactor(draft({ powerFactor: 0.9, powerFactorLeadLag: 'LAGGING' }), 0.85).powerFactorLeadLag).toBe('LAGGING');
  });

  it('Confirm is blocked below power factor 1 until lead or lag is chosen', () => {
    const d = draft({ realPowerP: -5, powerFactor: 0.9 });
    expect(confirmBlocker(d, c, NOW)).toBe(DISPATCH_MESSAGES.leadLagRequired);
    expect(confirmBlocker({ ...d, powerFactorLeadLag: 'LEADING' }, c, NOW)).toBeNull();
  });

  it('Confirm is blocked without a VPP, without battery nodes, and for a start in the past', () => {
    expect(confirmBlocker(draft({ powerstation: null }), c, NOW)).not.toBeNull();
    expect(confirmBlocker(draft(), constraints({ deploymentsAvailable: 0, powerFactorConstraintMessage: DISPATCH_MESSAGES.noBatteryNodes }), NOW)).toBe(
      DISPATCH_MESSAGES.noBatteryNodes,
    );
    expect(confirmBlocker(draft({ startTime: NOW - 600 }), c, NOW)).toBe(DISPATCH_MESSAGES.startInPast);
  });

  it('strategy shows with its permission and not for a lockout', () => {
    expect(strategyShown({ realPowerP: -5 }, ALL)).toBe(true);
    expect(strategyShown({ realPowerP: 0 }, ALL)).toBe(false);
    expect(strategyShown({ realPowerP: -5 }, NONE)).toBe(false);
  });

  it('customers get a message for charges and discharges, not for lockouts or power-factor-only dispatches', () => {
    expect(messageApplies({ realPowerP: -5 })).toBe(true);
    expect(messageApplies({ realPowerP: 3 })).toBe(true);
    expect(messageApplies({ realPowerP: 0 })).toBe(false);
  });
});

describe('changing the VPP, day and window', () => {
  it('another VPP returns to lockout and power factor 1, or none without the permission', () => {
    const d = draft({ realPowerP: -20, powerFactor: 0.85, powerFactorLeadLag: 'LAGGING' });
    expect(withPowerstation(d, 9, ALL)).toMatchObject({ powerstation: 9, realPowerP: 0, powerFactor: 1, powerFactorLeadLag: null });
    expect(withPowerstation(d, 9, NONE)).toMatchObject({ realPowerP: 0, powerFactor: null });
  });

  it('another day keeps the time of day; today it is clamped to the next 5-minute step', () => {
    const d = draft();
    const tomorrow = withStartDate(d, '2026-11-26', SYDNEY, NOW);
    expect(tomorrow.startTime).toBe(localDateToEpoch('2026-11-26', SYDNEY) + 14 * 3600);
    const early = { ...d, startTime: localDateToEpoch('2026-11-26', SYDNEY) + 3600 };
    expect(withStartDate(early, '2026-11-25', SYDNEY, NOW).startTime).toBe(localDateToEpoch('2026-11-25', SYDNEY) + 10 * 3600 + 20 * 60);
    expect(clampStart(100, 200, 0)).toBe(200);
  });

  it('an end not after the start is ignored (spec 3 §5)', () => {
    const d = draft();
    expect(withEnd(d, d.startTime)).toBe(d);
    expect(withEnd(d, d.startTime - 300)).toBe(d);
    expect(withEnd(d, d.startTime + 1800).duration).toBe(1800);
  });

  it('a drag on the graph snaps start and end to 900 s, in either direction, and not before now', () => {
    const day = localDateToEpoch('2026-11-25', SYDNEY);
    expect(brushSelection(day + 13 * 3600 + 400, day + 15 * 3600 + 500, NOW)).toEqual({ startTime: day + 13 * 3600, duration: 2 * 3600 + 900 });
    expect(brushSelection(day + 15 * 3600 + 500, day + 13 * 3600 + 400, NOW)).toEqual(brushSelection(day + 13 * 3600 + 400, day + 15 * 3600 + 500, NOW));
    expect(brushSelection(day + 8 * 3600, day + 12 * 3600, NOW)).toEqual({ startTime: day + 10 * 3600 + 1800, duration: 5400 });
    expect(brushSelection(day + 13 * 3600, day + 13 * 3600 + 300, NOW)).toBeNull();
  });
});

describe('the POST /dispatch body (spec 3 §7)', () => {
  it('sends every field for a discharge with power factor by a user who holds every permission', () => {
    const d = draft({ realPowerP: -20.5, powerFactor: 0.9, powerFactorLeadLag: 'LAGGING', strategy: 'uniform', message: { title: 'Peak', text: ' Thanks ' } });
    expect(createBody(d, ALL)).toEqual({
      powerstation: 7,
      startTime: d.startTime,
      duration: 14_400,
      realPowerP: -20.5,
      powerFactor: 0.9,
      powerFactorLeadLag: 'LAGGING',
      customerMessage: 'Thanks',
      messageTitle: 'Peak',
      strategy: 'uniform',
    });
  });

  it('sends no message for a lockout, and no strategy or power factor without their permissions', () => {
    const body = createBody(draft({ realPowerP: 0, powerFactor: 1 }), NONE);
    expect(body).toMatchObject({ customerMessage: null, messageTitle: null, strategy: null, powerFactor: null, powerFactorLeadLag: null });
  });

  it('sends the standard text when the message was emptied', () => {
    expect(createBody(draft({ realPowerP: 5, message: { title: '', text: '  ' } }), ALL)).toMatchObject(DEFAULT_MESSAGE_BODY);
  });
});

const DEFAULT_MESSAGE_BODY = { customerMessage: DEFAULT_MESSAGE.text, messageTitle: DEFAULT_MESSAGE.title };
