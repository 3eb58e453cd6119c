import { Alert, Box, Center, Stack, Text } from '@mantine/core';
import { type AnyCurtailmentComponent, CURTAILMENT_MESSAGES, curtailmentLimitLabel } from '@vpp/shared/curtailments/messages';
import { memo, useMemo } from 'react';
import { DelayedLoader } from '../../components/delayed-loader.tsx';
import { type ChartSeries, TimeSeriesChart } from '../../components/time-series-chart.tsx';
import { GRAPH_TICK_S, GRAPH_Y_PAD, graphScale } from '../events/index.ts';

/** kW per bucket keyed by its start (epoch seconds), as the prediction and response carry them. */
type KwSeries = Record<string, number | null>;

export interface CurtailmentChartData {
  predicted?: { solarPower: KwSeries; meterPower: KwSeries };
  measured?: { solarPower: KwSeries; meterPower: KwSeries };
}

/** The graph's window: an hour either side of the curtailment, in buckets of `step` seconds (as the server answers). */
export function chartWindow(startTime: number, duration: number, step: number): { start: number; end: number; x: number[] } {
  const start = startTime - (startTime % step) - 3600;
  const end = startTime + duration + 3600;
  const x: number[] = [];
  for (let t = start; t < end; t += step) x.push(t);
  return { start, end, x };
}

/**
 * The limit as drawn against the series it bounds: a net limit bounds the meter power (negative is
 * export, so the meters stay at or above it), a gross one the solar power (generation is positive,
 * so the solar stays at or below its magnitude); an import limit bounds the meter power from above
 * (positive is import, so the meters stay at or below it).
 */
export const limitLine = (component: AnyCurtailmentComponent, realPowerP: number) => (component === 'solar' ? -realPowerP : realPowerP) || 0;

/**
 * The series of a curtailment's graph (spec 3 §2.7): solar and meter power predicted (dashed) and
 * measured, and the limit across the window, in kW or MW; null when there is nothing to draw.
 */
export function curtailmentSeries(
  x: number[],
  data: CurtailmentChartData,
  limit: { component: AnyCurtailmentComponent; realPowerP: number; startTime: number; duration: number },
): { series: ChartSeries[]; unit: string } | null {
  const at = (s: KwSeries | undefined, t: number) => s?.[String(t)] ?? null;
  const raw = [
    { label: 'Solar predicted', color: '#fab005', dash: [6, 4], values: x.map((t) => at(data.predicted?.solarPower, t)) },
    { label: 'Meter predicted', color: '#74c0fc', dash: [6, 4], values: x.map((t) => at(data.predicted?.meterPower, t)) },
    ...(data.measured
      ? [
          { label: 'Solar measured', color: '#f08c00', values: x.map((t) => at(data.measured?.solarPower, t)) },
          { label: 'Meter measured', color: '#1c7ed6', values: x.map((t) => at(data.measured?.meterPower, t)) },
        ]
      : []),
  ];
  if (raw.every((s) => s.values.every((v) => v === null))) return null;
  const end = limit.startTime + limit.duration;
  const kw = limitLine(limit.component, limit.realPowerP);
  const limitSeries = {
    label: curtailmentLimitLabel(limit.component),
    color: '#e03131',
    dash: [2, 3],
    values: x.map((t) => (t >= limit.startTime && t < end ? kw : null)),
  };
  const all = [...raw, limitSeries];
  const { unit, factor } = graphScale(
    all.flatMap((s) => s.values),
    false,
  );
  return { unit, series: all.map<ChartSeries>((s) => ({ ...s, axis: 'y', values: s.values.map((v) => (v === null ? null : v * factor)) })) };
}

/**
 * A curtailment's graph, in the New Curtailment modal (predicted only) and on its detail (predicted
 * and measured): the window shaded, the limit drawn across it; the prediction's warning above.
 */
export const CurtailmentChart = memo(function CurtailmentChart(props: {
  data: CurtailmentChartData;
  warning?: string | null;
  loading: boolean;
  zone: string;
  component: AnyCurtailmentComponent;
  realPowerP: number;
  startTime: number;
  duration: number;
  /** The series' bucket length, seconds (the replies' interval). */
  step: number;
  height?: number;
  label: string;
}) {
  const { data, component, realPowerP, startTime, duration, step } = props;
  const height = props.height ?? 260;
  const { start, end, x } = useMemo(() => chartWindow(startTime, duration, step), [startTime, duration, step]);
  const drawn = useMemo(
    () => curtailmentSeries(x, data, { component, realPowerP, startTime, duration }),
    [x, data, component, realPowerP, startTime, duration],
  );
  const highlight = useMemo((): [number, number] => [startTime, startTime + duration], [startTime, duration]);
  return (
    <Stack gap={4}>
      {props.warning && (
        <Alert color="yellow" variant="light" p="xs">
          {props.warning}
        </Alert>
      )}
      <Box pos="relative" mih={height}>
        {drawn ? (
          <TimeSeriesChart
            label={props.label}
            x={x}
            series={drawn.series}
            timeZone={props.zone}
            start={start}
            end={end}
            stripes={1}
            unit={drawn.unit}
            height={height}
            yPad={GRAPH_Y_PAD}
            tickEvery={GRAPH_TICK_S}
            highlight={highlight}
          />
        ) : props.loading ? (
          <DelayedLoader minHeight={height} label="Loading prediction" />
        ) : (
          <Center mih={height}>
            <Text c="dimmed">{CURTAILMENT_MESSAGES.noGraphData}</Text>
          </Center>
        )}
      </Box>
    </Stack>
  );
});
