import type { NodeStatus } from '@vpp/shared/nodes/schemas';
import type { FeatureCollection, Point } from 'geojson';
import type { MapTiles } from './map-tiles.ts';

export interface MapNode {
  id: number;
  lat: number;
  lng: number;
  displayStatus: NodeStatus;
  siteLabel: string | null;
  /** The install address, where the page has it: the hover label when the node has no site label. */
  address?: string;
}

export const STATUS_COLOURS: Record<NodeStatus, string> = {
  ONLINE: '#2f9e44',
  OFFLINE: '#e03131',
  AWAITING_CONTACT: '#f08c00',
  NOT_COMMISSIONED: '#868e96',
};

export const STATUS_LABELS: Record<NodeStatus, string> = {
  ONLINE: 'Online',
  OFFLINE: 'Offline',
  AWAITING_CONTACT: 'Awaiting Contact',
  NOT_COMMISSIONED: 'Not Commissioned',
};

/** A cluster's colour when its nodes are of more than one status (a cluster of one status wears that status's colour). */
export const MIXED_CLUSTER_COLOUR = '#1c7ed6';
/** The legend's line for clusters. */
export const CLUSTER_LEGEND = { label: 'Cluster of mixed statuses (one status: its colour)', colour: MIXED_CLUSTER_COLOUR };

/** The map's legend: each status with its colour, in the order of STATUS_COLOURS. */
export const MAP_LEGEND = (Object.keys(STATUS_COLOURS) as NodeStatus[]).map((status) => ({
  status,
  label: STATUS_LABELS[status],
  colour: STATUS_COLOURS[status],
}));

export interface NodeMapProps {
  /** The nodes to show (a node's or a customer's page); a fleet's or a VPP's map gives `tiles` instead. */
  nodes?: MapNode[];
  /** The server's vector tiles of a view (nodes and clusters made on the server), with its count and bounds. */
  tiles?: MapTiles;
  onSelect?: (id: number) => void;
  height: number;
  zoom?: number;
  label?: string;
  /**
   * What else on the page lists the map's nodes (e.g. 'the List tab'), for the map's description.
   * Without it, the map carries a visually hidden list of its nodes.
   */
  listedBy?: string;
  /** false draws every node on its own (no clusters); clustered by default. */
  cluster?: boolean;
  /** false keeps the map at `height` instead of fitting it to the window below its top (a map in a dashboard widget). */
  fitWindow?: boolean;
}

/** The label a node shows on hover and in the map's text alternative: site label, else address, else its id. */
export function nodeLabel(n: MapNode): string {
  return n.siteLabel || n.address || `Node ${n.id}`;
}

/** The nodes as GeoJSON points for the clustered source; each carries its id, status and hover label. */
export function nodeFeatures(nodes: MapNode[]): FeatureCollection<Point> {
  return {
    type: 'FeatureCollection',
    features: nodes.map((n) => ({
      type: 'Feature',
      properties: { id: n.id, status: n.displayStatus, label: nodeLabel(n) },
      geometry: { type: 'Point', coordinates: [n.lng, n.lat] },
    })),
  };
}

/** Latitude and longitude as shown beside a map: five decimals (about a metre). */
export function coordinates(lat: number, lng: number): string {
  return `${lat.toFixed(5)}, ${lng.toFixed(5)}`;
}

/**
 * The map's height on screen: the page's height (spec 2 §9: window minus 220, at least 500), made
 * smaller where the map starts lower, so that it ends 16 px above the window's bottom edge (its
 * attribution in sight), but never below 500 (or the page's height, if smaller).
 */
export function fittedHeight(height: number, viewport: number, top: number | null): number {
  if (!viewport || top === null) return height;
  return Math.max(Math.min(height, 500), Math.min(height, Math.floor(viewport - top - 16)));
}

/** The map's description for screen readers: how many nodes it shows and where they are listed. */
export function mapDescription(count: number, listedBy?: string): string {
  const shown = `Shows ${count} ${count === 1 ? 'node' : 'nodes'}, coloured by status.`;
  return listedBy && count > 0 ? `${shown} ${listedBy[0].toUpperCase()}${listedBy.slice(1)} lists them.` : shown;
}

/**
 * The deepest zoom at which the basemap shipped with the app (1:50m coastline and state borders)
 * still shows land, coast or a border around a point; without map tiles a closer zoom is a blank page.
 */
export const BASEMAP_ZOOM = 7;
/** The zoom a single node of a search is shown at, when the page asks for none. */
export const RESULT_ZOOM = 13;
/** Fitting several nodes never zooms past this (clusters break up into nodes from here). */
export const FIT_MAX_ZOOM = 12;

export type MapFrame =
  | { kind: 'centre'; centre: [number, number]; zoom: number }
  | { kind: 'bounds'; bounds: [[number, number], [number, number]]; maxZoom: number }
  | null;

/**
 * How the map frames its nodes: none leaves the view alone; one is centred at the page's zoom (or
 * RESULT_ZOOM); several are fitted, so that a search leaving a few nodes zooms to them. Without map
 * tiles neither goes closer than BASEMAP_ZOOM (a cluster there opens on a click).
 */
export function frameFor(nodes: Pick<MapNode, 'lat' | 'lng'>[], zoom: number | undefined, hasTiles: boolean): MapFrame {
  if (nodes.length === 0) return null;
  if (nodes.length === 1) {
    const z = zoom ?? RESULT_ZOOM;
    return { kind: 'centre', centre: [nodes[0].lng, nodes[0].lat], zoom: hasTiles ? z : Math.min(z, BASEMAP_ZOOM) };
  }
  let [w, s, e, n] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const p of nodes) {
    w = Math.min(w, p.lng);
    e = Math.max(e, p.lng);
    s = Math.min(s, p.lat);
    n = Math.max(n, p.lat);
  }
  return {
    kind: 'bounds',
    bounds: [
      [w, s],
      [e, n],
    ],
    maxZoom: hasTiles ? FIT_MAX_ZOOM : BASEMAP_ZOOM,
  };
}
