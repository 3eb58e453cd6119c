import {
  CURTAILMENT_DEFAULT_DURATION_S,
  CURTAILMENT_MESSAGES,
  type CurtailmentComponent,
  curtailmentComponentLabel,
  SETPOINT_DEFAULT_RAMP_S,
} from '@vpp/shared/curtailments/messages';
import type { CreateCurtailmentBody, CreateSetpointBody, CurtailmentConstraint, CurtailmentSummary } from '@vpp/shared/curtailments/schemas';
import { DISPATCH_TIME_STEP_S, defaultDispatchStart, powerMinStep, snapPower } from '@vpp/shared/dispatches/rules';
import { endOfPeriod, localDateToEpoch, startOfPeriod } from '@vpp/shared/time';
import { clampStart, earliestStart } from '../events/index.ts';

/**
 * The New Curtailment and New Curtailment Setpoint modals' state and the rules of spec 3 §4.3, §5
 * and §9 that move it, apart from the views so that each rule is tested on its own.
 */

export const FEED_IN_PATH = '/virtual-power-plants/feed-in-management';
/** The list as the sidebar and a cancel open it (spec 3 §2.1, §9: limit 10). */
export const FEED_IN_LIST_PATH = `${FEED_IN_PATH}?tab=CURTAILMENT_LIST&limit=10&offset=0`;
export const curtailmentPath = (id: number) => `${FEED_IN_PATH}/${id}`;

/** The curtailment being drawn up. */
export interface CurtailmentDraft {
  powerstation: number | null;
  /** Epoch seconds, on a 5-minute step. */
  startTime: number;
  /** Seconds, a whole number of 5-minute steps. */
  duration: number;
  /** kW, 0 or negative: the most the VPP may export (net) or generate (gross). */
  realPowerP: number;
  component: CurtailmentComponent;
}

/** A new curtailment (spec 3 §4.3, §9): four hours from now rounded down to the hour, 14400 s, 0 kW, net (grid). */
export const initialCurtailment = (nowS: number, zone: string, powerstation: number | null = null): CurtailmentDraft => ({
  powerstation,
  startTime: defaultDispatchStart(nowS, zone),
  duration: CURTAILMENT_DEFAULT_DURATION_S,
  realPowerP: 0,
  component: 'grid',
});

/** Another start day (yyyy-MM-dd): the same time of day on it, no earlier than the next 5 minutes. */
export function withStartDate(d: CurtailmentDraft, date: string, zone: string, nowS: number): CurtailmentDraft {
  const day = localDateToEpoch(date, zone);
  const offset = d.startTime - startOfPeriod(d.startTime, 'day', zone);
  return { ...d, startTime: clampStart(Math.min(day + offset, endOfPeriod(day, 'day', zone) - DISPATCH_TIME_STEP_S), day, nowS) };
}

/** Another start time of the same day: the duration is kept, so the end moves with it. */
export const withStartTime = (d: CurtailmentDraft, startTime: number, zone: string, nowS: number): CurtailmentDraft => ({
  ...d,
  startTime: clampStart(startTime, startOfPeriod(startTime, 'day', zone), nowS),
});

/** Another end: ignored when it is not after the start (spec 3 §5). */
export const withEnd = (d: CurtailmentDraft, end: number): CurtailmentDraft => (end <= d.startTime ? d : { ...d, duration: end - d.startTime });

/** The slider's bounds (spec 3 §5): maximum 0, minimum the VPP's constraint. */
export const powerBounds = (c: CurtailmentConstraint | undefined) => ({ min: Math.min(0, c?.constraint ?? 0), max: 0 });

/** A new limit: clamped to [constraint, 0] and onto the 0.1 kW step (never below the constraint). */
export function withLimit(d: CurtailmentDraft, kw: number, c: CurtailmentConstraint | undefined): CurtailmentDraft {
  const { min } = powerBounds(c);
  const realPowerP = Math.min(0, Math.max(powerMinStep(min), snapPower(Math.max(min, Math.min(0, kw)))));
  return { ...d, realPowerP };
}

/** Another VPP: the limit returns to 0, the other VPP's constraint bounding it anew. */
export const withPowerstation = (d: CurtailmentDraft, powerstation: number | null): CurtailmentDraft => ({ ...d, powerstation, realPowerP: 0 });

/**
 * The spec's warning that makes a curtailment unavailable (spec 3 §4.3): no VPP to choose, or a VPP
 * with no curtailable node (no nodes, or a constraint of 0). null when it can be curtailed.
 */
export function unavailableReason(vppCount: number | undefined, c: CurtailmentConstraint | undefined): string | null {
  if (vppCount === 0) return CURTAILMENT_MESSAGES.noVpp;
  if (c && (c.deploymentsCurtailable === 0 || c.constraint === 0)) return CURTAILMENT_MESSAGES.noCurtailableNodes;
  return null;
}

/** Why Confirm is disabled, or null when the draft can go to the confirmation. */
export function confirmBlocker(d: CurtailmentDraft, c: CurtailmentConstraint | undefined, vppCount: number | undefined, nowS: number): string | null {
  const unavailable = unavailableReason(vppCount, c);
  if (unavailable) return unavailable;
  if (d.powerstation === null) return 'Choose a Virtual Power Plant.';
  if (!c) return 'Loading the curtailment constraints.';
  if (d.startTime < earliestStart(nowS)) return CURTAILMENT_MESSAGES.startInPast;
  if (d.realPowerP < c.constraint || d.realPowerP > 0) return CURTAILMENT_MESSAGES.belowConstraint(c.constraint);
  return null;
}

/** The `POST /api/curtailments` body (spec 3 §7). */
export function createCurtailmentBody(d: CurtailmentDraft): CreateCurtailmentBody {
  if (d.powerstation === null) throw new Error('A curtailment needs a Virtual Power Plant.');
  return { powerstation: d.powerstation, startTime: d.startTime, duration: d.duration, realPowerP: d.realPowerP, component: d.component };
}

/** How a limit reads in the confirmation: 'Net -5.0 kW' (export at the meters) or 'Gross -5.0 kW' (solar generation). */
export const limitLabel = (d: Pick<CurtailmentDraft, 'component' | 'realPowerP'>) => `${curtailmentComponentLabel(d.component)} ${d.realPowerP.toFixed(1)} kW`;

/** Cancel is offered while the curtailment is upcoming or in progress (spec 3 §4) and not already cancelled. */
export const cancellable = (c: Pick<CurtailmentSummary, 'state' | 'cancelledAt'>) =>
  c.cancelledAt === null && (c.state === 'UPCOMING' || c.state === 'INPROGRESS');

/** The New Curtailment Setpoint modal's state (spec 3 §3.7, §5): both limits 0 and a 120 s ramp to start. */
export interface SetpointDraft {
  powerstation: number | null;
  rampDuration: number;
  /** Net limit, kW. */
  meterRealPowerP: number;
  /** Gross limit, kW. */
  inverterRealPowerP: number;
}

export const initialSetpoint = (powerstation: number | null = null): SetpointDraft => ({
  powerstation,
  rampDuration: SETPOINT_DEFAULT_RAMP_S,
  meterRealPowerP: 0,
  inverterRealPowerP: 0,
});

/**
 * A gross or net limit as typed (spec 3 §5): accepted only when it is 0 or less (a whole kW, as the
 * server takes it); a positive value, or one that is not a number, is ignored and the limit stays.
 */
export function withSetpointLimit(d: SetpointDraft, field: 'meterRealPowerP' | 'inverterRealPowerP', value: number | string): SetpointDraft {
  const kw = typeof value === 'number' ? value : value.trim() === '' || value.trim() === '-' ? Number.NaN : Number(value);
  if (!Number.isFinite(kw) || kw > 0) return d;
  return { ...d, [field]: Math.trunc(kw) || 0 };
}

/** A ramp duration as typed: a whole number of seconds, 0 or more; anything else is ignored. */
export function withRamp(d: SetpointDraft, value: number | string): SetpointDraft {
  const s = typeof value === 'number' ? value : Number(value);
  if (!Number.isFinite(s) || s < 0 || (typeof value === 'string' && value.trim() === '')) return d;
  return { ...d, rampDuration: Math.round(s) };
}

/** The `POST /api/curtailments/setpoint` body (spec 3 §3.7). */
export function createSetpointBody(d: SetpointDraft): CreateSetpointBody {
  if (d.powerstation === null) throw new Error('A setpoint needs a Virtual Power Plant.');
  return { powerstation: d.powerstation, rampDuration: d.rampDuration, meterRealPowerP: d.meterRealPowerP, inverterRealPowerP: d.inverterRealPowerP };
}
