import { Box, Switch } from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import type { Widget } from '@vpp/shared/dashboard/layout';
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { NodeMap, preloadNodeMapCanvas } from '../../../components/node-map.tsx';
import { useDashboardMapTiles } from '../api.ts';
import { MapOverlay } from './widget-common.tsx';
import { WidgetError, WidgetLoading, widgetErrorMessage } from './widget-frame.tsx';

type Settings = Extract<Widget, { widgetId: 'NODE_MAP' }>['settings'];

/** The Node Map's settings: clustering. */
export function NodeMapSettings(props: { settings: Settings; onChange: (s: Settings) => void }) {
  return <Switch label="Cluster nodes" checked={props.settings.shouldCluster} onChange={(e) => props.onChange({ shouldCluster: e.currentTarget.checked })} />;
}

/**
 * The fleet's nodes over the server's vector tiles of its view (clustered or every node, issue 30);
 * the map takes what its legend, in a line below it, leaves (a widget has no corner to spare for it).
 */
export function NodeMapBody(props: { cluster: boolean; height: number }) {
  const q = useDashboardMapTiles();
  const navigate = useNavigate();
  const legend = useElementSize();
  // The widget is in the window: MapLibre downloads beside the view's request.
  useEffect(() => preloadNodeMapCanvas(), []);
  return (
    <Box pos="relative" h="100%">
      <NodeMap
        tiles={q.data}
        height={Math.max(props.height - (legend.height ? legend.height + 4 : 0), 40)}
        legend="below"
        legendRef={legend.ref}
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
