import 'uplot/dist/uPlot.min.css';
import { Box } from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import { padRange, stripeEdges, type TimeSeriesChartProps, tooltipTime } from './time-series-chart-types.ts';

function axisLabel(ts: number, timeZone: string, dates: boolean): string {
  return new Intl.DateTimeFormat(
    'en-AU',
    dates ? { timeZone, day: '2-digit', month: '2-digit' } : { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' },
  ).format(new Date(ts * 1000));
}

/**
 * What the chart is built from: a change here builds a new uPlot instance. New data is given to
 * the chart it has (setData), a new highlight or onSelect is read at the next draw or drag, so a
 * refetch or a re-render never replaces the plot under the user's pointer.
 */
function shapeOf(p: TimeSeriesChartProps): string {
  return JSON.stringify([
    p.label,
    p.timeZone,
    p.start,
    p.end,
    p.stripes,
    p.unit,
    p.secondaryUnit,
    p.yPad,
    p.tickEvery,
    Boolean(p.onSelect),
    p.series.map((s) => [s.label, s.color, s.axis, s.dash]),
  ]);
}

/** Below this width (px) the chart is laid out for a phone. */
const NARROW = 520;

const dataOf = (p: TimeSeriesChartProps) => [p.x, ...p.series.map((s) => s.values)] as uPlot.AlignedData;

/**
 * The uPlot options of a chart of `width` by `height` px: axes in the props' zone and units, the
 * series, the stripes of days and the highlight (read from `live` at each draw), and a drag that
 * selects for onSelect.
 */
function chartOptions(props: TimeSeriesChartProps, live: { current: TimeSeriesChartProps }, width: number, height: number): uPlot.Options {
  const { start, end, stripes } = props;
  // On a phone the plot takes the width: the axes are narrower, in a smaller font, and the side
  // padding shrinks (spec 2 §9's 30 px on each side would leave the plot a third of the screen).
  const narrow = width < NARROW;
  const yAxis = narrow ? { size: 36, labelSize: 14, font: '10px system-ui, sans-serif', labelFont: '11px system-ui, sans-serif' } : { size: 55 };
  return {
    width,
    height,
    // Without a right axis the last time label needs room to the right.
    padding: narrow ? [5, props.secondaryUnit ? 4 : 18, props.compact ? 8 : 50, 4] : [5, 30, props.compact ? 8 : 50, 30],
    tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), props.timeZone),
    scales: {
      x: { time: true, range: [start, end] },
      y: props.yPad === undefined ? { auto: true } : { range: (_u, min, max) => padRange(min, max, props.yPad ?? 0) },
      y2: { auto: true },
    },
    // Dragging selects a range for onSelect instead of zooming.
    cursor: props.onSelect ? { drag: { x: true, y: false, setScale: false } } : undefined,
    axes: [
      {
        stroke: '#495057',
        grid: { stroke: '#f1f3f5' },
        ...(narrow ? { font: yAxis.font } : {}),
        // en-AU labels in the node's zone: times within a day or two, dates beyond, and then
        // ticks only at whole days (local midnights), so that no date is printed twice.
        values: (_u, splits) => {
          // With a fixed tick step every tick keeps its grid line, and only every k-th its label.
          const every = props.tickEvery ? Math.max(1, Math.ceil(48 / ((width - 60) / ((end - start) / props.tickEvery)))) : 1;
          return splits.map((ts) =>
            Math.round((ts - start) / (props.tickEvery ?? 1)) % every === 0 ? axisLabel(ts, props.timeZone, end - start > 2 * 86400) : '',
          );
        },
        ...(props.tickEvery
          ? { incrs: [props.tickEvery], space: 1 }
          : end - start > 2 * 86400
            ? { incrs: [86400, 2 * 86400, 3 * 86400, 7 * 86400, 14 * 86400] }
            : {}),
      },
      { scale: 'y', label: props.unit, stroke: '#495057', grid: { stroke: '#f1f3f5' }, ...yAxis },
      ...(props.secondaryUnit ? [{ scale: 'y2', side: 1 as const, label: props.secondaryUnit, stroke: '#868e96', grid: { show: false }, ...yAxis }] : []),
    ],
    series: [
      {
        value: (_u: uPlot, ts: number | null) => (ts === null ? '–' : tooltipTime(ts, props.timeZone)),
      },
      ...props.series.map((s) => ({
        label: s.label,
        stroke: s.color,
        width: 1.6,
        scale: s.axis,
        dash: s.dash,
        spanGaps: false,
        value: (_u: uPlot, v: number | null) => (v === null ? '–' : `${v.toFixed(2)} ${s.axis === 'y' ? props.unit : (props.secondaryUnit ?? '')}`),
      })),
    ],
    legend: { show: !props.compact },
    hooks: {
      drawClear: [
        (u) => {
          const ctx = u.ctx;
          const edges = stripeEdges(stripes, start, end);
          ctx.save();
          ctx.fillStyle = 'rgba(233, 236, 239, 0.45)';
          for (let i = 1; i < edges.length - 1; i += 2) {
            const x0 = u.valToPos(edges[i], 'x', true);
            const x1 = u.valToPos(edges[i + 1], 'x', true);
            ctx.fillRect(x0, u.bbox.top, x1 - x0, u.bbox.height);
          }
          const highlight = live.current.highlight;
          if (highlight) {
            const x0 = u.valToPos(Math.max(start, highlight[0]), 'x', true);
            const x1 = u.valToPos(Math.min(end, highlight[1]), 'x', true);
            ctx.fillStyle = 'rgba(34, 139, 230, 0.12)';
            ctx.fillRect(x0, u.bbox.top, x1 - x0, u.bbox.height);
          }
          ctx.restore();
        },
      ],
      setSelect: [
        (u) => {
          const onSelect = live.current.onSelect;
          if (!onSelect || u.select.width <= 0) return;
          const from = u.posToVal(u.select.left, 'x');
          const to = u.posToVal(u.select.left + u.select.width, 'x');
          u.setSelect({ left: 0, top: 0, width: 0, height: 0 }, false);
          onSelect(from, to);
        },
      ],
    },
  };
}

/** The uPlot chart of TimeSeriesChart, loaded with the first screen that draws one. */
export default function TimeSeriesChartCanvas(props: TimeSeriesChartProps) {
  const { ref, width } = useElementSize();
  const holder = useRef<HTMLDivElement>(null);
  const chartRef = useRef<uPlot | null>(null);
  // The latest props, for the chart's hooks: they outlive the render that built the chart.
  const live = useRef(props);
  live.current = props;
  const height = props.height ?? 380;
  const shape = shapeOf(props);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the chart is rebuilt only when its shape (the props it is built from), width or height change; data and highlight follow below.
  useEffect(() => {
    if (!holder.current || width === 0) return;
    const props = live.current;
    const opts = chartOptions(props, live, width, height);
    const chart = new uPlot(opts, dataOf(props), holder.current);
    chartRef.current = chart;
    return () => {
      chartRef.current = null;
      chart.destroy();
    };
  }, [shape, width, height]);

  // New data into the chart there is (the first render's data went in with it).
  const { x, series } = props;
  useEffect(() => {
    chartRef.current?.setData([x, ...series.map((s) => s.values)] as uPlot.AlignedData);
  }, [x, series]);
  // A moved highlight is a redraw, not a rebuild.
  const [hFrom, hTo] = props.highlight ?? [];
  useEffect(() => {
    if (hFrom !== undefined && hTo !== undefined) chartRef.current?.redraw(false, false);
  }, [hFrom, hTo]);

  return (
    // The plot is one named image (its text alternative is the data table under it, see TimeSeriesChart).
    <Box ref={ref} w="100%" aria-label={props.label} role="img">
      <div ref={holder} />
    </Box>
  );
}
