import { Paper, Stack, Text, Title } from '@mantine/core';
import { DISPATCH_MESSAGES } from '@vpp/shared/dispatches/messages';
import type { DispatchDetail, DispatchPredictions, dispatchRemainingChargeReply, dispatchResponseReply } from '@vpp/shared/dispatches/schemas';
import type { z } from 'zod';
import { type ChartSeries, TimeSeriesChart } from '../../components/time-series-chart.tsx';
import { GRAPH_TICK_S, GRAPH_Y_PAD, graphScale } from './event-format.ts';

type ResponseData = z.infer<typeof dispatchResponseReply>['data'];
type RemainingData = z.infer<typeof dispatchRemainingChargeReply>['data'];

const STEP_S = 300;

/** An event's graphs' window: an hour either side of the event, in buckets of `step` seconds (5 minutes, or as the server answers). */
export function graphWindow(request: { startTime: number; duration: number }, step = STEP_S): { start: number; end: number; x: number[] } {
  const start = request.startTime - (request.startTime % step) - 3600;
  const end = request.startTime + request.duration + 3600;
  const x: number[] = [];
  for (let t = start; t < end; t += step) x.push(t);
  return { start, end, x };
}

/** Series in one unit for the whole axis (kW or MW, kWh or MWh), or null when there is nothing to draw. */
export function scaledSeries(series: { label: string; color: string; values: (number | null)[]; dash?: number[] }[], energy: boolean) {
  const all = series.flatMap((s) => s.values);
  if (all.every((v) => v === null)) return null;
  const { unit, factor } = graphScale(all, energy);
  return {
    unit,
    series: series.map<ChartSeries>((s) => ({ ...s, axis: 'y', values: s.values.map((v) => (v === null ? null : v * factor)) })),
  };
}

function GraphCard(props: {
  title: string;
  label: string;
  start: number;
  end: number;
  x: number[];
  event: [number, number];
  zone: string;
  data: ReturnType<typeof scaledSeries>;
  /** Said above the graph (why part of it is missing). */
  note?: string;
}) {
  return (
    <Paper withBorder p="md">
      <Stack gap="xs">
        <Title order={2} size="h4">
          {props.title}
        </Title>
        {props.note && (
          <Text size="sm" c="dimmed">
            {props.note}
          </Text>
        )}
        {props.data ? (
          <TimeSeriesChart
            x={props.x}
            series={props.data.series}
            timeZone={props.zone}
            start={props.start}
            end={props.end}
            stripes={1}
            highlight={props.event}
            unit={props.data.unit}
            label={props.label}
            height={320}
            tickEvery={GRAPH_TICK_S}
            yPad={GRAPH_Y_PAD}
          />
        ) : (
          <Text c="dimmed">{DISPATCH_MESSAGES.noGraphData}</Text>
        )}
      </Stack>
    </Paper>
  );
}

/**
 * Battery power of the dispatch's VPP: the forecast without the dispatch and with it (the engine's
 * allocation), the request, and what the nodes delivered and refused, measured per 5 minutes.
 * Forecast buckets before now are empty: the measured series stands there.
 */
export function PredictionGraph(props: {
  dispatch: DispatchDetail;
  prediction?: DispatchPredictions;
  response?: ResponseData;
  zone: string;
  /** The dispatch starts beyond the prediction horizon: no prediction yet, and the graph says so. */
  tooFar?: boolean;
}) {
  const { request } = props.dispatch;
  const { start, end, x } = graphWindow(request);
  const at = <T,>(rec: Record<string, T> | null | undefined, t: number) => rec?.[String(t)];
  const inEvent = (t: number) => t >= request.startTime && t < request.startTime + request.duration;
  const data = scaledSeries(
    [
      { label: 'Predicted', color: '#74c0fc', values: x.map((t) => at(props.prediction?.prediction, t)?.batteryPower ?? null) },
      { label: 'Predicted with dispatch', color: '#1c7ed6', values: x.map((t) => at(props.prediction?.adjustedPrediction, t)?.batteryPower ?? null) },
      { label: 'Delivered', color: '#2f9e44', values: x.map((t) => at(props.response?.series, t)?.realPowerP ?? null) },
      { label: 'Rejected', color: '#e03131', values: x.map((t) => at(props.response?.series, t)?.rejectedRealPowerP ?? null) },
      // Drawn last, dashed, so that it shows where a forecast meets it.
      { label: 'Requested', color: '#868e96', dash: [6, 4], values: x.map((t) => (inEvent(t) ? request.realPowerP : null)) },
    ],
    false,
  );
  return (
    <GraphCard
      title="Prediction and Delivered"
      label="Dispatch prediction and delivered power"
      note={props.tooFar ? DISPATCH_MESSAGES.predictionLater : undefined}
      start={start}
      end={end}
      x={x}
      event={[request.startTime, request.startTime + request.duration]}
      zone={props.zone}
      data={data}
    />
  );
}

/** Stored energy of the dispatch's nodes, measured, beside the VPP's forecast with the dispatch applied. */
export function RemainingChargeGraph(props: { dispatch: DispatchDetail; remaining?: RemainingData; prediction?: DispatchPredictions; zone: string }) {
  const { request } = props.dispatch;
  const { start, end, x } = graphWindow(request);
  const data = scaledSeries(
    [
      { label: 'Remaining charge', color: '#2f9e44', values: x.map((t) => props.remaining?.remainingCharge[String(t)] ?? null) },
      {
        label: 'Predicted (whole VPP)',
        color: '#1c7ed6',
        dash: [6, 4],
        values: x.map((t) => props.prediction?.adjustedPrediction?.[String(t)]?.remainingCharge ?? null),
      },
    ],
    true,
  );
  return (
    <GraphCard
      title="Remaining Charge"
      label="Remaining charge"
      start={start}
      end={end}
      x={x}
      event={[request.startTime, request.startTime + request.duration]}
      zone={props.zone}
      data={data}
    />
  );
}
