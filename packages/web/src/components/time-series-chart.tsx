import { Box } from '@mantine/core';
import { lazy, Suspense } from 'react';
import type { TimeSeriesChartProps } from './time-series-chart-types.ts';

export type { ChartSeries, TimeSeriesChartProps } from './time-series-chart-types.ts';

// uPlot loads with the first screen that draws a chart.
const TimeSeriesChartCanvas = lazy(() => import('./time-series-chart-canvas.tsx'));

/**
 * A canvas time-series chart (uPlot): power on the left axis, an optional secondary quantity on
 * the right, times shown in `timeZone`, zebra stripes splitting [start, end) into `stripes` bands,
 * and the graph padding of spec 2 §9 (top 5, left 30, right 30, bottom 50).
 * While uPlot loads, an empty box of the chart's height holds its place.
 */
export function TimeSeriesChart(props: TimeSeriesChartProps) {
  return (
    <Suspense fallback={<Box h={props.height ?? 380} w="100%" />}>
      <TimeSeriesChartCanvas {...props} />
    </Suspense>
  );
}
