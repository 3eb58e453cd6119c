import 'maplibre-gl/dist/maplibre-gl.css';
import { Box } from '@mantine/core';
import type { NodeStatus } from '@vpp/shared';
import type { GeoJSONSource, StyleSpecification } from 'maplibre-gl';
import * as maplibregl from 'maplibre-gl';
import workerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url';
import { useEffect, useRef, useState } from 'react';
import { useMeta } from '../lib/meta.ts';
import { frameFor, type NodeMapProps, nodeFeatures, STATUS_COLOURS } from './node-map-types.ts';
import { STATE_BORDERS } from './state-borders.ts';

// The worker is bundled as its own asset; MapLibre would otherwise look for it beside the app bundle.
maplibregl.setWorkerUrl(workerUrl);

/** The basemap shipped with the app (coastline and state borders), under optional tiles from a tile URL. */
export function baseStyle(tileUrl: string | null): StyleSpecification {
  return {
    version: 8,
    sources: {
      land: { type: 'geojson', data: '/basemap/australia.json' },
      borders: { type: 'geojson', data: STATE_BORDERS },
      ...(tileUrl ? { tiles: { type: 'raster' as const, tiles: [tileUrl], tileSize: 256 } } : {}),
    },
    layers: [
      { id: 'sea', type: 'background', paint: { 'background-color': '#d0ebff' } },
      { id: 'land', type: 'fill', source: 'land', paint: { 'fill-color': '#f8f9fa' } },
      ...(tileUrl ? [{ id: 'tiles', type: 'raster' as const, source: 'tiles' }] : []),
      { id: 'coast', type: 'line', source: 'land', paint: { 'line-color': '#74c0fc', 'line-width': 1 } },
      { id: 'borders', type: 'line', source: 'borders', paint: { 'line-color': '#adb5bd', 'line-width': 1, 'line-dasharray': [3, 2] } },
    ],
  };
}

/** The MapLibre map of NodeMap, loaded with the first screen that draws one. */
export default function NodeMapCanvas(props: NodeMapProps) {
  const container = useRef<HTMLDivElement>(null);
  const map = useRef<maplibregl.Map | null>(null);
  // The view last framed, so that a refetch with the same points leaves the user's pan and zoom alone.
  const framed = useRef('');
  // Whether the nodes last given have been counted after a paint (once per data, not on every pan).
  const counted = useRef(false);
  const onSelect = useRef(props.onSelect);
  onSelect.current = props.onSelect;
  const meta = useMeta();
  const tileUrl = meta.data ? meta.data.mapTileUrl : meta.isError ? null : undefined;
  const cluster = props.cluster !== false;
  // Counts the maps loaded: a new map (another tile URL, clustering switched) takes the nodes again.
  const [loaded, setLoaded] = useState(0);

  useEffect(() => {
    if (!container.current || tileUrl === undefined) return;
    const m = new maplibregl.Map({ container: container.current, style: baseStyle(tileUrl), center: [134, -28], zoom: 3.2, attributionControl: false });
    m.addControl(new maplibregl.NavigationControl({ showCompass: false }), 'top-right');
    m.addControl(new maplibregl.AttributionControl({ customAttribution: 'Coastline: Natural Earth' }));
    m.on('load', () => {
      // Each cluster counts its nodes by status: a cluster of one status wears that status's colour.
      const statuses = Object.keys(STATUS_COLOURS) as NodeStatus[];
      m.addSource('nodes', {
        type: 'geojson',
        data: { type: 'FeatureCollection', features: [] },
        cluster,
        clusterRadius: 40,
        clusterMaxZoom: 12,
        clusterProperties: Object.fromEntries(statuses.map((st) => [st, ['+', ['case', ['==', ['get', 'status'], st], 1, 0]]])),
      });
      m.addLayer({
        id: 'clusters',
        type: 'circle',
        source: 'nodes',
        filter: ['has', 'point_count'],
        paint: {
          'circle-color': ['case', ...statuses.flatMap((st) => [['==', ['get', st], ['get', 'point_count']], STATUS_COLOURS[st]]), '#1c7ed6'] as never,
          'circle-opacity': 0.75,
          'circle-radius': ['step', ['get', 'point_count'], 12, 10, 16, 100, 22, 1000, 30],
          'circle-stroke-color': '#fff',
          'circle-stroke-width': 2,
        },
      });
      m.addLayer({
        id: 'node',
        type: 'circle',
        source: 'nodes',
        filter: ['!', ['has', 'point_count']],
        paint: {
          'circle-color': ['match', ['get', 'status'], ...Object.entries(STATUS_COLOURS).flat(), '#1c7ed6'] as never,
          'circle-radius': 7,
          'circle-stroke-color': '#fff',
          'circle-stroke-width': 2,
        },
      });
      m.on('click', 'clusters', async (e) => {
        const f = e.features?.[0];
        if (!f) return;
        const zoom = await (m.getSource('nodes') as GeoJSONSource).getClusterExpansionZoom(f.properties.cluster_id as number);
        m.easeTo({ center: (f.geometry as GeoJSON.Point).coordinates as [number, number], zoom });
      });
      m.on('click', 'node', (e) => {
        const id = e.features?.[0]?.properties.id;
        if (id !== undefined) onSelect.current?.(Number(id));
      });
      // The node's site label (or address) while the pointer is over it.
      const hover = new maplibregl.Popup({ closeButton: false, closeOnClick: false, offset: 10, className: 'node-map-hover' });
      m.on('mousemove', 'node', (e) => {
        const f = e.features?.[0];
        if (!f) return;
        hover
          .setLngLat((f.geometry as GeoJSON.Point).coordinates as [number, number])
          .setText(String(f.properties.label))
          .addTo(m);
      });
      m.on('mouseleave', 'node', () => hover.remove());
      // Cluster counts as HTML labels over the cluster circles: the shipped style has no glyphs for a
      // symbol layer. The labels follow the clusters drawn, and let clicks through to the circles.
      const counts = new Map<number, maplibregl.Marker>();
      m.on('render', () => {
        // Without clusters there are no counts to place (and 50,000 nodes to look through on every frame).
        if (!cluster) return;
        const shown = new Set<number>();
        for (const f of m.querySourceFeatures('nodes')) {
          if (!f.properties.cluster) continue;
          const id = f.properties.cluster_id as number;
          if (shown.has(id)) continue;
          shown.add(id);
          const [lng, lat] = (f.geometry as GeoJSON.Point).coordinates;
          let marker = counts.get(id);
          if (!marker) {
            const el = document.createElement('div');
            el.setAttribute('aria-hidden', 'true');
            el.style.cssText = 'pointer-events:none;font:600 12px/1 system-ui,sans-serif;color:#fff;text-shadow:0 0 2px #000';
            marker = new maplibregl.Marker({ element: el }).setLngLat([lng, lat]).addTo(m);
            counts.set(id, marker);
          }
          // A cluster id may stand for another cluster after new data: its place and count follow it.
          const at = marker.getLngLat();
          if (at.lng !== lng || at.lat !== lat) marker.setLngLat([lng, lat]);
          const text = String(f.properties.point_count_abbreviated);
          if (marker.getElement().textContent !== text) marker.getElement().textContent = text;
        }
        for (const [id, marker] of counts) {
          if (!shown.has(id)) {
            marker.remove();
            counts.delete(id);
          }
        }
      });
      for (const layer of ['clusters', 'node']) {
        m.on('mouseenter', layer, () => {
          m.getCanvas().style.cursor = 'pointer';
        });
        m.on('mouseleave', layer, () => {
          m.getCanvas().style.cursor = '';
        });
      }
      map.current = m;
      setLoaded((n) => n + 1);
    });
    // After each paint the box carries how many nodes and clusters were drawn (benchmarks and tests wait for it).
    const box = container.current;
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
      framed.current = '';
      m.remove();
    };
  }, [tileUrl, cluster]);

  useEffect(() => {
    const update = () => {
      const m = map.current;
      if (!m) return;
      const source = m.getSource('nodes') as GeoJSONSource | undefined;
      source?.setData(nodeFeatures(props.nodes));
      counted.current = false;
      const view = `${props.zoom ?? ''}:${props.nodes.map((n) => `${n.lng},${n.lat}`).join(';')}`;
      if (view === framed.current) return;
      framed.current = view;
      const frame = frameFor(props.nodes, props.zoom, Boolean(tileUrl));
      if (frame?.kind === 'centre') m.jumpTo({ center: frame.centre, zoom: frame.zoom });
      else if (frame?.kind === 'bounds') m.fitBounds(frame.bounds, { padding: 40, maxZoom: frame.maxZoom, duration: 0 });
    };
    if (loaded > 0) update();
  }, [props.nodes, props.zoom, tileUrl, loaded]);

  return <Box ref={container} h="100%" w="100%" />;
}
