import { Center, Select, Stack } from '@mantine/core';
import { ALL_FLEET_NODES } from '@vpp/shared/constants';
import { DATA_GRAPH_METRICS, type DataGraphMetric, type Widget } from '@vpp/shared/dashboard/layout';
import { powerScale } from '@vpp/shared/format';
import { useEffect, useState } from 'react';
import { TimeSeriesChart } from '../../../components/time-series-chart.tsx';
import { useTimeZone } from '../../../lib/account.ts';
import { lastDayOf, useCanViewVppData, useWidgetSeries, WIDGET_REFRESH_MS } from '../api.ts';
import { ALL_FLEET_LABEL, METRIC_LABELS, VppSelect } from './widget-common.tsx';
import { WidgetError, WidgetLoading, widgetErrorMessage } from './widget-frame.tsx';

type Settings = Extract<Widget, { widgetId: 'DATA_GRAPH' }>['settings'];

const METRIC_COLOURS: Record<DataGraphMetric, string> = { solarPower: '#f59f00', meterPower: '#1c7ed6', remainingCharge: '#2f9e44' };
/** The height under the chart that its "Show data table" button takes. */
const TABLE_BUTTON_PX = 32;

/** The current time in seconds, ticking every `every` ms (the Data Graph's day follows it). */
function useNowS(every: number): number {
  const [now, setNow] = useState(() => Math.floor(Date.now() / 1000));
  useEffect(() => {
    const t = setInterval(() => setNow(Math.floor(Date.now() / 1000)), every);
    return () => clearInterval(t);
  }, [every]);
  return now;
}

/** The Data Graph's settings: the VPP or the whole fleet (only with fleet.powerstations.data.view), and the metric. */
export function DataGraphSettings(props: { settings: Settings; onChange: (s: Settings) => void }) {
  const canData = useCanViewVppData();
  const s = props.settings;
  return (
    <Stack gap="xs">
      {canData && <VppSelect withFleet value={s.powerstation} onChange={(v) => props.onChange({ ...s, powerstation: v as never })} />}
      <Select
        label="Metric"
        data={DATA_GRAPH_METRICS.map((m) => ({ value: m, label: METRIC_LABELS[m] }))}
        value={s.metric}
        allowDeselect={false}
        comboboxProps={{ withinPortal: false }}
        onChange={(m) => props.onChange({ ...s, metric: (m ?? 'solarPower') as DataGraphMetric })}
      />
    </Stack>
  );
}

export function DataGraphBody(props: { settings: Extract<Widget, { widgetId: 'DATA_GRAPH' }>['settings']; height: number }) {
  const canData = useCanViewVppData();
  const zone = useTimeZone();
  const now = useNowS(WIDGET_REFRESH_MS);
  // The last 24 hours, not the user's day: just after midnight the graph still shows the evening before.
  const { start, end } = lastDayOf(now);
  // Without fleet.powerstations.data.view the graph always shows the whole fleet (spec 2 §6).
  const vpp = canData ? props.settings.powerstation : ALL_FLEET_NODES;
  const metric = props.settings.metric;
  const q = useWidgetSeries(vpp, metric, start, end);
  if (q.isError) return <WidgetError message={widgetErrorMessage(q.error)} />;
  if (!q.data) return <WidgetLoading />;
  if (!q.data.values.some((v) => v !== null)) return <Center h="100%">No data to display on the graph</Center>;
  const max = q.data.values.reduce<number>((m, v) => Math.max(m, Math.abs(v ?? 0)), 0);
  const { unit, factor } = powerScale(max);
  const energy = metric === 'remainingCharge';
  return (
    <TimeSeriesChart
      x={q.data.x}
      series={[{ label: METRIC_LABELS[metric], values: q.data.values.map((v) => (v === null ? null : v * factor)), color: METRIC_COLOURS[metric], axis: 'y' }]}
      timeZone={zone}
      start={start}
      end={end}
      stripes={48}
      unit={energy ? `${unit}h` : unit}
      compact
      // The widget's body less the button under the chart: the plot fills its widget.
      height={Math.max(props.height - TABLE_BUTTON_PX, 100)}
      label={`${METRIC_LABELS[metric]}, ${vpp === ALL_FLEET_NODES ? ALL_FLEET_LABEL : 'Virtual Power Plant'}`}
    />
  );
}
