import type { NewCommand } from '../../devices/index.ts';
import { BATTERY_ONE_WAY_EFFICIENCY } from '../../forecast/index.ts';

/** The source of an outage's commands in the fleet control interface. */
export const outageSource = (id: number) => `outage:${id}`;

/** Share of a battery's full charge time added as margin, and a fixed quarter hour on top. */
const CHARGE_MARGIN = 0.2;
const CHARGE_EXTRA_S = 900;

/**
 * How long before the start a battery starts charging to full: the time its power limit needs to
 * fill it from empty (its state by then is not known 24 hours ahead), with a margin, in whole 5 minutes.
 */
export function chargeLeadS(n: { battery_usable_kwh: number; battery_kw: number }): number {
  const hours = n.battery_usable_kwh / BATTERY_ONE_WAY_EFFICIENCY / n.battery_kw;
  return Math.ceil((hours * 3600 * (1 + CHARGE_MARGIN) + CHARGE_EXTRA_S) / 300) * 300;
}

/**
 * A node's orders for an outage: charge to full from `prepareFrom` to the start (solar first, the
 * grid for the rest: the battery charges at its limit), then the outage window, in which it holds
 * the charge as backup and runs the home when the grid is out.
 */
export function outageCommands(id: number, nodeId: number, prepareFrom: number, start: number, end: number): NewCommand[] {
  const source = outageSource(id);
  const out: NewCommand[] = [];
  if (prepareFrom < start) out.push({ nodeId, start: prepareFrom, end: start, spec: { kind: 'charge_full' }, source });
  out.push({ nodeId, start: Math.max(start, prepareFrom), end, spec: { kind: 'grid_outage' }, source });
  return out;
}
