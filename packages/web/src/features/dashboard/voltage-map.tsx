import { Box, Group, Paper, Text, VisuallyHidden } from '@mantine/core';
import { heatMapSummary, VOLTAGE_LEGEND } from '@vpp/shared/dashboard/voltage';
import { lazy, Suspense, useEffect, useId } from 'react';
import { useNavigate } from 'react-router';
import { MapSkeleton } from '../../components/node-map.tsx';
import { useHeatMapTiles } from './api.ts';
import { MapOverlay } from './widgets/widget-common.tsx';
import { WidgetError, WidgetLoading, widgetErrorMessage } from './widgets/widget-frame.tsx';

const loadCanvas = () => import('./voltage-map-canvas.tsx');
const VoltageMapCanvas = lazy(loadCanvas);

/** The heat map's legend, compact over the map's top-left corner (the zoom buttons keep the top right). */
export function VoltageLegend() {
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

/**
 * The voltage heat map of a VPP (spec 2 §9): the server's view (its nodes with a fresh voltage, how
 * many are outside the supply band) and its hexagon tiles, with the legend; a click on a hexagon
 * lists its nodes, and a node opens its page.
 */
export function VoltageMap(props: { vpp: number }) {
  const q = useHeatMapTiles(props.vpp);
  const navigate = useNavigate();
  const descriptionId = useId();
  // MapLibre downloads beside the view's request, not after its answer.
  useEffect(() => void loadCanvas().catch(() => undefined), []);
  return (
    <Box
      pos="relative"
      h="100%"
      role="region"
      aria-label="Voltage heat map"
      aria-describedby={descriptionId}
      data-node-count={q.data ? q.data.total : undefined}
      style={{ borderRadius: 8, overflow: 'hidden' }}
    >
      {q.data && <VisuallyHidden id={descriptionId}>{heatMapSummary(q.data.total, q.data.outside)}</VisuallyHidden>}
      <Suspense fallback={<MapSkeleton />}>
        {q.data && <VoltageMapCanvas tiles={q.data} onSelect={(id) => navigate(`/fleet-monitoring/nodes/${id}`)} />}
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
