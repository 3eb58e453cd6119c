import 'maplibre-gl/dist/maplibre-gl.css';
import { Box } from '@mantine/core';
import type { NodeStatus } from '@vpp/shared';
import type { GeoJSONSource, StyleSpecification } from 'maplibre-gl';
import * as maplibregl from 'maplibre-gl';
import workerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url';
import { useEffect, useRef } from 'react';
import { useMeta } from '../lib/meta.ts';
import { type NodeMapProps, STATUS_COLOURS } from './node-map-types.ts';
import { STATE_BORDERS } from './state-borders.ts';

// The worker is bundled as its own asset; MapLibre would otherwise look for it beside the app bundle.
maplibregl.setWorkerUrl(workerUrl);

/** The basemap shipped with the app (coastline and state borders), under optional tiles from a tile URL. */
function baseStyle(tileUrl: string | null): StyleSpecification {
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
  const onSelect = useRef(props.onSelect);
  onSelect.current = props.onSelect;
  const meta = useMeta();
  const tileUrl = meta.data ? meta.data.mapTileUrl : meta.isError ? null : undefined;

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
        cluster: true,
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
      for (const layer of ['clusters', 'node']) {
        m.on('mouseenter', layer, () => {
          m.getCanvas().style.cursor = 'pointer';
        });
        m.on('mouseleave', layer, () => {
          m.getCanvas().style.cursor = '';
        });
      }
      map.current = m;
    });
    return () => {
      map.current = null;
      framed.current = '';
      m.remove();
    };
  }, [tileUrl]);

  useEffect(() => {
    const update = () => {
      const m = map.current;
      if (!m) return;
      const source = m.getSource('nodes') as GeoJSONSource | undefined;
      source?.setData({
        type: 'FeatureCollection',
        features: props.nodes.map((n) => ({
          type: 'Feature',
          properties: { id: n.id, status: n.displayStatus, label: n.siteLabel ?? '' },
          geometry: { type: 'Point', coordinates: [n.lng, n.lat] },
        })),
      });
      const view = `${props.zoom ?? ''}:${props.nodes.map((n) => `${n.lng},${n.lat}`).join(';')}`;
      if (view === framed.current) return;
      framed.current = view;
      if (props.nodes.length === 1 && props.zoom) m.jumpTo({ center: [props.nodes[0].lng, props.nodes[0].lat], zoom: props.zoom });
      else if (props.nodes.length > 1) {
        const b = new maplibregl.LngLatBounds();
        for (const n of props.nodes) b.extend([n.lng, n.lat]);
        m.fitBounds(b, { padding: 40, maxZoom: 12, duration: 0 });
      }
    };
    if (map.current) update();
    else {
      const t = setInterval(() => {
        if (map.current) {
          clearInterval(t);
          update();
        }
      }, 100);
      return () => clearInterval(t);
    }
  }, [props.nodes, props.zoom]);

  return (
    <Box
      ref={container}
      h={props.height}
      w="100%"
      style={{ borderRadius: 8, overflow: 'hidden' }}
      aria-label={props.label ?? 'Map of nodes'}
      role="region"
      data-node-count={props.nodes.length}
    />
  );
}
