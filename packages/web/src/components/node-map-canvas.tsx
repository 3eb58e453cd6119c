import 'maplibre-gl/dist/maplibre-gl.css';
import { Box } from '@mantine/core';
import type * as maplibregl from 'maplibre-gl';
import type { GeoJSONSource, VectorTileSource } from 'maplibre-gl';
import { useEffect, useRef, useState } from 'react';
import { useMeta } from '../lib/meta.ts';
import { createMap } from './map-base.ts';
import { boundsPoints } from './map-tiles.ts';
import { addNodeLayers, addNodeSource, bindNodeEvents, trackClusterCounts } from './node-map-layers.ts';
import { frameFor, type NodeMapProps, nodeFeatures } from './node-map-types.ts';

export { baseStyle } from './map-base.ts';

const NO_NODES: NonNullable<NodeMapProps['nodes']> = [];

/**
 * The MapLibre map of NodeMap, loaded with the first screen that draws one: the nodes given, or the
 * server's tiles of a view. Answers the map once loaded (a new map for another tile URL, clustering
 * switched, or another view's tiles).
 */
function useNodeMap(container: React.RefObject<HTMLDivElement | null>, props: NodeMapProps, counted: React.RefObject<boolean>) {
  const map = useRef<maplibregl.Map | null>(null);
  const onSelect = useRef(props.onSelect);
  onSelect.current = props.onSelect;
  const meta = useMeta();
  // The basemap is known once /meta.json answered (or failed: the shipped coastline).
  const basemap = meta.data ? meta.data : meta.isError ? null : undefined;
  const tileUrl = basemap === undefined ? undefined : (basemap?.mapTileUrl ?? null);
  const cluster = props.cluster !== false;
  // The server's tiles of every node on its own (overlapping nodes still one dot) when clustering is off.
  const tilesUrl = props.tiles ? `${props.tiles.url}${props.tiles.url.includes('?') ? '&' : '?'}cluster=${cluster}` : null;
  const firstTilesUrl = useRef(tilesUrl);
  firstTilesUrl.current ??= tilesUrl;
  const vector = tilesUrl !== null;
  const [loaded, setLoaded] = useState<maplibregl.Map | null>(null);

  useEffect(() => {
    const box = container.current;
    if (!box || basemap === undefined) return;
    const m = createMap(box, basemap);
    m.on('load', () => {
      addNodeSource(m, vector ? firstTilesUrl.current : null, cluster);
      addNodeLayers(m, vector);
      bindNodeEvents(m, () => onSelect.current);
      // Without clusters there are no counts to place.
      if (cluster) trackClusterCounts(m, vector);
      map.current = m;
      setLoaded(m);
    });
    // After each paint of new data the box carries how many nodes and clusters were drawn (benchmarks and tests wait for it).
    m.on('idle', () => {
      if (!counted.current && m.getLayer('node')) {
        counted.current = true;
        box.dataset.painted = String(m.queryRenderedFeatures({ layers: ['clusters', 'node'] }).length);
      }
    });
    // The map follows its box's size (a dashboard widget resized), not only the window's.
    const resized = new ResizeObserver(() => m.resize());
    resized.observe(box);
    return () => {
      resized.disconnect();
      map.current = null;
      setLoaded(null);
      m.remove();
    };
  }, [basemap, cluster, vector, container, counted]);

  // New data of the view (its version in the URL): the same map takes the new tiles.
  useEffect(() => {
    const source = loaded?.getSource('nodes') as VectorTileSource | undefined;
    if (!tilesUrl || !source || source.type !== 'vector') return;
    firstTilesUrl.current = tilesUrl;
    if (source.tiles?.[0] !== tilesUrl) {
      counted.current = false;
      source.setTiles([tilesUrl]);
    }
  }, [loaded, tilesUrl, counted]);
  return { map: loaded, hasTiles: Boolean(tileUrl || basemap?.basemap) };
}

/** The MapLibre map of NodeMap: the map, its nodes (given, or the view's tiles), and its framing. */
export default function NodeMapCanvas(props: NodeMapProps) {
  const container = useRef<HTMLDivElement>(null);
  // Whether the data last given has been counted after a paint (once per data, not on every pan).
  const counted = useRef(false);
  // The view last framed, so that a refetch with the same points leaves the user's pan and zoom alone.
  const framed = useRef('');
  const { map, hasTiles } = useNodeMap(container, props, counted);
  const nodes = props.nodes ?? NO_NODES;
  const bounds = props.tiles?.bounds;

  useEffect(() => {
    if (!map) return;
    if (!props.tiles) (map.getSource('nodes') as GeoJSONSource | undefined)?.setData(nodeFeatures(nodes));
    counted.current = false;
    const points = props.tiles ? boundsPoints(bounds ?? null) : nodes;
    const view = `${props.zoom ?? ''}:${points.map((n) => `${n.lng},${n.lat}`).join(';')}`;
    if (view === framed.current) return;
    framed.current = view;
    const frame = frameFor(points, props.zoom, hasTiles);
    if (frame?.kind === 'centre') map.jumpTo({ center: frame.centre, zoom: frame.zoom });
    else if (frame?.kind === 'bounds') {
      // 40 px around the nodes, less on a small map (a dashboard widget): padding past half its size leaves no view to fit.
      const { clientWidth, clientHeight } = map.getContainer();
      const padding = Math.max(0, Math.min(40, Math.floor(Math.min(clientWidth, clientHeight) / 4)));
      map.fitBounds(frame.bounds, { padding, maxZoom: frame.maxZoom, duration: 0 });
    }
  }, [map, nodes, props.tiles, bounds, props.zoom, hasTiles]);

  useEffect(() => {
    if (!map) framed.current = '';
  }, [map]);

  return <Box ref={container} h="100%" w="100%" />;
}
