import { DISPATCH_MESSAGES } from '@vpp/shared/dispatches/messages';
import {
  DISPATCH_BRUSH_SNAP_S,
  DISPATCH_DEFAULT_DURATION_S,
  DISPATCH_TIME_STEP_S,
  type DispatchStrategy,
  defaultDispatchStart,
  type LeadLag,
  POWER_FACTOR_MAX,
  powerFactorSettable,
  snapPower,
} from '@vpp/shared/dispatches/rules';
import type { CreateDispatchBody, DispatchConstraints } from '@vpp/shared/dispatches/schemas';
import { endOfPeriod, localDateToEpoch, startOfPeriod } from '@vpp/shared/time';

import { clampStart, earliestStart } from './event-window.ts';
import type { CustomerMessage } from './phone-preview.tsx';

export type { CustomerMessage };

/**
 * The New Dispatch modal's state and the rules of spec 3 §4.1, §5 and §9 that move it, kept apart
 * from the views so that each rule can be tested on its own.
 */

/** The dispatch being drawn up. */
export interface DispatchDraft {
  powerstation: number | null;
  /** Epoch seconds, on a 5-minute step. */
  startTime: number;
  /** Seconds, a whole number of 5-minute steps. */
  duration: number;
  /** kW: positive charges, negative discharges, 0 locks out. */
  realPowerP: number;
  /** null for a user without fleet.dispatches.powerFactor (the request then carries none). */
  powerFactor: number | null;
  powerFactorLeadLag: LeadLag | null;
  strategy: DispatchStrategy;
  message: CustomerMessage;
}

/** What the user may do here (spec 3 §6). */
export interface DraftPermissions {
  powerFactor: boolean;
  strategy: boolean;
}

/** The standard message: the spec's title and the server's default text. */
export const DEFAULT_MESSAGE: CustomerMessage = { title: DISPATCH_MESSAGES.defaultMessageTitle, text: DISPATCH_MESSAGES.defaultMessageText };

/**
 * A new dispatch (spec 3 §4.1): four hours from now rounded down to the hour of the account's zone,
 * 14400 s, greedy, lockout, power factor 1 only for a user who may set it.
 */
export function initialDraft(o: { nowS: number; zone: string; powerstation?: number | null; can: DraftPermissions }): DispatchDraft {
  return {
    powerstation: o.powerstation ?? null,
    startTime: defaultDispatchStart(o.nowS, o.zone),
    duration: DISPATCH_DEFAULT_DURATION_S,
    realPowerP: 0,
    powerFactor: o.can.powerFactor ? POWER_FACTOR_MAX : null,
    powerFactorLeadLag: null,
    strategy: 'greedy',
    message: DEFAULT_MESSAGE,
  };
}

/** The prefilled message: the most recent previous one, or the standard one when there is none. */
export function prefilledMessage(previous: readonly { title: string; customerMessage: string }[] | undefined): CustomerMessage {
  const last = previous?.find((m) => m.customerMessage.trim() !== '');
  return last ? { title: last.title || DEFAULT_MESSAGE.title, text: last.customerMessage } : DEFAULT_MESSAGE;
}

/** Another VPP: back to lockout and power factor 1 (or none without the permission). */
export function withPowerstation(d: DispatchDraft, powerstation: number | null, can: DraftPermissions): DispatchDraft {
  return { ...d, powerstation, realPowerP: 0, powerFactor: can.powerFactor ? POWER_FACTOR_MAX : null, powerFactorLeadLag: null };
}

/** Whether power factor can be set for this draft (spec 3 §4.1): discharging, or no real power available. */
export function powerFactorEditable(d: Pick<DispatchDraft, 'realPowerP' | 'powerFactor'>, c: DispatchConstraints | undefined): boolean {
  if (d.powerFactor === null || !c?.powerFactorAvailable) return false;
  return powerFactorSettable(d.realPowerP, c.realPowerAvailable);
}

/** Lead or lag can be chosen only below power factor 1. */
export const leadLagEditable = (d: Pick<DispatchDraft, 'powerFactor'>) => d.powerFactor !== null && d.powerFactor < POWER_FACTOR_MAX;

/** The strategy control: with its permission, and not for a lockout. */
export const strategyShown = (d: Pick<DispatchDraft, 'realPowerP'>, can: DraftPermissions) => can.strategy && d.realPowerP !== 0;

/** Customers hear of charges and discharges only: no message for lockouts or power-factor-only dispatches (realPowerP 0). */
export const messageApplies = (d: Pick<DispatchDraft, 'realPowerP'>) => d.realPowerP !== 0;

/**
 * A new power: clamped to the constraints and onto the 0.1 kW step. Power factor below 1 stays only
 * while it can still be set (discharging, or no real power available); otherwise it returns to 1.
 */
export function withPower(d: DispatchDraft, kw: number, c: DispatchConstraints | undefined): DispatchDraft {
  const min = c?.realPowerPMin ?? 0;
  const max = c?.realPowerPMax ?? 0;
  const realPowerP = snapPower(Math.min(max, Math.max(min, kw)));
  const next = { ...d, realPowerP };
  if (d.powerFactor !== null && d.powerFactor < POWER_FACTOR_MAX && !powerFactorEditable(next, c))
    return { ...next, powerFactor: POWER_FACTOR_MAX, powerFactorLeadLag: null };
  return next;
}

/** A power factor from the slider; back at 1 the lead or lag choice is cleared. */
export function withPowerFactor(d: DispatchDraft, pf: number): DispatchDraft {
  const powerFactor = Math.round(pf * 100) / 100;
  return { ...d, powerFactor, powerFactorLeadLag: powerFactor < POWER_FACTOR_MAX ? d.powerFactorLeadLag : null };
}

/** The local day (epoch s of its midnight) the prediction graph shows: the start's. */
export const graphStart = (d: Pick<DispatchDraft, 'startTime'>, zone: string) => startOfPeriod(d.startTime, 'day', zone);

/** Another start day (yyyy-MM-dd): the same time of day on it, clamped; the predictions follow the day. */
export function withStartDate(d: DispatchDraft, date: string, zone: string, nowS: number): DispatchDraft {
  const day = localDateToEpoch(date, zone);
  const offset = d.startTime - startOfPeriod(d.startTime, 'day', zone);
  const end = endOfPeriod(day, 'day', zone);
  const startTime = clampStart(Math.min(day + offset, end - DISPATCH_TIME_STEP_S), day, nowS);
  return { ...d, startTime };
}

/** Another start time of the same day: the duration is kept, so the end moves with it. */
export const withStartTime = (d: DispatchDraft, startTime: number, zone: string, nowS: number): DispatchDraft => ({
  ...d,
  startTime: clampStart(startTime, startOfPeriod(startTime, 'day', zone), nowS),
});

/** Another end: ignored when it is not after the start (spec 3 §5). */
export function withEnd(d: DispatchDraft, end: number): DispatchDraft {
  if (end <= d.startTime) return d;
  return { ...d, duration: end - d.startTime };
}

/**
 * A drag on the prediction graph, from and to in epoch seconds (either order): both ends snapped to
 * 900 s, the start no earlier than the first quarter hour from now, at least one quarter hour long.
 * null when the drag is too short to mean a window.
 */
export function brushSelection(from: number, to: number, nowS: number): { startTime: number; duration: number } | null {
  const snap = (t: number) => Math.round(t / DISPATCH_BRUSH_SNAP_S) * DISPATCH_BRUSH_SNAP_S;
  const earliest = Math.ceil(nowS / DISPATCH_BRUSH_SNAP_S) * DISPATCH_BRUSH_SNAP_S;
  const startTime = Math.max(snap(Math.min(from, to)), earliest);
  const end = snap(Math.max(from, to));
  if (end - startTime < DISPATCH_BRUSH_SNAP_S) return null;
  return { startTime, duration: end - startTime };
}

/** Why Confirm is disabled, or null when the draft can go to the confirmation. */
export function confirmBlocker(d: DispatchDraft, c: DispatchConstraints | undefined, nowS: number): string | null {
  if (d.powerstation === null) return 'Choose a Virtual Power Plant.';
  if (!c) return 'Loading the dispatch constraints.';
  if (!c.deploymentsAvailable) return c.powerFactorConstraintMessage ?? DISPATCH_MESSAGES.noBatteryNodes;
  if (d.startTime < earliestStart(nowS)) return DISPATCH_MESSAGES.startInPast;
  if (leadLagEditable(d) && !d.powerFactorLeadLag) return DISPATCH_MESSAGES.leadLagRequired;
  if (d.realPowerP < c.realPowerPMin || d.realPowerP > c.realPowerPMax) return DISPATCH_MESSAGES.powerOutOfRange(c.realPowerPMin, c.realPowerPMax);
  if (leadLagEditable(d) && c.powerFactorConstraintMessage) return c.powerFactorConstraintMessage;
  return null;
}

/**
 * The `POST /dispatch` body (spec 3 §7). Strategy is sent only by a user who may choose it, power
 * factor only by one who may set it, lead/lag only below 1, the message only when customers get one.
 */
export function createBody(d: DispatchDraft, can: DraftPermissions): CreateDispatchBody {
  if (d.powerstation === null) throw new Error('A dispatch needs a Virtual Power Plant.');
  const withMessage = messageApplies(d);
  return {
    powerstation: d.powerstation,
    startTime: d.startTime,
    duration: d.duration,
    realPowerP: d.realPowerP,
    powerFactor: can.powerFactor ? d.powerFactor : null,
    powerFactorLeadLag: can.powerFactor && leadLagEditable(d) ? d.powerFactorLeadLag : null,
    customerMessage: withMessage ? d.message.text.trim() || DEFAULT_MESSAGE.text : null,
    messageTitle: withMessage ? d.message.title.trim() || DEFAULT_MESSAGE.title : null,
    strategy: can.strategy ? d.strategy : null,
  };
}

/** What the power does, for the summaries: charge, discharge or lockout. */
export function powerLabel(kw: number): string {
  if (kw > 0) return `Charge ${kw.toFixed(1)} kW`;
  if (kw < 0) return `Discharge ${Math.abs(kw).toFixed(1)} kW`;
  return 'Lockout (0 kW)';
}
