import { API_BASE } from '../lib/request.ts';

// The maps' vector tiles of the console's API, without MapLibre: the pages that ask for a view load
// this, and MapLibre only with the map itself.

/** The console's origin and API base: requests there carry the user's bearer. */
export function apiOrigin(): string {
  return new URL(API_BASE || '/', window.location.href).origin;
}

/**
 * A vector tile URL template of the console's API ({z}/{x}/{y} in `path`), absolute (MapLibre's
 * workers resolve no relative URLs), with the query given.
 */
export function tileTemplate(path: string, query: Record<string, string | number | boolean | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== '') q.set(k, String(v));
  const s = q.toString();
  return `${new URL(`${API_BASE}${path}`, window.location.href).href.replace(/%7B/g, '{').replace(/%7D/g, '}')}${s ? `?${s}` : ''}`;
}

/** The view of a map's vector tiles: the URL template, how many nodes, their bounds. */
export interface MapTiles {
  url: string;
  total: number;
  bounds: [number, number, number, number] | null;
}

/** The voltage heat map's view: besides a map's, how many nodes are outside the band, the hexagons per radius, the version and the VPP. */
export interface HeatMapTiles extends MapTiles {
  outside: number;
  hexagons: Record<string, number>;
  version: string;
  vpp: number;
}

/** Corner points of a view's bounds, for framing it as its nodes would be: one point when all sit together. */
export function boundsPoints(bounds: MapTiles['bounds']): { lat: number; lng: number }[] {
  if (!bounds) return [];
  const [w, s, e, n] = bounds;
  return w === e && s === n
    ? [{ lng: w, lat: s }]
    : [
        { lng: w, lat: s },
        { lng: e, lat: n },
      ];
}
