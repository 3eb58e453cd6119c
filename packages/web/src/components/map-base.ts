import type { StyleSpecification } from 'maplibre-gl';
import * as maplibregl from 'maplibre-gl';
import workerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url';
import { session } from '../lib/session.ts';
import { apiOrigin } from './map-tiles.ts';
import { STATE_BORDERS } from './state-borders.ts';

// What every map of the console shares: MapLibre's worker, the basemap, the controls, and the bearer
// on the console's own tile requests (the maps' vector tiles are API calls like any other).

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

/** A map in `container` over the basemap, with zoom buttons and attribution, that sends the bearer with the console's tile requests. */
export function createMap(container: HTMLElement, tileUrl: string | null, compact = false): maplibregl.Map {
  const origin = apiOrigin();
  const m = new maplibregl.Map({
    container,
    style: baseStyle(tileUrl),
    center: [134, -28],
    zoom: 3.2,
    attributionControl: false,
    transformRequest: (url) => {
      const token = session.token();
      return url.startsWith(origin) && token ? { url, headers: { authorization: `Bearer ${token}` } } : { url };
    },
  });
  m.addControl(new maplibregl.NavigationControl({ showCompass: false }), 'top-right');
  m.addControl(new maplibregl.AttributionControl({ compact, customAttribution: 'Coastline: Natural Earth' }));
  return m;
}
