import { Box, Center, Group, Paper, Select, Stack, Switch, Text, Title, VisuallyHidden } from '@mantine/core';
import {
  ALL_FLEET_NODES,
  DATA_GRAPH_METRICS,
  type DataGraphMetric,
  formatEnergy,
  formatPower,
  MESSAGES,
  powerScale,
  SINGLE_STAT_COUNT_METRICS,
  SINGLE_STAT_VPP_METRICS,
  type SingleStatMetric,
  satisfies,
  WIDGET_NAMES,
  WIDGET_PERMISSIONS,
  type Widget,
} from '@vpp/shared';
import { lazy, type ReactNode, Suspense, useEffect, useId, useState } from 'react';
import { useNavigate } from 'react-router';
import { type MapNode, NodeMap } from '../../../components/node-map.tsx';
import { TimeSeriesChart } from '../../../components/time-series-chart.tsx';
import { useAccount, useTimeZone } from '../../../lib/account.ts';
import { dayOf, useCanViewVppData, useDashboardMap, useLatest, useTotals, useVppChoices, useWidgetSeries, WIDGET_REFRESH_MS } from '../api.ts';
import { heatMapDescription, VOLTAGE_LEGEND, type VoltagePoint } from './heat-map-types.ts';
import { WidgetError, WidgetFrame, WidgetLoading, widgetErrorMessage } from './widget-frame.tsx';

const HeatMapCanvas = lazy(() => import('./heat-map-canvas.tsx'));

/** The metrics' names as the widgets show them. */
export const METRIC_LABELS: Record<SingleStatMetric, string> = {
  commissioned: 'Commissioned',
  non_commissioned: 'Not Commissioned',
  offline: 'Offline',
  solarPower: 'Solar Power',
  meterPower: 'Meter Power',
  remainingCharge: 'Remaining Charge',
};
/** The Data Graph's choice for the whole fleet. */
export const ALL_FLEET_LABEL = 'All fleet nodes';
export const CHOOSE_VPP = 'Choose a Virtual Power Plant in this widget’s settings.';

const METRIC_COLOURS: Record<DataGraphMetric, string> = { solarPower: '#f59f00', meterPower: '#1c7ed6', remainingCharge: '#2f9e44' };

/** The current time in seconds, ticking every `every` ms (the Data Graph's day follows it). */
function useNowS(every: number): number {
  const [now, setNow] = useState(() => Math.floor(Date.now() / 1000));
  useEffect(() => {
    const t = setInterval(() => setNow(Math.floor(Date.now() / 1000)), every);
    return () => clearInterval(t);
  }, [every]);
  return now;
}

function useVppName(id: number | null | string): string | undefined {
  const vpps = useVppChoices();
  if (id === null || typeof id === 'string') return undefined;
  return vpps.data?.find((v) => v.id === id)?.name ?? `Virtual Power Plant ${id}`;
}

function VppSelect(props: { value: number | string | null; onChange: (v: number | string | null) => void; withFleet?: boolean }) {
  const vpps = useVppChoices();
  const data = [
    ...(props.withFleet ? [{ value: ALL_FLEET_NODES, label: ALL_FLEET_LABEL }] : []),
    ...(vpps.data ?? []).map((v) => ({ value: String(v.id), label: v.name })),
  ];
  return (
    <Select
      label="Virtual Power Plant"
      placeholder={vpps.isLoading ? 'Loading...' : 'Choose a Virtual Power Plant'}
      data={data}
      value={props.value === null ? null : String(props.value)}
      onChange={(v) => props.onChange(v === null ? null : v === ALL_FLEET_NODES ? ALL_FLEET_NODES : Number(v))}
      searchable
      allowDeselect={false}
      comboboxProps={{ withinPortal: false }}
    />
  );
}

/** A widget's settings form (spec 2 §3: VPP, metric, clustering), per kind; null for kinds without settings. */
export function WidgetSettings(props: { widget: Widget; onChange: (settings: Widget['settings']) => void }) {
  const canData = useCanViewVppData();
  const vpps = useVppChoices();
  const w = props.widget;
  switch (w.widgetId) {
    case 'VOLTAGE_HEAT_MAP':
      return <VppSelect value={w.settings.powerstation} onChange={(v) => props.onChange({ powerstation: v as number })} />;
    case 'SINGLE_STAT': {
      const metrics = canData && (vpps.data?.length ?? 0) > 0 ? [...SINGLE_STAT_COUNT_METRICS, ...SINGLE_STAT_VPP_METRICS] : [...SINGLE_STAT_COUNT_METRICS];
      const needsVpp = (SINGLE_STAT_VPP_METRICS as readonly string[]).includes(w.settings.metric);
      return (
        <Stack gap="xs">
          <Select
            label="Metric"
            data={metrics.map((m) => ({ value: m, label: METRIC_LABELS[m] }))}
            value={w.settings.metric}
            allowDeselect={false}
            comboboxProps={{ withinPortal: false }}
            onChange={(m) => {
              const metric = (m ?? 'commissioned') as SingleStatMetric;
              // A VPP's figure needs a VPP: the first one until the user chooses another.
              const vpp = w.settings.powerstation ?? vpps.data?.[0]?.id ?? null;
              const forVpp = (SINGLE_STAT_VPP_METRICS as readonly string[]).includes(metric);
              if (!forVpp || vpp !== null) props.onChange({ metric, powerstation: forVpp ? vpp : w.settings.powerstation });
            }}
          />
          {needsVpp && <VppSelect value={w.settings.powerstation} onChange={(v) => props.onChange({ metric: w.settings.metric, powerstation: v as number })} />}
        </Stack>
      );
    }
    case 'NODE_MAP':
      return <Switch label="Cluster nodes" checked={w.settings.shouldCluster} onChange={(e) => props.onChange({ shouldCluster: e.currentTarget.checked })} />;
    case 'DATA_GRAPH':
      return (
        <Stack gap="xs">
          {canData && <VppSelect withFleet value={w.settings.powerstation} onChange={(v) => props.onChange({ ...w.settings, powerstation: v as never })} />}
          <Select
            label="Metric"
            data={DATA_GRAPH_METRICS.map((m) => ({ value: m, label: METRIC_LABELS[m] }))}
            value={w.settings.metric}
            allowDeselect={false}
            comboboxProps={{ withinPortal: false }}
            onChange={(m) => props.onChange({ ...w.settings, metric: (m ?? 'solarPower') as DataGraphMetric })}
          />
        </Stack>
      );
    default:
      return null;
  }
}

/** The subtitle under a widget's name: what it shows. */
export function useWidgetSubtitle(w: Widget): string | undefined {
  const canData = useCanViewVppData();
  const vpp = useVppName('powerstation' in w.settings ? w.settings.powerstation : null);
  switch (w.widgetId) {
    case 'VOLTAGE_HEAT_MAP':
      return vpp;
    case 'SINGLE_STAT':
      return [METRIC_LABELS[w.settings.metric], vpp].filter(Boolean).join(' · ');
    case 'NODE_MAP':
      return w.settings.shouldCluster ? 'Clustered' : 'Every node';
    case 'DATA_GRAPH':
      return `${METRIC_LABELS[w.settings.metric]} · ${!canData || w.settings.powerstation === ALL_FLEET_NODES ? ALL_FLEET_LABEL : vpp}`;
    default:
      return undefined;
  }
}

const ORG_WORDS = { RETAILER: 'retailer', NETWORK: 'network operator', INSTALLER: 'installer' } as const;

function WelcomeBody() {
  const { data: account } = useAccount();
  return (
    <Stack gap="xs">
      <Title order={3} size="h4">
        Welcome, {account?.givenName}
      </Title>
      <Text size="sm">
        You are signed in to {account?.suborg_name}, a {account ? ORG_WORDS[account.suborg_type] : ''} account. From here you watch your fleet of home solar and
        battery systems, group them into virtual power plants and put them to work.
      </Text>
      <Text size="sm" c="dimmed">
        Add Widget puts live figures, maps and graphs of your fleet here; drag a widget by its title and resize it from its corner.
      </Text>
    </Stack>
  );
}

/** The heat map's legend, compact over the map's top-left corner (the zoom buttons keep the top right). */
function VoltageLegend() {
  const entries = [VOLTAGE_LEGEND.below, ...VOLTAGE_LEGEND.scale.map((e) => ({ label: e.label, colour: e.colours })), VOLTAGE_LEGEND.above];
  return (
    <Paper pos="absolute" left={6} top={6} right={44} px={6} py={2} shadow="xs" withBorder style={{ zIndex: 1, opacity: 0.95, width: 'fit-content' }}>
      <Group component="ul" aria-label="Legend" m={0} p={0} gap={8} style={{ listStyle: 'none', rowGap: 0 }}>
        {entries.map((e) => (
          <Group component="li" key={e.label} gap={3} wrap="nowrap">
            {(Array.isArray(e.colour) ? e.colour : [e.colour]).map((c) => (
              <Box key={c} w={10} h={10} bg={c} style={{ borderRadius: '50%', flex: 'none' }} aria-hidden />
            ))}
            <Text fz={11} lh={1.6}>
              {e.label}
            </Text>
          </Group>
        ))}
      </Group>
    </Paper>
  );
}

/** Over a map while its data loads or after its call failed: the map itself is made at once, so that MapLibre starts while the data is on its way. */
function MapOverlay(props: { children: ReactNode }) {
  return (
    <Box pos="absolute" inset={0} bg="var(--mantine-color-body)" style={{ zIndex: 2 }}>
      {props.children}
    </Box>
  );
}

const NO_POINTS: VoltagePoint[] = [];

function HeatMapBody(props: { vpp: number | null }) {
  const q = useLatest(props.vpp, 'meterVoltage');
  const descriptionId = useId();
  if (props.vpp === null) return <Center h="100%">{CHOOSE_VPP}</Center>;
  const points = (q.data as VoltagePoint[] | undefined) ?? NO_POINTS;
  return (
    <Box
      pos="relative"
      h="100%"
      role="region"
      aria-label="Voltage heat map"
      aria-describedby={descriptionId}
      data-node-count={q.data ? points.length : undefined}
      style={{ borderRadius: 8, overflow: 'hidden' }}
    >
      {q.data && <VisuallyHidden id={descriptionId}>{heatMapDescription(points)}</VisuallyHidden>}
      <Suspense fallback={null}>
        <HeatMapCanvas points={points} />
      </Suspense>
      <VoltageLegend />
      {q.isError ? (
        <MapOverlay>
          <WidgetError message={widgetErrorMessage(q.error)} />
        </MapOverlay>
      ) : (
        !q.data && (
          <MapOverlay>
            <WidgetLoading />
          </MapOverlay>
        )
      )}
    </Box>
  );
}

function BigNumber(props: { value: string; label: string; note?: string; height: number }) {
  return (
    <Center h="100%">
      <Stack gap={0} align="center">
        <Text fz={Math.round(Math.min(160, Math.max(36, props.height * 0.28)))} fw={700} lh={1.1} data-testid="single-stat-value">
          {props.value}
        </Text>
        <Text size="sm" c="dimmed">
          {props.label}
        </Text>
        {props.note && (
          <Text size="xs" c="dimmed">
            {props.note}
          </Text>
        )}
      </Stack>
    </Center>
  );
}

function CountStat(props: { metric: (typeof SINGLE_STAT_COUNT_METRICS)[number]; height: number }) {
  const q = useTotals();
  if (q.isError) return <WidgetError message={widgetErrorMessage(q.error)} />;
  if (!q.data) return <WidgetLoading />;
  const n = q.data[props.metric];
  return <BigNumber height={props.height} value={n.toLocaleString('en-AU')} label={`${METRIC_LABELS[props.metric]} ${n === 1 ? 'node' : 'nodes'}`} />;
}

function VppStat(props: { metric: (typeof SINGLE_STAT_VPP_METRICS)[number]; vpp: number; height: number }) {
  const q = useLatest(props.vpp, props.metric);
  if (q.isError) return <WidgetError message={widgetErrorMessage(q.error)} />;
  if (!q.data) return <WidgetLoading />;
  const total = q.data.reduce((s, p) => s + p.value, 0);
  const value = props.metric === 'remainingCharge' ? formatEnergy(total) : formatPower(total);
  return (
    <BigNumber
      height={props.height}
      value={value}
      label={METRIC_LABELS[props.metric]}
      note={`${q.data.length} ${q.data.length === 1 ? 'node' : 'nodes'} reporting`}
    />
  );
}

function SingleStatBody(props: { settings: Extract<Widget, { widgetId: 'SINGLE_STAT' }>['settings']; height: number }) {
  const canData = useCanViewVppData();
  const { metric, powerstation } = props.settings;
  if (metric === 'commissioned' || metric === 'non_commissioned' || metric === 'offline') return <CountStat metric={metric} height={props.height} />;
  if (!canData) return <WidgetError message={MESSAGES.notAuthorized} />;
  if (powerstation === null) return <Center h="100%">{CHOOSE_VPP}</Center>;
  return <VppStat metric={metric} vpp={powerstation} height={props.height} />;
}

const NO_NODES: MapNode[] = [];

function NodeMapBody(props: { cluster: boolean; height: number }) {
  const q = useDashboardMap();
  const navigate = useNavigate();
  return (
    <Box pos="relative" h="100%">
      <NodeMap
        nodes={q.data ?? NO_NODES}
        height={Math.max(props.height, 120)}
        fitWindow={false}
        cluster={props.cluster}
        label="Map of the fleet"
        listedBy="the Fleet Monitoring page"
        onSelect={(id) => navigate(`/fleet-monitoring/nodes/${id}`)}
      />
      {q.isError ? (
        <MapOverlay>
          <WidgetError message={widgetErrorMessage(q.error)} />
        </MapOverlay>
      ) : (
        !q.data && (
          <MapOverlay>
            <WidgetLoading />
          </MapOverlay>
        )
      )}
    </Box>
  );
}

function DataGraphBody(props: { settings: Extract<Widget, { widgetId: 'DATA_GRAPH' }>['settings']; height: number }) {
  const canData = useCanViewVppData();
  const zone = useTimeZone();
  const now = useNowS(WIDGET_REFRESH_MS);
  const { start, end } = dayOf(now, zone);
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
      height={Math.max(props.height - 80, 100)}
      label={`${METRIC_LABELS[metric]}, ${vpp === ALL_FLEET_NODES ? ALL_FLEET_LABEL : 'Virtual Power Plant'}`}
    />
  );
}

/** The body of a widget of any kind; a widget the user may no longer load says so. */
export function WidgetBody(props: { widget: Widget; height: number }) {
  const { data: account } = useAccount();
  const w = props.widget;
  const need = WIDGET_PERMISSIONS[w.widgetId];
  if (need && account && !satisfies(account.permissions, need)) return <WidgetError message={MESSAGES.notAuthorized} />;
  switch (w.widgetId) {
    case 'WELCOME':
      return <WelcomeBody />;
    case 'VOLTAGE_HEAT_MAP':
      return <HeatMapBody vpp={w.settings.powerstation} />;
    case 'SINGLE_STAT':
      return <SingleStatBody settings={w.settings} height={props.height} />;
    case 'NODE_MAP':
      return <NodeMapBody cluster={w.settings.shouldCluster} height={props.height} />;
    case 'DATA_GRAPH':
      return <DataGraphBody settings={w.settings} height={props.height} />;
  }
}

/** A widget in its frame: on the grid with settings and removal, in full screen without. */
export function WidgetView(props: { widget: Widget; onSettings?: (s: Widget['settings']) => void; onRemove?: () => void; large?: boolean }) {
  const subtitle = useWidgetSubtitle(props.widget);
  const hasSettings = props.widget.widgetId !== 'WELCOME';
  return (
    <WidgetFrame
      title={WIDGET_NAMES[props.widget.widgetId]}
      subtitle={subtitle}
      large={props.large}
      onRemove={props.onRemove}
      settings={hasSettings && props.onSettings ? <WidgetSettings widget={props.widget} onChange={props.onSettings} /> : undefined}
    >
      {(height) => <WidgetBody widget={props.widget} height={height} />}
    </WidgetFrame>
  );
}
