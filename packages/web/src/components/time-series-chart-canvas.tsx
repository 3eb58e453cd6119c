import 'uplot/dist/uPlot.min.css';
import { Box } from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import type { TimeSeriesChartProps } from './time-series-chart-types.ts';

function axisLabel(ts: number, timeZone: string, dates: boolean): string {
  return new Intl.DateTimeFormat(
    'en-AU',
    dates ? { timeZone, day: '2-digit', month: '2-digit' } : { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' },
  ).format(new Date(ts * 1000));
}

/** The uPlot chart of TimeSeriesChart, loaded with the first screen that draws one. */
export default function TimeSeriesChartCanvas(props: TimeSeriesChartProps) {
  const { ref, width } = useElementSize();
  const holder = useRef<HTMLDivElement>(null);
  const height = props.height ?? 380;

  useEffect(() => {
    if (!holder.current || width === 0) return;
    const { start, end, stripes } = props;
    const opts: uPlot.Options = {
      width,
      height,
      padding: [5, 30, 50, 30],
      tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), props.timeZone),
      scales: { x: { time: true, range: [start, end] }, y: { auto: true }, y2: { auto: true } },
      axes: [
        {
          stroke: '#495057',
          grid: { stroke: '#f1f3f5' },
          // en-AU labels in the node's zone: times within a day or two, dates beyond, and then
          // ticks only at whole days (local midnights), so that no date is printed twice.
          values: (_u, splits) => splits.map((ts) => axisLabel(ts, props.timeZone, end - start > 2 * 86400)),
          ...(end - start > 2 * 86400 ? { incrs: [86400, 2 * 86400, 3 * 86400, 7 * 86400, 14 * 86400] } : {}),
        },
        { scale: 'y', label: props.unit, stroke: '#495057', grid: { stroke: '#f1f3f5' }, size: 55 },
        ...(props.secondaryUnit ? [{ scale: 'y2', side: 1 as const, label: props.secondaryUnit, stroke: '#868e96', grid: { show: false }, size: 55 }] : []),
      ],
      series: [
        {
          value: (_u: uPlot, ts: number | null) =>
            ts === null
              ? '–'
              : new Intl.DateTimeFormat('en-AU', {
                  timeZone: props.timeZone,
                  day: '2-digit',
                  month: '2-digit',
                  hour: '2-digit',
                  minute: '2-digit',
                  hourCycle: 'h23',
                }).format(new Date(ts * 1000)),
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
      legend: { show: true },
      hooks: {
        drawClear: [
          (u) => {
            const ctx = u.ctx;
            const w = (end - start) / stripes;
            ctx.save();
            ctx.fillStyle = 'rgba(233, 236, 239, 0.45)';
            for (let i = 1; i < stripes; i += 2) {
              const x0 = u.valToPos(start + i * w, 'x', true);
              const x1 = u.valToPos(start + (i + 1) * w, 'x', true);
              ctx.fillRect(x0, u.bbox.top, x1 - x0, u.bbox.height);
            }
            ctx.restore();
          },
        ],
      },
    };
    const chart = new uPlot(opts, [props.x, ...props.series.map((s) => s.values)] as uPlot.AlignedData, holder.current);
    return () => chart.destroy();
  }, [props, width, height]);

  return (
    <Box ref={ref} w="100%" aria-label={props.label} role="img">
      <div ref={holder} />
    </Box>
  );
}
