import type { DispatchConstraints, DispatchDetail } from '@vpp/shared/dispatches/schemas';
import type { CreateRertBody, RertContract, RertInstruction, RescheduleRertBody } from '@vpp/shared/rert/schemas';
import { tzOffsetS } from '@vpp/shared/time';
import { createBody, type DispatchDraft, type DraftPermissions, messageApplies } from '../events/index.ts';

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

/**
 * Issue 33 item 3: AEMO's instruction and the reserve contract a new RERT dispatch runs under, as the
 * modal's fields hold them (text as typed; times as `YYYY-MM-DDTHH:MM` in the account's time zone;
 * the customers' share in per cent). All are required: a RERT dispatch answers AEMO's instruction.
 */
export interface RertTermsDraft {
  instructionId: string;
  noticeCategory: RertInstruction['noticeCategory'] | null;
  lorCondition: RertInstruction['lorCondition'] | null;
  preActivation: string;
  activation: string;
  reference: string;
  contractedMw: string;
  availabilityRate: string;
  preActivationRate: string;
  activationRate: string;
  usageRate: string;
  customerShare: string;
}

export const EMPTY_TERMS: RertTermsDraft = {
  instructionId: '',
  noticeCategory: null,
  lorCondition: null,
  preActivation: '',
  activation: '',
  reference: '',
  contractedMw: '',
  availabilityRate: '',
  preActivationRate: '',
  activationRate: '',
  usageRate: '',
  customerShare: '',
};

/** The validation messages of the instruction and contract fields. */
export const TERMS_MESSAGES = {
  instructionId: 'Enter the ID of AEMO’s instruction.',
  noticeCategory: 'Choose the notice category of AEMO’s instruction.',
  lorCondition: 'Choose the LOR condition AEMO activated the reserve for.',
  time: 'Enter a date and time.',
  preActivationAfterActivation: 'Pre-activation must not be after activation.',
  activationAfterStart: 'Activation must not be after the dispatch’s start.',
  reference: 'Enter the contract’s reference.',
  contractedMw: 'Enter the contracted reserve in MW, above 0.',
  rate: 'Enter a rate in dollars, 0 or more.',
  customerShare: 'Enter the customers’ share from 0 to 100 %.',
  incomplete: 'Fill in AEMO’s instruction and the RERT contract.',
} as const;

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;

/** Epoch seconds of a `YYYY-MM-DDTHH:MM` wall-clock time in `zone` (null when not one). */
export function localDateTimeToEpoch(value: string, zone: string): number | null {
  const m = LOCAL.exec(value);
  if (!m) return null;
  const wall = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5])) / 1000;
  if (!Number.isFinite(wall)) return null;
  // The offset at the guess, then at the instant it gives (a DST change between them).
  const first = wall - tzOffsetS(zone, wall);
  return wall - tzOffsetS(zone, first);
}

/** `YYYY-MM-DDTHH:MM` of an instant in `zone`. */
export function epochToLocalDateTime(ts: number, zone: string): string {
  const local = new Date((ts + tzOffsetS(zone, ts)) * 1000).toISOString();
  return local.slice(0, 16);
}

/** A number typed into a field, or null (blank or not a number). */
const numberOf = (s: string): number | null => {
  const t = s.trim();
  if (!t || !/^-?\d*\.?\d+$/.test(t)) return null;
  return Number(t);
};

/** The message of each field in error (none: the terms can be sent). */
export function termsErrors(t: RertTermsDraft, startTime: number, zone: string): Partial<Record<keyof RertTermsDraft, string>> {
  const e: Partial<Record<keyof RertTermsDraft, string>> = {};
  if (!t.instructionId.trim()) e.instructionId = TERMS_MESSAGES.instructionId;
  else if (t.instructionId.trim().length > 100) e.instructionId = 'The instruction ID must be at most 100 characters.';
  if (!t.noticeCategory) e.noticeCategory = TERMS_MESSAGES.noticeCategory;
  if (!t.lorCondition) e.lorCondition = TERMS_MESSAGES.lorCondition;
  const pre = localDateTimeToEpoch(t.preActivation, zone);
  const act = localDateTimeToEpoch(t.activation, zone);
  if (pre === null) e.preActivation = TERMS_MESSAGES.time;
  if (act === null) e.activation = TERMS_MESSAGES.time;
  else if (act > startTime) e.activation = TERMS_MESSAGES.activationAfterStart;
  if (pre !== null && act !== null && pre > act) e.preActivation = TERMS_MESSAGES.preActivationAfterActivation;
  if (!t.reference.trim()) e.reference = TERMS_MESSAGES.reference;
  else if (t.reference.trim().length > 100) e.reference = 'The contract’s reference must be at most 100 characters.';
  const mw = numberOf(t.contractedMw);
  if (mw === null || mw <= 0) e.contractedMw = TERMS_MESSAGES.contractedMw;
  for (const k of ['availabilityRate', 'preActivationRate', 'activationRate', 'usageRate'] as const) {
    const v = numberOf(t[k]);
    if (v === null || v < 0) e[k] = TERMS_MESSAGES.rate;
  }
  const share = numberOf(t.customerShare);
  if (share === null || share < 0 || share > 100) e.customerShare = TERMS_MESSAGES.customerShare;
  return e;
}

/** The API's instruction and contract of complete terms (null while any field is in error). */
export function termsBody(t: RertTermsDraft, startTime: number, zone: string): { instruction: RertInstruction; contract: RertContract } | null {
  if (Object.keys(termsErrors(t, startTime, zone)).length) return null;
  const n = (s: string) => Number(s.trim());
  return {
    instruction: {
      id: t.instructionId.trim(),
      noticeCategory: t.noticeCategory as RertInstruction['noticeCategory'],
      lorCondition: t.lorCondition as RertInstruction['lorCondition'],
      preActivationTime: localDateTimeToEpoch(t.preActivation, zone) as number,
      activationTime: localDateTimeToEpoch(t.activation, zone) as number,
    },
    contract: {
      reference: t.reference.trim(),
      contractedMw: n(t.contractedMw),
      availabilityRate: n(t.availabilityRate),
      preActivationRate: n(t.preActivationRate),
      activationRate: n(t.activationRate),
      usageRate: n(t.usageRate),
      // Per cent to the API's 0–1, without float noise (12.5 % → 0.125).
      customerShare: Math.round(n(t.customerShare) * 1e4) / 1e6,
    },
  };
}
