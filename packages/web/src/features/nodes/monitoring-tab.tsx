import { Paper, Stack, Text } from '@mantine/core';
import { type NodeDetail, PERIOD_INTERVAL_S } from '@vpp/shared';
import { useMemo } from 'react';
import { TimeSeriesChart } from '../../components/time-series-chart.tsx';
import { useNodeSeries, useNodeSummary, useSubmeterSeries } from './api.ts';
import { EnergySummary } from './energy-summary.tsx';
import { buildMonitoringChart, metricsToFetch, SECONDARY, STRIPES } from './monitoring-chart.ts';
import { AxisOptions, PeriodPicker, SeriesToggles } from './monitoring-controls.tsx';
import { useMonitoringSettings } from './monitoring-settings.ts';

/**
 * The Monitoring tab: every graph setting lives in the URL (date, period, the series toggles,
 * secondaryYAxis, splitByPhase, submeters) and the URL is rewritten on every change.
 */
export function MonitoringTab({ node }: { node: NodeDetail }) {
  const s = useMonitoringSettings(node);
  const zone = node.timezone;
  const interval = PERIOD_INTERVAL_S[s.period];
  const { start, end, submeters } = s;
  const series = useNodeSeries(node.id, { metrics: metricsToFetch(s), start, end, interval });
  const summary = useNodeSummary(node.id, start, interval);
  const sub0 = useSubmeterSeries(node.id, submeters[0] ?? 0, start, end, interval, submeters.length > 0);
  const sub1 = useSubmeterSeries(node.id, submeters[1] ?? 0, start, end, interval, submeters.length > 1);

  const settingsKey = JSON.stringify([s.on, s.secondary, s.phases, submeters]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: recomputed from the fetched data and the settings (through their key)
  const chart = useMemo(() => {
    const subData = [sub0.data, sub1.data];
    const subs = submeters.map((id, i) => ({ name: node.subMeters.find((m) => m.id === id)?.name ?? `Submeter ${id}`, data: subData[i] }));
    return buildMonitoringChart(s, series.data, subs);
  }, [series.data, sub0.data, sub1.data, settingsKey, node.subMeters]);

  return (
    <Stack gap="md">
      <PeriodPicker s={s} zone={zone} />
      <SeriesToggles s={s} node={node} />
      <AxisOptions s={s} node={node} />
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
            stripes={STRIPES[s.period]}
            unit={chart.unit}
            secondaryUnit={SECONDARY[s.secondary].unit}
          />
        )}
      </Paper>
      <EnergySummary summary={summary.data?.summary} />
    </Stack>
  );
}
