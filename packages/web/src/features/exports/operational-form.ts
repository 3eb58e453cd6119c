import type { Account } from '@vpp/shared/account/schemas';
import {
  EXPORT_DEFAULT_INTERVAL,
  EXPORT_FALLBACK_INTERVAL,
  type ExportCreateBody,
  type ExportInterval,
  type ExportMetric,
  type ExportMetricOption,
  exportMetricsForNode,
  operationalFormErrors,
} from '@vpp/shared/exports/schemas';
import type { Node } from '@vpp/shared/nodes/schemas';
import { localDateToEpoch, shiftPeriod } from '@vpp/shared/time';

/** A node in the node export's selected list, with what it reads as. */
export interface SelectedNode {
  id: number;
  label: string;
}

/** How a node reads in the suggestions and the selected list (the fields of spec 2 §3's deployment suggestion). */
export function suggestionLabel(n: Pick<Node, 'id' | 'siteLabel' | 'address' | 'network' | 'system'>): string {
  const brands = [...n.system.inverter, ...n.system.battery].map((b) => b.brand);
  const hardware = [n.system.reposit.serialNumber, ...new Set(brands)].filter(Boolean).join(', ');
  return `${n.id} · ${n.siteLabel || n.address.text} · NMI ${n.network.nmi} · ${hardware}`;
}

/** The New Operational Data Export form (spec 2 §2, §5): dates are yyyy-MM-dd in the account's time zone. */
export interface OperationalDraft {
  kind: 'vpp' | 'nodes';
  powerstation: number | null;
  nodes: SelectedNode[];
  startDate: string | null;
  endDate: string | null;
  queries: ExportMetric[];
  /** null: the selector was cleared (the export then uses the fallback, 5m). */
  interval: ExportInterval | null;
  splitPhases: boolean;
  aggByPowerstation: boolean;
  includeSubmeters: boolean;
  /** Switching Split by Phase or Aggregate on switched the other off: the form says why. */
  exclusive: boolean;
}

/** What a redirect query (or a deploymentId link) brings to the form. */
export interface OperationalPrefill {
  node?: SelectedNode;
  start?: string;
  end?: string;
  solar?: boolean;
  battery?: boolean;
  sga?: boolean;
}

/** The metrics the form offers: the organisation's, and the submeter ones only with Include Submeter Data. */
export const offeredMetrics = (allowed: readonly ExportMetricOption[], includeSubmeters: boolean) => allowed.filter((m) => includeSubmeters || !m.submeter);

/** A new form of a kind; a redirect's prefill chooses its node, its days and the metrics its graph showed (spec 2 §2). */
/**
 * The metrics a node's monitoring graph draws (grid and house from the meter, solar, SGA, battery and
 * its state of charge): a redirect from the graph pre-selects these alone, filtered by its flags, so
 * the export holds what the graph showed. The rest (frequency, voltage, reactive power, current,
 * submeters) stay offered to tick.
 */
const GRAPH_METRICS = new Set(['meter_power', 'solar_power', 'meter_sga_power', 'battery_power', 'remaining_charge']);

export function initialOperationalDraft(kind: 'vpp' | 'nodes', allowed: readonly ExportMetricOption[], prefill: OperationalPrefill = {}): OperationalDraft {
  const flags = prefill.solar !== undefined || prefill.battery !== undefined || prefill.sga !== undefined;
  const queries = flags
    ? exportMetricsForNode(offeredMetrics(allowed, false), prefill)
        .map((m) => m.id)
        .filter((id) => GRAPH_METRICS.has(id))
    : [];
  return {
    kind,
    powerstation: null,
    nodes: prefill.node ? [prefill.node] : [],
    startDate: prefill.start ?? null,
    endDate: prefill.end ?? null,
    queries,
    interval: EXPORT_DEFAULT_INTERVAL,
    splitPhases: false,
    aggByPowerstation: false,
    includeSubmeters: false,
    exclusive: false,
  };
}

/** Split by Phase and Aggregate by VPP exclude each other (spec 2 §4): switching one on switches the other off, and says so. */
export function withSplitPhases(d: OperationalDraft, on: boolean): OperationalDraft {
  return { ...d, splitPhases: on, aggByPowerstation: on ? false : d.aggByPowerstation, exclusive: on && d.aggByPowerstation };
}
export function withAggregate(d: OperationalDraft, on: boolean): OperationalDraft {
  return { ...d, aggByPowerstation: on, splitPhases: on ? false : d.splitPhases, exclusive: on && d.splitPhases };
}

/** Leaving out submeter data takes the submeter metrics out of the selection too. */
export function withIncludeSubmeters(d: OperationalDraft, on: boolean, allowed: readonly ExportMetricOption[]): OperationalDraft {
  const offered = new Set(offeredMetrics(allowed, on).map((m) => m.id));
  return { ...d, includeSubmeters: on, queries: d.queries.filter((q) => offered.has(q)) };
}

/** Adds a node to the selected list (once). */
export const withNode = (d: OperationalDraft, n: SelectedNode): OperationalDraft => (d.nodes.some((x) => x.id === n.id) ? d : { ...d, nodes: [...d.nodes, n] });
export const withoutNode = (d: OperationalDraft, id: number): OperationalDraft => ({ ...d, nodes: d.nodes.filter((n) => n.id !== id) });

/** The export's bounds in epoch seconds: local midnight of the first day, and the local midnight after the last. */
export function draftRange(d: Pick<OperationalDraft, 'startDate' | 'endDate'>, zone: string): { start: number | null; end: number | null } {
  return {
    start: d.startDate ? localDateToEpoch(d.startDate, zone) : null,
    end: d.endDate ? shiftPeriod(localDateToEpoch(d.endDate, zone), 'day', 1, zone) : null,
  };
}

/** The form's errors by field (spec 2 §5), through the contract's check: empty when it may be sent. */
export function draftErrors(d: OperationalDraft, zone: string): Record<string, string> {
  return operationalFormErrors({
    kind: d.kind,
    powerstation: d.powerstation,
    deploymentUids: d.nodes.map((n) => n.id),
    ...draftRange(d, zone),
    queries: d.queries,
    splitPhases: d.splitPhases,
    aggByPowerstation: d.kind === 'vpp' && d.aggByPowerstation,
  });
}

/** The create payload of a valid form (spec 2 §3): the account's id and time zone, a VPP or nodes, and the fallback interval when cleared. */
export function operationalBody(d: OperationalDraft, account: Pick<Account, 'id'> & { timezone: string }): ExportCreateBody {
  const { start, end } = draftRange(d, account.timezone);
  return {
    type: 'operational',
    params: {
      start: start ?? undefined,
      end: end ?? undefined,
      queries: d.queries,
      splitPhases: d.splitPhases,
      aggByPowerstation: d.kind === 'vpp' && d.aggByPowerstation,
      includeSubmeters: d.includeSubmeters,
      interval: d.interval ?? EXPORT_FALLBACK_INTERVAL,
      user: account.id,
      timezone: account.timezone,
      ...(d.kind === 'vpp' ? { powerstation: d.powerstation ?? undefined } : { deploymentUids: d.nodes.map((n) => n.id) }),
    },
  };
}
