import { Box, Center, Group, Paper, Text, VisuallyHidden } from '@mantine/core';
import type { Widget } from '@vpp/shared';
import { lazy, Suspense, useId } from 'react';
import { useLatest } from '../api.ts';
import { heatMapDescription, VOLTAGE_LEGEND, type VoltagePoint } from './heat-map-types.ts';
import { CHOOSE_VPP, MapOverlay, VppSelect } from './widget-common.tsx';
import { WidgetError, WidgetLoading, widgetErrorMessage } from './widget-frame.tsx';

const HeatMapCanvas = lazy(() => import('./heat-map-canvas.tsx'));

type Settings = Extract<Widget, { widgetId: 'VOLTAGE_HEAT_MAP' }>['settings'];

/** The Voltage Heat Map's settings: its VPP. */
export function HeatMapSettings(props: { settings: Settings; onChange: (s: Settings) => void }) {
  return <VppSelect value={props.settings.powerstation} onChange={(v) => props.onChange({ powerstation: v as number })} />;
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

const NO_POINTS: VoltagePoint[] = [];

export function HeatMapBody(props: { vpp: number | null }) {
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
