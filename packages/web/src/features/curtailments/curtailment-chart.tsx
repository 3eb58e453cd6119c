import { type AnyCurtailmentComponent, CURTAILMENT_MESSAGES, curtailmentLimitLabel } from '@vpp/shared/curtailments/messages';
import { memo, useMemo } from 'react';
import { EventChartFrame, graphWindow, scaledSeries } from '../events/index.ts';

/** kW per bucket keyed by its start (epoch seconds), as the prediction and response carry them. */
type KwSeries = Record<string, number | null>;

export interface CurtailmentChartData {
  predicted?: { solarPower: KwSeries; meterPower: KwSeries };
  measured?: { solarPower: KwSeries; meterPower: KwSeries };
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
): ReturnType<typeof scaledSeries> {
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
  return scaledSeries([...raw, limitSeries], false);
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
  const { start, end, x } = useMemo(() => graphWindow({ startTime, duration }, step), [startTime, duration, step]);
  const drawn = useMemo(
    () => curtailmentSeries(x, data, { component, realPowerP, startTime, duration }),
    [x, data, component, realPowerP, startTime, duration],
  );
  const highlight = useMemo((): [number, number] => [startTime, startTime + duration], [startTime, duration]);
  return (
    <EventChartFrame
      warnings={[props.warning]}
      chart={
        drawn && {
          label: props.label,
          x,
          series: drawn.series,
          timeZone: props.zone,
          start,
          end,
          stripes: 1,
          unit: drawn.unit,
          highlight,
        }
      }
      loading={props.loading}
      empty={CURTAILMENT_MESSAGES.noGraphData}
      height={props.height ?? 260}
    />
  );
});
