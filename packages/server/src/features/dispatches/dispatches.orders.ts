import { DISPATCH_MESSAGES } from '@vpp/shared/dispatches/messages';
import type { DispatchStrategy } from '@vpp/shared/dispatches/rules';
import type { BatteryRow } from '../events/index.ts';
import { type AllocNode, allocate, RESERVE_SHARE } from './dispatches.engine.ts';
import type * as repo from './dispatches.repo.ts';

/** A reporting battery as the allocation sees it now. */
export const allocNode = (r: BatteryRow): AllocNode & { inverterKw: number } => ({
  id: r.id,
  maxKw: r.battery_kw,
  usableKwh: r.battery_usable_kwh,
  reserveKwh: r.battery_usable_kwh * RESERVE_SHARE,
  // A reading without stored energy (a unit that has not reported it yet) offers nothing to discharge.
  socKwh: Math.min(r.battery_usable_kwh, Math.max(0, r.remaining ?? 0)),
  inverterKw: r.inverter_kw,
});

/**
 * The nodes' shares and orders for a request: `allocate` gives those that get a share; a lockout
 * (0 kW) is an order of 0 kW to every battery, so every reporting battery takes part.
 */
export function allocationFor(
  nodes: readonly AllocNode[],
  start: number,
  duration: number,
  realPowerP: number,
  strategy: DispatchStrategy,
): repo.DispatchNodeInput[] {
  if (realPowerP === 0) return nodes.map((n) => ({ nodeId: n.id, shareKw: 0, intervals: [{ start, end: start + duration, kw: 0 }] }));
  return allocate(nodes, { start, duration, realPowerP }, strategy)
    .nodes.filter((n) => n.shareKw !== 0)
    .map((n) => ({ nodeId: n.nodeId, shareKw: n.shareKw, intervals: n.intervals }));
}

/**
 * The message the customers' app shows for a dispatch, or null: none for a lockout or a
 * power-factor-only dispatch (spec 3 §4.1); an empty text is the standard message.
 */
export function customerMessageOf(d: { real_power_p: number; message_title: string | null; customer_message: string | null }) {
  if (d.real_power_p === 0) return null;
  return { title: d.message_title || DISPATCH_MESSAGES.defaultMessageTitle, text: d.customer_message || DISPATCH_MESSAGES.defaultMessageText };
}

/** The source of a dispatch's commands in the fleet control interface. */
export const commandSource = (id: number) => `dispatch:${id}`;
