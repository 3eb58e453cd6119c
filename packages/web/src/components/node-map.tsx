import { Box } from '@mantine/core';
import { useViewportSize } from '@mantine/hooks';
import { lazy, Suspense } from 'react';
import type { NodeMapProps } from './node-map-types.ts';

export { type MapNode, type NodeMapProps, STATUS_COLOURS } from './node-map-types.ts';

/** Map height of spec 2 §9: the window height minus 220, at least 500. */
export function useMapHeight(): number {
  const { height } = useViewportSize();
  return Math.max(500, height - 220);
}

// MapLibre (about 250 KB gzipped) and the state borders load with the first screen that draws a map.
const NodeMapCanvas = lazy(() => import('./node-map-canvas.tsx'));

/**
 * Nodes on a MapLibre map, clustered so that thousands stay smooth; a click on a node calls
 * `onSelect`, a click on a cluster zooms into it. With one node and `zoom`, the map centres on it;
 * it frames the nodes again only when their coordinates change. While MapLibre loads, an empty box
 * of the map's size holds its place.
 */
export function NodeMap(props: NodeMapProps) {
  return (
    <Suspense fallback={<Box h={props.height} w="100%" style={{ borderRadius: 8 }} />}>
      <NodeMapCanvas {...props} />
    </Suspense>
  );
}
