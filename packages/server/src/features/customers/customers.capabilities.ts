import type { Capability, CapabilityPeriod } from '@vpp/shared/customers/schemas';
import { CAPABILITIES } from '@vpp/shared/customers/schemas';

/**
 * What each version of the customer agreement lets the organisation do with the home: version 1
 * (VPP participation) battery dispatch, feed-in curtailment and submeter data; version 2 adds
 * grid-outage preparation (charging the battery to full from the grid ahead of a warned outage).
 */
export const AGREEMENT_GRANTS: Readonly<Record<number, readonly Capability[]>> = {
  1: ['BATTERY_DISPATCH', 'FEED_IN_CURTAILMENT', 'SUBMETER_DATA'],
  2: ['BATTERY_DISPATCH', 'FEED_IN_CURTAILMENT', 'SUBMETER_DATA', 'GRID_OUTAGE_PREPARATION'],
};
export const LATEST_AGREEMENT = 2;

/** The home's hardware as capabilities need it. */
export interface CapabilityHardware {
  commissioned: boolean;
  /** YYYY-MM-DD of commissioning, local; null when not commissioned. */
  commissionedDate: string | null;
  battery: boolean;
  submeters: boolean;
}

export interface AgreementPeriod {
  version: number;
  signed_date: string;
  ended_date: string | null;
}

/** Whether the hardware can do what a capability needs. */
export function hardwareAllows(c: Capability, h: CapabilityHardware): boolean {
  if (!h.commissioned) return false;
  if (c === 'BATTERY_DISPATCH' || c === 'GRID_OUTAGE_PREPARATION') return h.battery;
  if (c === 'SUBMETER_DATA') return h.submeters;
  return true;
}

const grants = (version: number, c: Capability) => (AGREEMENT_GRANTS[Math.min(version, LATEST_AGREEMENT)] ?? []).includes(c);

/** The capabilities held now: the current agreement's grants that the hardware allows. */
export function currentCapabilities(h: CapabilityHardware, agreementVersion: number | null): Capability[] {
  if (agreementVersion === null) return [];
  return CAPABILITIES.filter((c) => grants(agreementVersion, c) && hardwareAllows(c, h));
}

/**
 * The capabilities over time (spec 3 §2.8): each agreement's grants that the hardware allows, from
 * the later of its signing and the commissioning to its end (null while it lasts), periods of one
 * capability that meet merged. Sorted by start, then in the CAPABILITIES order.
 */
export function capabilityHistory(h: CapabilityHardware, agreements: readonly AgreementPeriod[]): CapabilityPeriod[] {
  const out: CapabilityPeriod[] = [];
  if (!h.commissioned || !h.commissionedDate) return out;
  const sorted = [...agreements].sort((a, b) => a.signed_date.localeCompare(b.signed_date));
  for (const c of CAPABILITIES) {
    if (!hardwareAllows(c, h)) continue;
    let open: CapabilityPeriod | null = null;
    for (const a of sorted) {
      if (!grants(a.version, c)) continue;
      const start = a.signed_date > (h.commissionedDate as string) ? a.signed_date : (h.commissionedDate as string);
      if (a.ended_date !== null && a.ended_date <= start) continue;
      if (open && (open.endDate === null || open.endDate >= start)) {
        if (open.endDate !== null && (a.ended_date === null || a.ended_date > open.endDate)) open.endDate = a.ended_date;
        continue;
      }
      open = { capability: c, startDate: start, endDate: a.ended_date };
      out.push(open);
    }
  }
  return out.sort((a, b) => a.startDate.localeCompare(b.startDate) || CAPABILITIES.indexOf(a.capability) - CAPABILITIES.indexOf(b.capability));
}
