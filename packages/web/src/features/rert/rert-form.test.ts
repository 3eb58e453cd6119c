import type { DispatchConstraints, DispatchDetail } from '@vpp/shared/dispatches/schemas';
import { describe, expect, it } from 'vitest';
import { CONSTRAINTS } from '../../test/event-fixtures.ts';
import { initialDraft } from '../events/index.ts';
import { createRertBody, draftOf, RERT_CAN, rertConstraints, rescheduleBody } from './rert-form.ts';

const constraints: DispatchConstraints = { ...CONSTRAINTS, realPowerPMax: 8 };

describe('the RERT flow rules (spec 3 §4.2)', () => {
  const start = Date.UTC(2026, 10, 24, 2) / 1000;
  const draft = { ...initialDraft({ nowS: start, zone: 'Australia/Sydney', can: RERT_CAN(true) }), powerstation: 7 };

  it('starts as a dispatch does, without a power factor, and can only discharge or lock out', () => {
    expect(draft).toMatchObject({ duration: 14_400, realPowerP: 0, powerFactor: null, strategy: 'greedy' });
    expect(rertConstraints(constraints)).toMatchObject({ realPowerPMin: -12.5, realPowerPMax: 0, realPowerAvailable: true });
    expect(rertConstraints({ ...constraints, realPowerPMin: 0 })).toMatchObject({ realPowerPMax: 0, realPowerAvailable: false });
  });

  it('omits the message at 0 kW, and sends the strategy only when power is not 0 and the user may choose it', () => {
    expect(createRertBody(draft, RERT_CAN(true))).toEqual({ powerstation: 7, startTime: draft.startTime, duration: 14_400, realPowerP: 0 });
    const discharge = { ...draft, realPowerP: -5, strategy: 'uniform' as const, message: { title: 'T', text: ' Reserve called ' } };
    expect(createRertBody(discharge, RERT_CAN(true))).toEqual({
      powerstation: 7,
      startTime: draft.startTime,
      duration: 14_400,
      realPowerP: -5,
      customerMessage: 'Reserve called',
      strategy: 'uniform',
    });
    expect(createRertBody(discharge, RERT_CAN(false))).not.toHaveProperty('strategy');
  });

  it('reschedules from the dispatch as it stands: startTime, duration and customerAppMessage only', () => {
    const r = {
      id: 5,
      powerstation: { id: 7, name: 'Fleet' },
      request: { startTime: start, duration: 3600, realPowerP: -4, powerFactor: null, powerFactorLeadLag: null, strategy: 'greedy', deploymentsRequested: 3 },
      customerMessage: { title: 'GridCredits Event', text: 'Reserve called' },
    } as DispatchDetail;
    const d = draftOf(r);
    expect(d).toMatchObject({ powerstation: 7, startTime: start, duration: 3600, realPowerP: -4, message: { text: 'Reserve called' } });
    expect(rescheduleBody({ ...d, startTime: start + 900 })).toEqual({ startTime: start + 900, duration: 3600, customerAppMessage: 'Reserve called' });
    expect(rescheduleBody({ ...d, realPowerP: 0 })).toEqual({ startTime: start, duration: 3600 });
  });
});
