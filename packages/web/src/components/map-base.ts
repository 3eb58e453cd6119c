import type { MetaReply } from '@vpp/shared/auth/meta';
import type { LayerSpecification, StyleSpecification } from 'maplibre-gl';
import * as maplibregl from 'maplibre-gl';
import workerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url';
import { Protocol } from 'pmtiles';
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

type Basemap = NonNullable<MetaReply['basemap']>;

// MapLibre reads a PMTiles extract by range requests through this protocol (registered once).
let pmtilesProtocol: Protocol | null = null;
function registerPmtiles(): void {
  if (pmtilesProtocol) return;
  pmtilesProtocol = new Protocol();
  maplibregl.addProtocol('pmtiles', pmtilesProtocol.tile);
}

/** Line or fill layers of the street basemap, for a source layer of either schema (Protomaps or OpenMapTiles). */
function streetLayers(): LayerSpecification[] {
  const v = { source: 'streets' } as const;
  const fill = (id: string, layer: string, colour: string, extra: Partial<LayerSpecification> = {}) =>
    ({ id, type: 'fill', ...v, 'source-layer': layer, paint: { 'fill-color': colour }, ...extra }) as LayerSpecification;
  const line = (id: string, layer: string, colour: string, width: unknown, extra: Partial<LayerSpecification> = {}) =>
    ({ id, type: 'line', ...v, 'source-layer': layer, paint: { 'line-color': colour, 'line-width': width }, ...extra }) as LayerSpecification;
  const width = ['interpolate', ['exponential', 1.6], ['zoom'], 8, 0.5, 14, 2, 18, 14];
  return [
    fill('streets-earth', 'earth', '#f8f9fa'),
    fill('streets-landcover', 'landcover', '#ebfbee'),
    fill('streets-park', 'landuse', '#ebfbee', {
      filter: ['in', ['get', 'kind'], ['literal', ['park', 'nature_reserve', 'forest', 'wood', 'grass']]],
    } as never),
    fill('streets-park-omt', 'park', '#ebfbee'),
    fill('streets-water', 'water', '#d0ebff'),
    fill('streets-buildings', 'buildings', '#e9ecef', { minzoom: 14 }),
    fill('streets-building', 'building', '#e9ecef', { minzoom: 14 }),
    line('streets-roads', 'roads', '#ffffff', width, { minzoom: 9 }),
    line('streets-transportation', 'transportation', '#ffffff', width, { minzoom: 9 }),
    line('streets-boundaries', 'boundaries', '#adb5bd', 1, { paint: { 'line-color': '#adb5bd', 'line-width': 1, 'line-dasharray': [3, 2] } } as never),
    line('streets-boundary', 'boundary', '#adb5bd', 1, { paint: { 'line-color': '#adb5bd', 'line-width': 1, 'line-dasharray': [3, 2] } } as never),
  ];
}

/**
 * The map's style: the operator's style URL as it is; the operator's PMTiles extract drawn as land,
 * water, parks, streets and buildings (no labels: the console ships no fonts); otherwise the shipped
 * coastline (under raster tiles of MAP_TILE_URL, when set).
 */
export function styleFor(meta: MetaReply | null): StyleSpecification | string {
  const basemap: Basemap | null | undefined = meta?.basemap;
  if (basemap?.styleUrl) return basemap.styleUrl;
  if (basemap?.pmtilesUrl) {
    registerPmtiles();
    return {
      version: 8,
      sources: { streets: { type: 'vector', url: `pmtiles://${new URL(basemap.pmtilesUrl, window.location.href).href}`, attribution: basemap.attribution } },
      layers: [{ id: 'sea', type: 'background', paint: { 'background-color': '#f8f9fa' } }, ...streetLayers()],
    };
  }
  return baseStyle(meta?.mapTileUrl ?? null);
}

/** A map in `container` over the basemap, with zoom buttons and attribution, that sends the bearer with the console's tile requests. */
export function createMap(container: HTMLElement, meta: MetaReply | null, compact = false): maplibregl.Map {
  const origin = apiOrigin();
  const m = new maplibregl.Map({
    container,
    style: styleFor(meta),
    center: [134, -28],
    zoom: 3.2,
    attributionControl: false,
    transformRequest: (url) => {
      const token = session.token();
      return url.startsWith(origin) && token ? { url, headers: { authorization: `Bearer ${token}` } } : { url };
    },
  });
  m.addControl(new maplibregl.NavigationControl({ showCompass: false }), 'top-right');
  // The street basemap's sources carry their own attribution; the shipped coastline is Natural Earth's.
  const streets = Boolean(meta?.basemap);
  m.addControl(new maplibregl.AttributionControl({ compact, ...(streets ? {} : { customAttribution: 'Coastline: Natural Earth' }) }));
  return m;
}
