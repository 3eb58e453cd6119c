import { Center, Select, Stack, Text } from '@mantine/core';
import { SINGLE_STAT_COUNT_METRICS, SINGLE_STAT_VPP_METRICS, type SingleStatMetric, type Widget } from '@vpp/shared/dashboard/layout';
import { formatEnergy, formatPower } from '@vpp/shared/format';
import { MESSAGES } from '@vpp/shared/messages';
import { useCanViewVppData, useLatestTotal, useTotals, useVppChoices } from '../api.ts';
import { CHOOSE_VPP, METRIC_LABELS, VppSelect } from './widget-common.tsx';
import { WidgetError, WidgetLoading, widgetErrorMessage } from './widget-frame.tsx';

type Settings = Extract<Widget, { widgetId: 'SINGLE_STAT' }>['settings'];

/** The Single Stat's settings: its metric, and a VPP for a VPP's figure (only with fleet.powerstations.data.view and a VPP to choose). */
export function SingleStatSettings(props: { settings: Settings; onChange: (s: Settings) => void }) {
  const canData = useCanViewVppData();
  const vpps = useVppChoices();
  const s = props.settings;
  const metrics = canData && (vpps.data?.length ?? 0) > 0 ? [...SINGLE_STAT_COUNT_METRICS, ...SINGLE_STAT_VPP_METRICS] : [...SINGLE_STAT_COUNT_METRICS];
  const needsVpp = (SINGLE_STAT_VPP_METRICS as readonly string[]).includes(s.metric);
  return (
    <Stack gap="xs">
      <Select
        label="Metric"
        data={metrics.map((m) => ({ value: m, label: METRIC_LABELS[m] }))}
        value={s.metric}
        allowDeselect={false}
        comboboxProps={{ withinPortal: false }}
        onChange={(m) => {
          const metric = (m ?? 'commissioned') as SingleStatMetric;
          // A VPP's figure needs a VPP: the first one until the user chooses another.
          const vpp = s.powerstation ?? vpps.data?.[0]?.id ?? null;
          const forVpp = (SINGLE_STAT_VPP_METRICS as readonly string[]).includes(metric);
          if (!forVpp || vpp !== null) props.onChange({ metric, powerstation: forVpp ? vpp : s.powerstation });
        }}
      />
      {needsVpp && <VppSelect value={s.powerstation} onChange={(v) => props.onChange({ metric: s.metric, powerstation: v as number })} />}
    </Stack>
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
  const q = useLatestTotal(props.vpp, props.metric);
  if (q.isError) return <WidgetError message={widgetErrorMessage(q.error)} />;
  if (!q.data) return <WidgetLoading />;
  const { value: total, nodes } = q.data;
  const value = props.metric === 'remainingCharge' ? formatEnergy(total) : formatPower(total);
  return <BigNumber height={props.height} value={value} label={METRIC_LABELS[props.metric]} note={`${nodes} ${nodes === 1 ? 'node' : 'nodes'} reporting`} />;
}

export function SingleStatBody(props: { settings: Extract<Widget, { widgetId: 'SINGLE_STAT' }>['settings']; height: number }) {
  const canData = useCanViewVppData();
  const { metric, powerstation } = props.settings;
  if (metric === 'commissioned' || metric === 'non_commissioned' || metric === 'offline') return <CountStat metric={metric} height={props.height} />;
  if (!canData) return <WidgetError message={MESSAGES.notAuthorized} />;
  if (powerstation === null) return <Center h="100%">{CHOOSE_VPP}</Center>;
  return <VppStat metric={metric} vpp={powerstation} height={props.height} />;
}
