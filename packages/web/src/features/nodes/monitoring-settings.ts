import type { NodeDetail } from '@vpp/shared/nodes/schemas';
import { endOfPeriod, epochToLocalDate, localDateToEpoch, type Period, startOfPeriod } from '@vpp/shared/time';
import { useEffect, useRef } from 'react';
import { z } from 'zod';
import { usePermission } from '../../lib/permission-gate.tsx';
import { param, searchValue, useSearchState } from '../../lib/search-state.ts';
import { type GraphSettings, PERIODS, SECONDARY_KEYS, type Secondary, TOGGLES, type Toggle } from './monitoring-chart.ts';

/** The Monitoring tab's query parameters (spec 2 §4): date, period, the series toggles, secondaryYAxis, splitByPhase, submeters. */
export const monitoringSearch = z.object({
  date: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .optional(),
  period: param.oneOf(PERIODS, 'day'),
  house: param.bool(true),
  grid: param.bool(true),
  solar: param.bool(true),
  sga: param.bool(false),
  battery: param.bool(true),
  system: param.bool(false),
  secondaryYAxis: param.oneOf(SECONDARY_KEYS, 'state_of_charge'),
  splitByPhase: param.bool(false),
  submeters: param.ids(),
});
type MonitoringSearch = z.output<typeof monitoringSearch>;

/** The series toggles a node offers: no Battery without a battery, SGA only with its permission. */
export function offeredToggles(node: Pick<NodeDetail, 'hasBattery'>, canSga: boolean): Toggle[] {
  return TOGGLES.map((t) => t.key).filter((k) => (k !== 'battery' || node.hasBattery) && (k !== 'sga' || canSga));
}

/** The secondary axis choices a node offers, its default first: without a battery, no state of charge (voltage is the default). */
export function secondaryChoicesFor(node: Pick<NodeDetail, 'hasBattery'>): Secondary[] {
  return node.hasBattery ? [...SECONDARY_KEYS] : SECONDARY_KEYS.filter((k) => k !== 'state_of_charge');
}

/** The day a period starting on `date` starts on (a week starts on Monday), as yyyy-MM-dd. */
export function startOfPeriodDate(date: string, period: Period, zone: string): string {
  return epochToLocalDate(startOfPeriod(localDateToEpoch(date, zone), period, zone), zone);
}

export interface MonitoringSettings extends GraphSettings {
  period: Period;
  /** The first day shown, yyyy-MM-dd in the node's zone, and the period's bounds in epoch seconds. */
  date: string;
  start: number;
  end: number;
  today: string;
  firstDay: string;
  split: boolean;
  /** The submeters shown (at most two, each one of the node's). */
  submeters: number[];
  canSga: boolean;
  /** The series toggles and secondary axes this node offers (see offeredToggles, secondaryChoicesFor). */
  offered: Toggle[];
  secondaryChoices: Secondary[];
  set: (patch: Partial<{ [K in keyof MonitoringSearch]: MonitoringSearch[K] | null }>) => void;
}

/**
 * The graph settings held in the URL: the date is held between the commissioning day and today and
 * moved to the start of its period, and the URL is rewritten (replacing the entry) to name every
 * setting, so that any view can be linked and reloaded.
 */
export function useMonitoringSettings(node: NodeDetail): MonitoringSettings {
  const [q, set, params] = useSearchState(monitoringSearch);
  const zone = node.timezone;
  const canSga = usePermission('fleet.node.sga_data.view');
  const today = epochToLocalDate(Date.now() / 1000, zone);
  const firstDay = node.reposit.commissionedDate ? epochToLocalDate(node.reposit.commissionedDate, zone) : today;
  // yyyy-MM-dd strings sort as dates: the middle of the three is the date held within its bounds.
  const clamped = [firstDay, q.date ?? today, today].sort()[1];
  const start = startOfPeriod(localDateToEpoch(clamped, zone), q.period, zone);
  const end = endOfPeriod(start, q.period, zone);
  const date = epochToLocalDate(start, zone);
  // The day the user last chose (a day in view, the picker, the arrows): a week or month view starts
  // on its period's first day, and coming back to Day lands on this day again, not on that first day.
  const chosen = useRef(clamped);
  const setSettings: MonitoringSettings['set'] = (patch) => {
    if (patch.date) chosen.current = patch.date;
    else if (patch.period && patch.period !== q.period) {
      const at = localDateToEpoch(chosen.current, zone);
      // The chosen day while it lies in the period shown; otherwise the period's first day.
      if (!(at >= start && at < end)) chosen.current = date;
      set({ ...patch, date: chosen.current });
      return;
    }
    set(patch);
  };
  const offered = offeredToggles(node, canSga);
  const on = Object.fromEntries(TOGGLES.map((t) => [t.key, q[t.key] && offered.includes(t.key)])) as Record<Toggle, boolean>;
  // A node without a battery has no state of charge: its axis is not offered, and voltage is the default.
  const secondaryChoices = secondaryChoicesFor(node);
  const secondary: Secondary = secondaryChoices.includes(q.secondaryYAxis) ? q.secondaryYAxis : secondaryChoices[0];
  const split = q.splitByPhase;
  const submeters = q.submeters.filter((id) => node.subMeters.some((s) => s.id === id));

  // Spec 2 §8: an unknown period or secondary axis only logs a console warning, with no message to the user.
  const periodParam = params.get('period');
  const secondaryParam = params.get('secondaryYAxis');
  useEffect(() => {
    if (periodParam !== null && periodParam !== q.period) console.warn(`Unknown period "${periodParam}": showing ${q.period}.`);
  }, [periodParam, q.period]);
  useEffect(() => {
    if (secondaryParam !== null && !(SECONDARY_KEYS as readonly string[]).includes(secondaryParam))
      console.warn(`Unknown secondary axis "${secondaryParam}": showing ${secondary}.`);
  }, [secondaryParam, secondary]);

  const normal: Partial<MonitoringSearch> = { date, period: q.period, ...on, secondaryYAxis: secondary, splitByPhase: split, submeters };
  const stale = Object.entries(normal).some(([k, v]) => params.get(k) !== searchValue(v));
  const normalKey = JSON.stringify(normal);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `normal` is read through its key
  useEffect(() => {
    if (stale) set(normal, { replace: true });
  }, [stale, normalKey]);

  return {
    offered,
    secondaryChoices,
    period: q.period,
    date,
    start,
    end,
    today,
    firstDay,
    on,
    secondary,
    split,
    phases: split && node.phases === 3,
    submeters,
    canSga,
    set: setSettings,
  };
}
