import { Box, Group, Paper, Skeleton, Text, VisuallyHidden } from '@mantine/core';
import { useMergedRef, useViewportSize } from '@mantine/hooks';
import { lazy, type Ref, Suspense, useId, useLayoutEffect, useRef, useState } from 'react';
import { useSeen } from '../lib/use-seen.ts';
import { CLUSTER_LEGEND, fittedHeight, MAP_LEGEND, mapDescription, type NodeMapProps, nodeLabel, STATUS_LABELS } from './node-map-types.ts';

export { type MapNode, type NodeMapProps, STATUS_COLOURS, STATUS_LABELS } from './node-map-types.ts';

/** Map height of spec 2 §9: the window height minus 220, at least 500 (NodeMap makes it fit the window below its top). */
export function useMapHeight(): number {
  const { height } = useViewportSize();
  return Math.max(500, height - 220);
}

// MapLibre (about 290 KB gzipped) and the state borders load when the first map comes near the
// window, after the screen has painted (issue 30): never in a screen's first load.
const loadCanvas = () => import('./node-map-canvas.tsx');
const NodeMapCanvas = lazy(loadCanvas);

/** Starts MapLibre's download for a map that is about to show (a dashboard widget in the window), before its box is measured. */
export const preloadNodeMapCanvas = () => void loadCanvas().catch(() => undefined);

/** How near the window a map must come before MapLibre loads for it. */
const MAP_LOAD_AHEAD_PX = 200;

/** The grey box a map shows where it will be, until MapLibre has loaded and drawn (the map region says what it holds). */
export function MapSkeleton() {
  return <Skeleton pos="absolute" top={0} left={0} right={0} bottom={0} radius={0} aria-hidden data-map-skeleton />;
}

/**
 * Nodes on a MapLibre map, clustered (with counts) so that thousands stay smooth; a click on a node
 * calls `onSelect`, a click on a cluster zooms into it, a hover shows the node's label. The map
 * frames its nodes again only when their coordinates change. A legend gives the status colours. For
 * screen readers the map is a region named by `label` and described by its node count and, with
 * `listedBy`, where the nodes are listed; without it, a visually hidden list names its nodes.
 * MapLibre loads when the map comes near the window; until it has, a skeleton of the map's size
 * holds its place.
 */
export function NodeMap(props: NodeMapProps & { legend?: 'over' | 'below'; legendRef?: Ref<HTMLDivElement> }) {
  const descriptionId = useId();
  const nodes = props.nodes ?? [];
  const count = props.tiles ? props.tiles.total : nodes.length;
  const label = props.label ?? 'Map of nodes';
  const box = useRef<HTMLDivElement>(null);
  const [seenRef, seen] = useSeen(MAP_LOAD_AHEAD_PX);
  const boxRef = useMergedRef(box, seenRef);
  const { height: viewport } = useViewportSize();
  // Where the map starts on the page, measured after each render (the same value does not render again).
  const [top, setTop] = useState<number | null>(null);
  useLayoutEffect(() => {
    if (box.current) setTop(Math.round(box.current.getBoundingClientRect().top + window.scrollY));
  });
  const withClusters = props.cluster !== false && (props.tiles !== undefined || nodes.length > 1);
  const map = (
    <Box
      ref={boxRef}
      pos="relative"
      h={props.fitWindow === false ? props.height : fittedHeight(props.height, viewport, top)}
      w="100%"
      role="region"
      aria-label={label}
      aria-describedby={descriptionId}
      data-node-count={count}
      style={{ borderRadius: 8, overflow: 'hidden' }}
    >
      <VisuallyHidden id={descriptionId}>{mapDescription(count, props.listedBy)}</VisuallyHidden>
      {!props.listedBy && nodes.length > 0 && (
        <VisuallyHidden>
          <ul aria-label={`Nodes on the ${label.toLowerCase()}`}>
            {nodes.map((n) => (
              <li key={n.id}>{`${nodeLabel(n)}: ${STATUS_LABELS[n.displayStatus]}`}</li>
            ))}
          </ul>
        </VisuallyHidden>
      )}
      {seen ? (
        <Suspense fallback={<MapSkeleton />}>
          <NodeMapCanvas {...props} />
        </Suspense>
      ) : (
        <MapSkeleton />
      )}
      {props.legend !== 'below' && <MapLegend cluster={withClusters} />}
    </Box>
  );
  if (props.legend !== 'below') return map;
  return (
    <>
      {map}
      <MapLegend cluster={withClusters} below boxRef={props.legendRef} />
    </>
  );
}

/**
 * The status colours, over the map's bottom-left corner (the attribution keeps the bottom right), or
 * `below` it in one wrapping line, for a map too small to give the legend a corner (a dashboard widget).
 */
export function MapLegend(props: { cluster?: boolean; below?: boolean; boxRef?: Ref<HTMLDivElement> }) {
  const list = (
    <Box
      component="ul"
      aria-label="Legend"
      m={0}
      p={0}
      style={{ listStyle: 'none', ...(props.below ? { display: 'flex', flexWrap: 'wrap', columnGap: 12, rowGap: 2 } : {}) }}
    >
      {MAP_LEGEND.map((e) => (
        <Group component="li" key={e.status} gap={6} wrap="nowrap">
          <Box w={10} h={10} bg={e.colour} style={{ borderRadius: '50%', border: '1px solid #fff', flex: 'none' }} aria-hidden />
          <Text size="xs">{e.label}</Text>
        </Group>
      ))}
      {props.cluster && (
        <Group component="li" gap={6} wrap="nowrap">
          <Box w={12} h={12} bg={CLUSTER_LEGEND.colour} style={{ borderRadius: '50%', border: '2px solid #fff', opacity: 0.75, flex: 'none' }} aria-hidden />
          <Text size="xs">{CLUSTER_LEGEND.label}</Text>
        </Group>
      )}
    </Box>
  );
  if (props.below)
    return (
      <Box ref={props.boxRef} pt={4} data-legend="below">
        {list}
      </Box>
    );
  return (
    <Paper pos="absolute" left={8} bottom={8} px={8} py={4} shadow="xs" withBorder style={{ zIndex: 1, opacity: 0.95 }}>
      {list}
    </Paper>
  );
}
