import { Button, Group, Paper, Stack, Text } from '@mantine/core';
import { IconFileExport } from '@tabler/icons-react';
import { EXPORT_VIEW } from '@vpp/shared/exports/permissions';
import type { NodeDetail } from '@vpp/shared/nodes/schemas';
import { epochToLocalDate, localDateToEpoch, localMidnights, PERIOD_INTERVAL_S } from '@vpp/shared/time';
import { useMemo } from 'react';
import { Link } from 'react-router';
import { LoadingSkeleton } from '../../components/loading-skeleton.tsx';
import { preloadChart, TimeSeriesChart } from '../../components/time-series-chart.tsx';
import { usePermission } from '../../lib/permission-gate.tsx';
import { nodeExportLink } from '../exports/index.ts';
import { useNodeSeries, useNodeSummary, useSubmeterSeries } from './api.ts';
import { EnergySummary } from './energy-summary.tsx';
import { buildMonitoringChart, metricsToFetch, SECONDARY, STRIPES, submeterLabels } from './monitoring-chart.ts';
import { AxisOptions, PeriodPicker, SeriesToggles } from './monitoring-controls.tsx';
import { useMonitoringSettings } from './monitoring-settings.ts';

// The graph's code loads beside the tab's data, not after it.
preloadChart();

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
  const canExport = usePermission(EXPORT_VIEW);
  const sub0 = useSubmeterSeries(node.id, submeters[0] ?? 0, start, end, interval, submeters.length > 0);
  const sub1 = useSubmeterSeries(node.id, submeters[1] ?? 0, start, end, interval, submeters.length > 1);

  // In a month view today is a partial day: left out (and marked), not drawn as a whole day's average.
  const todayStart = localDateToEpoch(s.today, zone);
  const partialFrom = s.period === 'month' && todayStart >= start && todayStart < end ? todayStart : undefined;
  const settingsKey = JSON.stringify([s.on, s.secondary, s.phases, submeters, partialFrom]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: recomputed from the fetched data and the settings (through their key)
  const chart = useMemo(() => {
    const subData = [sub0.data, sub1.data];
    const labels = submeterLabels(node.subMeters);
    const subs = submeters.map((id, i) => ({ name: labels.get(id) ?? `Submeter ${id}`, data: subData[i] }));
    return buildMonitoringChart(s, series.data, subs, partialFrom);
  }, [series.data, sub0.data, sub1.data, settingsKey, node.subMeters]);

  return (
    <Stack gap="md">
      <PeriodPicker s={s} zone={zone} />
      <Group justify="space-between" align="flex-start" wrap="wrap">
        <SeriesToggles s={s} node={node} />
        {canExport && (
          // The node's data export: this node, the days shown (up to today) and the series that are on (spec 2 §2).
          <Button
            component={Link}
            to={nodeExportLink({
              deploymentId: node.id,
              start: s.date,
              end: [epochToLocalDate(end - 1, zone), s.today].sort()[0],
              solar: s.on.solar,
              battery: s.on.battery,
              sga: s.on.sga,
            })}
            variant="default"
            size="xs"
            leftSection={<IconFileExport size={14} />}
          >
            Export CSV
          </Button>
        )}
      </Group>
      <AxisOptions s={s} node={node} />
      <Paper withBorder p="sm">
        {chart.omitted !== null && !chart.empty && (
          <Text size="sm" c="dimmed" mb={4}>
            {`Today (${epochToLocalDate(chart.omitted, zone).split('-').reverse().slice(0, 2).join('/')}) is not over yet: its partial day is shaded and not plotted.`}
          </Text>
        )}
        {/* While the first series loads, the chart's place is a skeleton, not empty axes that read as 'no data'. */}
        {series.isLoading ? (
          <LoadingSkeleton variant="chart" height={380} label="Loading graph" />
        ) : chart.empty ? (
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
            // A month is striped by its days (local midnights), so the bands stay on the day ticks in 31-day months.
            stripes={s.period === 'month' ? localMidnights(start, end, zone) : STRIPES[s.period]}
            highlight={chart.omitted === null ? undefined : [chart.omitted, chart.omitted + 86400]}
            unit={chart.unit}
            secondaryUnit={SECONDARY[s.secondary].unit}
          />
        )}
      </Paper>
      <EnergySummary summary={summary.data?.summary} />
    </Stack>
  );
}
