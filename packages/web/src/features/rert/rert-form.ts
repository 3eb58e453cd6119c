import type { CreateRertBody, DispatchConstraints, DispatchDetail, RescheduleRertBody } from '@vpp/shared';
import { createBody, type DispatchDraft, type DraftPermissions, messageApplies } from '../dispatches/index.ts';

/**
 * The RERT flow's rules (spec 3 §4.2) on the New Dispatch modal's draft: the same defaults (start four
 * hours ahead rounded down, 14400 s, power 0), discharge or lockout only, no power factor.
 */

/** A RERT dispatch never sets a power factor: the draft carries none. */
export const RERT_CAN = (strategy: boolean): DraftPermissions => ({ powerFactor: false, strategy });

/** What the VPP can give for RERT: its discharge range up to 0 (a lockout); never a charge. */
export function rertConstraints(c: DispatchConstraints | undefined): DispatchConstraints | undefined {
  if (!c) return c;
  return { ...c, realPowerPMax: Math.min(0, c.realPowerPMax), realPowerAvailable: c.realPowerPMin < 0 };
}

/**
 * `POST /api/rert-dispatches` (spec 3 §3.4, §4.2): the message is omitted when power is 0, the
 * strategy sent only when power is not 0 and the user may choose it.
 */
export function createRertBody(d: DispatchDraft, can: DraftPermissions): CreateRertBody {
  const b = createBody(d, RERT_CAN(can.strategy));
  return {
    powerstation: b.powerstation,
    startTime: b.startTime,
    duration: b.duration,
    realPowerP: b.realPowerP,
    ...(messageApplies(d) ? { customerMessage: b.customerMessage } : {}),
    ...(can.strategy && d.realPowerP !== 0 ? { strategy: d.strategy } : {}),
  };
}

/** The draft of a reschedule: the RERT dispatch as it stands, its message included. */
export function draftOf(r: DispatchDetail): DispatchDraft {
  return {
    powerstation: r.powerstation.id,
    startTime: r.request.startTime,
    duration: r.request.duration,
    realPowerP: r.request.realPowerP,
    powerFactor: null,
    powerFactorLeadLag: null,
    strategy: r.request.strategy,
    message: r.customerMessage ?? { title: '', text: '' },
  };
}

/** `POST /api/rert-dispatches/{id}/reschedule`: the new window, and the message where customers get one. */
export function rescheduleBody(d: DispatchDraft): RescheduleRertBody {
  return {
    startTime: d.startTime,
    duration: d.duration,
    ...(messageApplies(d) ? { customerAppMessage: d.message.text.trim() || null } : {}),
  };
}
