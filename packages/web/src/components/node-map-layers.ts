import { MAP_CLUSTER_MAX_ZOOM, MAP_TILE_MAX_ZOOM, NODE_TILE_LAYER } from '@vpp/shared/dashboard/map-tiles';
import type { NodeStatus } from '@vpp/shared/nodes/schemas';
import type { GeoJSONFeature, GeoJSONSource } from 'maplibre-gl';
import * as maplibregl from 'maplibre-gl';
import { MIXED_CLUSTER_COLOUR, STATUS_COLOURS } from './node-map-types.ts';

// The node map's source and layers, for either kind of data: the nodes given (a GeoJSON source that
// MapLibre clusters, for a page of a node or a few) or the server's vector tiles of a view (nodes and
// clusters made on the server, for a fleet or a VPP). A cluster counts its nodes by status, so that a
// cluster of one status wears that status's colour; a click on it zooms to where it breaks up.

const STATUSES = Object.keys(STATUS_COLOURS) as NodeStatus[];

/** Adds the `nodes` source: the server's tiles at `tilesUrl`, or an empty GeoJSON source (clustered or not) for the nodes given. */
export function addNodeSource(m: maplibregl.Map, tilesUrl: string | null, cluster: boolean): void {
  if (tilesUrl) {
    m.addSource('nodes', { type: 'vector', tiles: [tilesUrl], maxzoom: MAP_TILE_MAX_ZOOM });
    return;
  }
  m.addSource('nodes', {
    type: 'geojson',
    data: { type: 'FeatureCollection', features: [] },
    cluster,
    clusterRadius: 40,
    clusterMaxZoom: MAP_CLUSTER_MAX_ZOOM,
    clusterProperties: Object.fromEntries(STATUSES.map((st) => [st, ['+', ['case', ['==', ['get', 'status'], st], 1, 0]]])),
  });
}

/** The cluster circles (sized by count) and the node circles (coloured by status). */
export function addNodeLayers(m: maplibregl.Map, vector: boolean): void {
  const layer = vector ? { 'source-layer': NODE_TILE_LAYER } : {};
  m.addLayer({
    id: 'clusters',
    type: 'circle',
    source: 'nodes',
    ...layer,
    filter: ['has', 'point_count'],
    paint: {
      'circle-color': ['case', ...STATUSES.flatMap((st) => [['==', ['get', st], ['get', 'point_count']], STATUS_COLOURS[st]]), MIXED_CLUSTER_COLOUR] as never,
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
    ...layer,
    filter: ['!', ['has', 'point_count']],
    paint: {
      'circle-color': ['match', ['get', 'status'], ...Object.entries(STATUS_COLOURS).flat(), MIXED_CLUSTER_COLOUR] as never,
      'circle-radius': 7,
      'circle-stroke-color': '#fff',
      'circle-stroke-width': 2,
    },
  });
}

/** A node's id: a property of the nodes given, the feature's own id in the server's tiles. */
const nodeId = (f: GeoJSONFeature) => f.properties.id ?? f.id;

/** A click on a cluster zooms to where it breaks up; a click on a node selects it; a hover names the node. */
export function bindNodeEvents(m: maplibregl.Map, onSelect: () => ((id: number) => void) | undefined): void {
  m.on('click', 'clusters', async (e) => {
    const f = e.features?.[0];
    if (!f) return;
    const zoom =
      f.properties.expansion_zoom !== undefined
        ? Number(f.properties.expansion_zoom)
        : await (m.getSource('nodes') as GeoJSONSource).getClusterExpansionZoom(f.properties.cluster_id as number);
    m.easeTo({ center: (f.geometry as GeoJSON.Point).coordinates as [number, number], zoom });
  });
  m.on('click', 'node', (e) => {
    const f = e.features?.[0];
    const id = f && nodeId(f);
    if (id !== undefined) onSelect()?.(Number(id));
  });
  // The node's site label (or address) while the pointer is over it.
  const hover = new maplibregl.Popup({ closeButton: false, closeOnClick: false, offset: 10, className: 'node-map-hover' });
  m.on('mousemove', 'node', (e) => {
    const f = e.features?.[0];
    if (!f) return;
    hover
      .setLngLat((f.geometry as GeoJSON.Point).coordinates as [number, number])
      .setText(String(f.properties.label ?? `Node ${nodeId(f)}`))
      .addTo(m);
  });
  m.on('mouseleave', 'node', () => hover.remove());
  for (const layer of ['clusters', 'node']) {
    m.on('mouseenter', layer, () => {
      m.getCanvas().style.cursor = 'pointer';
    });
    m.on('mouseleave', layer, () => {
      m.getCanvas().style.cursor = '';
    });
  }
}

/** The clusters drawn now, once each (a cluster near a tile's edge comes with both tiles). */
function drawnClusters(m: maplibregl.Map, vector: boolean): Map<number, GeoJSONFeature> {
  const shown = new Map<number, GeoJSONFeature>();
  for (const f of m.querySourceFeatures('nodes', vector ? { sourceLayer: NODE_TILE_LAYER } : undefined)) {
    if (!f.properties.cluster) continue;
    const id = f.properties.cluster_id as number;
    if (!shown.has(id)) shown.set(id, f);
  }
  return shown;
}

/**
 * Cluster counts as HTML labels over the cluster circles (the shipped style has no glyphs for a
 * symbol layer). The labels follow the clusters drawn, and let clicks through to the circles.
 */
export function trackClusterCounts(m: maplibregl.Map, vector: boolean): void {
  const counts = new Map<number, maplibregl.Marker>();
  m.on('render', () => {
    const shown = drawnClusters(m, vector);
    for (const [id, f] of shown) {
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
}
