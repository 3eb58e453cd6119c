import { ActionIcon, Checkbox, Chip, Group, Paper, SegmentedControl, Select, SimpleGrid, Stack, Text } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import {
  endOfPeriod,
  epochToLocalDate,
  formatEnergy,
  localDateToEpoch,
  type NodeDetail,
  type NodeMetric,
  PERIOD_INTERVAL_S,
  type Period,
  powerScale,
  shiftPeriod,
  startOfPeriod,
} from '@vpp/shared';
import { useEffect, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { type ChartSeries, TimeSeriesChart } from '../../components/time-series-chart.tsx';
import { usePermission } from '../../lib/permission-gate.tsx';
import { useNodeSeries, useNodeSummary, useSubmeterSeries } from './api.ts';

const SECONDARY = {
  state_of_charge: { label: 'State of charge', unit: '%', metrics: ['soc'] as NodeMetric[] },
  voltage: { label: 'Voltage', unit: 'V', metrics: ['meterVoltage'] as NodeMetric[] },
  frequency: { label: 'Frequency', unit: 'Hz', metrics: ['meterFrequency'] as NodeMetric[] },
  reactive_power: { label: 'Reactive power', unit: 'kvar', metrics: ['meterReactivePower', 'solarReactivePower'] as NodeMetric[] },
} as const;
type Secondary = keyof typeof SECONDARY;
const PERIODS = ['day', 'week', 'month'] as const;
const STRIPES: Record<Period, number> = { day: 48, week: 7, month: 30 };
const TOGGLES = [
  { key: 'house', label: 'House', color: '#7048e8' },
  { key: 'grid', label: 'Grid', color: '#e03131' },
  { key: 'solar', label: 'Solar', color: '#f59f00' },
  { key: 'sga', label: 'SGA', color: '#fab005' },
  { key: 'battery', label: 'Battery', color: '#2f9e44' },
  { key: 'system', label: 'System', color: '#1c7ed6' },
] as const;
const DEFAULT_ON = new Set(['house', 'grid', 'solar', 'battery']);
const PHASE_COLOURS = ['#e03131', '#f76707', '#c2255c'];

/**
 * The Monitoring tab: every graph setting lives in the URL (date, period, the series toggles,
 * secondaryYAxis, splitByPhase, submeters) and the URL is rewritten on every change.
 */
export function MonitoringTab({ node }: { node: NodeDetail }) {
  const [params, setParams] = useSearchParams();
  const zone = node.timezone;
  const canSga = usePermission('fleet.node.sga_data.view');
  const periodParam = params.get('period');
  const period: Period = PERIODS.find((p) => p === periodParam) ?? 'day';
  const today = epochToLocalDate(Date.now() / 1000, zone);
  const firstDay = node.reposit.commissionedDate ? epochToLocalDate(node.reposit.commissionedDate, zone) : today;
  const requested = params.get('date') && /^\d{4}-\d{2}-\d{2}$/.test(params.get('date') ?? '') ? (params.get('date') as string) : today;
  // yyyy-MM-dd strings sort as dates: the middle of the three is the date held within its bounds.
  const clamped = [firstDay, requested, today].sort()[1];
  const start = startOfPeriod(localDateToEpoch(clamped, zone), period, zone);
  const end = endOfPeriod(start, period, zone);
  const date = epochToLocalDate(start, zone);
  const on = (key: string) => (params.has(key) ? params.get(key) === 'true' : DEFAULT_ON.has(key)) && (key !== 'sga' || canSga);
  const secondaryParam = params.get('secondaryYAxis');
  const secondary: Secondary = (Object.keys(SECONDARY) as Secondary[]).find((s) => s === secondaryParam) ?? 'state_of_charge';
  // Spec 2 §8: an unknown period or secondary axis only logs a console warning, with no message to the user.
  useEffect(() => {
    if (periodParam !== null && periodParam !== period) console.warn(`Unknown period "${periodParam}": showing ${period}.`);
  }, [periodParam, period]);
  useEffect(() => {
    if (secondaryParam !== null && secondaryParam !== secondary) console.warn(`Unknown secondary axis "${secondaryParam}": showing ${secondary}.`);
  }, [secondaryParam, secondary]);
  const split = params.get('splitByPhase') === 'true';
  const submeters = (params.get('submeters') ?? '')
    .split(',')
    .filter(Boolean)
    .map(Number)
    .filter((id) => node.subMeters.some((s) => s.id === id));

  // Keep the whole graph state in the URL, so that any view can be linked and reloaded.
  // biome-ignore lint/correctness/useExhaustiveDependencies: everything here derives from the URL
  const full = useMemo(() => {
    const next = new URLSearchParams(params);
    next.set('date', date);
    next.set('period', period);
    for (const t of TOGGLES) next.set(t.key, String(on(t.key)));
    next.set('secondaryYAxis', secondary);
    next.set('splitByPhase', String(split));
    next.set('submeters', submeters.join(','));
    return next;
  }, [params, date, period, secondary, split, canSga]);
  useEffect(() => {
    if (full.toString() !== params.toString()) setParams(full, { replace: true });
  }, [full, params, setParams]);
  const set = (patch: Record<string, string>) =>
    setParams((p) => {
      for (const [k, v] of Object.entries(patch)) p.set(k, v);
      return p;
    });

  const interval = PERIOD_INTERVAL_S[period];
  const phases = split && node.phases === 3;
  const metrics = new Set<NodeMetric>();
  if (on('house')) metrics.add('housePower');
  if (on('grid')) for (const m of phases ? (['meterPowerA', 'meterPowerB', 'meterPowerC'] as const) : (['meterPower'] as const)) metrics.add(m);
  if (on('solar') || on('system')) metrics.add('solarPower');
  if (on('sga')) metrics.add('meterSGA');
  if (on('battery') || on('system')) metrics.add('batteryPower');
  const secondaryMetrics: NodeMetric[] =
    secondary === 'voltage' && phases ? ['meterVoltageA', 'meterVoltageB', 'meterVoltageC'] : [...SECONDARY[secondary].metrics];
  for (const m of secondaryMetrics) metrics.add(m);
  const series = useNodeSeries(node.id, { metrics: [...metrics], start, end, interval });
  const summary = useNodeSummary(node.id, start, interval);
  const sub0 = useSubmeterSeries(node.id, submeters[0] ?? 0, start, end, interval, submeters.length > 0);
  const sub1 = useSubmeterSeries(node.id, submeters[1] ?? 0, start, end, interval, submeters.length > 1);

  // biome-ignore lint/correctness/useExhaustiveDependencies: recomputed from the fetched data and the URL
  const chart = useMemo(() => {
    const data = series.data ?? {};
    const x = Object.keys(data)
      .map(Number)
      .sort((a, b) => a - b);
    const col = (m: NodeMetric) => x.map((t) => data[t]?.[m] ?? null);
    const lines: ChartSeries[] = [];
    for (const t of TOGGLES) {
      if (!on(t.key)) continue;
      if (t.key === 'grid' && phases) {
        (['meterPowerA', 'meterPowerB', 'meterPowerC'] as const).forEach((m, i) => {
          lines.push({ label: `Grid phase ${'ABC'[i]}`, values: col(m), color: PHASE_COLOURS[i], axis: 'y' });
        });
        continue;
      }
      const values =
        t.key === 'system'
          ? x.map((ts) => {
              const s = data[ts]?.solarPower;
              const b = data[ts]?.batteryPower;
              return s === null || s === undefined || b === null || b === undefined ? null : s - b;
            })
          : col({ house: 'housePower', grid: 'meterPower', solar: 'solarPower', sga: 'meterSGA', battery: 'batteryPower' }[t.key] as NodeMetric);
      lines.push({ label: t.label, values, color: t.color, axis: 'y' });
    }
    const subData = [sub0.data, sub1.data];
    submeters.forEach((id, i) => {
      const d = subData[i] ?? {};
      const name = node.subMeters.find((s) => s.id === id)?.name ?? `Submeter ${id}`;
      lines.push({ label: name, values: x.map((t) => d[t]?.p ?? null), color: i ? '#0c8599' : '#15aabf', axis: 'y', dash: [4, 3] });
    });
    for (const [i, m] of secondaryMetrics.entries()) {
      lines.push({
        label:
          secondaryMetrics.length > 1
            ? `${SECONDARY[secondary].label} ${m.replace(/^meter(Voltage|ReactivePower)|^solarReactivePower/, (s) => (s.startsWith('solar') ? 'solar' : ''))}`.trim()
            : SECONDARY[secondary].label,
        values: col(m),
        color: ['#868e96', '#adb5bd', '#495057'][i],
        axis: 'y2',
        dash: [2, 2],
      });
    }
    const maxAbs = Math.max(0, ...lines.filter((l) => l.axis === 'y').flatMap((l) => l.values.map((v) => Math.abs(v ?? 0))));
    const scale = powerScale(maxAbs);
    for (const l of lines) if (l.axis === 'y' && scale.factor !== 1) l.values = l.values.map((v) => (v === null ? null : v * scale.factor));
    const empty = x.length === 0 || lines.every((l) => l.values.every((v) => v === null));
    return { x, lines, unit: scale.unit, empty };
  }, [series.data, sub0.data, sub1.data, params.toString()]);

  const atStart = date <= startOfPeriodDate(firstDay, period, zone);
  const atEnd = endOfPeriod(start, period, zone) > localDateToEpoch(today, zone);
  const s = summary.data?.summary;

  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap">
        <Group gap="xs">
          <ActionIcon
            variant="default"
            aria-label="Previous"
            onClick={() => set({ date: epochToLocalDate(shiftPeriod(start, period, -1, zone), zone) })}
            style={{ visibility: atStart ? 'hidden' : 'visible' }}
          >
            <IconChevronLeft size={16} />
          </ActionIcon>
          <DatePickerInput
            aria-label="Date"
            valueFormat="DD/MM/YYYY"
            value={date}
            minDate={period === 'week' ? startOfPeriodDate(firstDay, 'week', zone) : firstDay}
            maxDate={today}
            excludeDate={period === 'week' ? (d) => new Date(`${d}T12:00:00Z`).getUTCDay() !== 1 : undefined}
            onChange={(v) => v && set({ date: String(v).slice(0, 10) })}
            w={150}
          />
          <ActionIcon
            variant="default"
            aria-label="Next"
            onClick={() => set({ date: epochToLocalDate(shiftPeriod(start, period, 1, zone), zone) })}
            style={{ visibility: atEnd ? 'hidden' : 'visible' }}
          >
            <IconChevronRight size={16} />
          </ActionIcon>
        </Group>
        <SegmentedControl
          aria-label="Period"
          value={period}
          onChange={(v) => set({ period: v })}
          data={[
            { value: 'day', label: 'Day' },
            { value: 'week', label: 'Week' },
            { value: 'month', label: 'Month' },
            { value: 'year', label: 'Year', disabled: true },
          ]}
        />
      </Group>
      <Group gap="xs">
        {TOGGLES.filter((t) => t.key !== 'sga' || canSga).map((t) => (
          <Chip key={t.key} checked={on(t.key)} onChange={(c) => set({ [t.key]: String(c) })} color={t.color} size="sm">
            {t.label}
          </Chip>
        ))}
        {node.subMeters.map((sm) => (
          <Chip
            key={sm.id}
            size="sm"
            color="cyan"
            checked={submeters.includes(sm.id)}
            onChange={(c) => set({ submeters: (c ? [...submeters, sm.id] : submeters.filter((id) => id !== sm.id)).slice(-2).join(',') })}
          >
            {sm.name}
          </Chip>
        ))}
      </Group>
      <Group gap="lg">
        <Select
          label="Secondary axis"
          data={(Object.keys(SECONDARY) as Secondary[]).map((k) => ({ value: k, label: SECONDARY[k].label }))}
          value={secondary}
          onChange={(v) => v && set({ secondaryYAxis: v })}
          allowDeselect={false}
          w={200}
        />
        {node.phases === 3 && (
          <Checkbox mt="lg" label="Split by phase" checked={split} onChange={(e) => set({ splitByPhase: String(e.currentTarget.checked) })} />
        )}
      </Group>
      <Paper withBorder p="sm">
        {chart.empty && !series.isLoading ? (
          <Text c="dimmed" ta="center" py={120}>
            No data to display on the graph
          </Text>
        ) : (
          <TimeSeriesChart
            label="Monitoring graph"
            x={chart.x}
            series={chart.lines}
            timeZone={zone}
            start={start}
            end={end}
            stripes={STRIPES[period]}
            unit={chart.unit}
            secondaryUnit={SECONDARY[secondary].unit}
          />
        )}
      </Paper>
      <SimpleGrid cols={{ base: 2, md: 4 }} aria-label="Summary">
        {[
          ['Import', s?.meterImport],
          ['Export', s?.meterExport],
          ['Generation', s?.solarGeneration],
          ['Consumption', s?.houseConsumption],
        ].map(([label, v]) => (
          <Paper withBorder p="sm" key={label as string}>
            <Text size="xs" c="dimmed">
              {label}
            </Text>
            <Text fw={600}>{formatEnergy(v as number | undefined)}</Text>
          </Paper>
        ))}
      </SimpleGrid>
    </Stack>
  );
}

function startOfPeriodDate(date: string, period: Period, zone: string): string {
  return epochToLocalDate(startOfPeriod(localDateToEpoch(date, zone), period, zone), zone);
}
