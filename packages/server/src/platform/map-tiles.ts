import { binHexagons, type HexCell, hexCell, hexCentre, hexRing } from '@vpp/shared/dashboard/hexagons';
import {
  HEX_RADIUS_CHOICES,
  HEX_TILE_LAYER,
  HEXAGON_NODES_LIMIT,
  MAP_CLUSTER_MAX_ZOOM,
  MAP_TILE_MAX_ZOOM,
  NODE_TILE_LAYER,
} from '@vpp/shared/dashboard/map-tiles';
import { VOLTAGE_MAX, VOLTAGE_MIN } from '@vpp/shared/dashboard/voltage';
import { NODE_STATUSES, type NodeStatus } from '@vpp/shared/nodes/schemas';
import GeoJSONVT from 'geojson-vt';
import Supercluster from 'supercluster';
import { encodeTile, TILE_EXTENT, type TileFeature, versionOf } from './vector-tiles.ts';

// The maps' indexes and tiles (issue 30), as the map worker thread runs them (platform/map-worker.ts):
// the node maps' nodes clustered by supercluster, and the voltage heat map's readings binned into the
// spec's hexagons (spec 2 §9) and cut by geojson-vt or, far out, clustered as dots. The API's thread
// hands a view's points over in typed arrays and asks for tiles; every index, tile and gzip is made
// here, off the thread that answers requests.

/** A view's nodes in columns: ids, degrees, status (index in NODE_STATUSES) and the site labels there are (node index, label). */
export interface NodeColumns {
  ids: Float64Array;
  lat: Float64Array;
  lng: Float64Array;
  status: Uint8Array;
  labels: [number, string][];
}

/** A view's fresh meter voltages in columns. */
export interface VoltageColumns {
  ids: Float64Array;
  lat: Float64Array;
  lng: Float64Array;
  value: Float64Array;
}

/** What the API's thread keeps of a node view: its count, bounds and version. */
export interface NodeViewFacts {
  total: number;
  bounds: [number, number, number, number] | null;
  version: string;
}

/** What it keeps of a heat map view: besides a node view's, how many are outside the band and the hexagons per radius. */
export interface HeatViewFacts extends NodeViewFacts {
  outside: number;
  hexagons: Record<string, number>;
}

// ---- the node maps ----

// The hover label travels only when the node has a site label (the browser says "Node {id}" otherwise).
type NodeProps = { id: number; status: NodeStatus; label?: string };
type ClusterCounts = Record<NodeStatus, number>;

interface NodeView {
  kind: 'nodes';
  columns: NodeColumns;
  indexes: Partial<Record<'clustered' | 'single', Supercluster<NodeProps, ClusterCounts>>>;
}

/** MapLibre's 512-pixel tiles: a pixel is this many tile units. */
const PIXEL = TILE_EXTENT / 512;
/** Clusters gather nodes within 40 pixels, as the map's own clustering did. */
const CLUSTER_RADIUS_PX = 40;
/**
 * Without clustering every node is drawn (a 7-pixel dot), but nodes within 3 pixels (a street of them seen from
 * far out) are one dot until the zoom parts them: a tile of 50,000 nodes stays small.
 */
const OVERLAP_RADIUS_PX = 3;

function boundsOf(lat: Float64Array, lng: Float64Array): [number, number, number, number] | null {
  if (lat.length === 0) return null;
  let [w, s, e, n] = [Infinity, Infinity, -Infinity, -Infinity];
  for (let i = 0; i < lat.length; i++) {
    w = Math.min(w, lng[i]);
    e = Math.max(e, lng[i]);
    s = Math.min(s, lat[i]);
    n = Math.max(n, lat[i]);
  }
  return [w, s, e, n];
}

function nodeFacts(c: NodeColumns): NodeViewFacts {
  return {
    total: c.ids.length,
    bounds: boundsOf(c.lat, c.lng),
    version: versionOf(c.ids.length, c.ids, c.lat, c.lng, c.status, c.labels.map(([i, l]) => `${i}:${l}`).join('\u0000')),
  };
}

function nodeIndex(view: NodeView, cluster: boolean): Supercluster<NodeProps, ClusterCounts> {
  const kind = cluster ? 'clustered' : 'single';
  let index = view.indexes[kind];
  if (!index) {
    index = new Supercluster<NodeProps, ClusterCounts>({
      radius: (cluster ? CLUSTER_RADIUS_PX : OVERLAP_RADIUS_PX) * PIXEL,
      extent: TILE_EXTENT,
      maxZoom: cluster ? MAP_CLUSTER_MAX_ZOOM : MAP_TILE_MAX_ZOOM,
      map: (p) => Object.fromEntries(NODE_STATUSES.map((s) => [s, p.status === s ? 1 : 0])) as ClusterCounts,
      reduce: (acc, p) => {
        for (const s of NODE_STATUSES) acc[s] += p[s];
      },
    });
    const { ids, lat, lng, status } = view.columns;
    const labels = new Map(view.columns.labels);
    const features = new Array(ids.length);
    for (let i = 0; i < ids.length; i++) {
      const label = labels.get(i);
      features[i] = {
        type: 'Feature' as const,
        properties: { id: ids[i], status: NODE_STATUSES[status[i]], ...(label ? { label } : {}) },
        geometry: { type: 'Point' as const, coordinates: [lng[i], lat[i]] },
      };
    }
    index.load(features);
    view.indexes[kind] = index;
  }
  return index;
}

function nodeTile(view: NodeView, t: { z: number; x: number; y: number }, cluster: boolean): Uint8Array {
  const index = nodeIndex(view, cluster);
  const features = (index.getTile(t.z, t.x, t.y)?.features ?? []).map((f): TileFeature => {
    const tags = f.tags as Record<string, unknown>;
    // A node's id is the feature's id (the browser reads it there), not a tag as well: at 50,000 nodes a tag of its own per node was a third of the tile.
    if (!tags.cluster) {
      const { id, ...rest } = tags;
      return { type: 1, geometry: f.geometry, tags: rest, id: id as number };
    }
    const id = tags.cluster_id as number;
    // A status counted 0 is left out (the colour asks whether one status counts every node); the cluster's
    // id and abbreviated count label it on the map, and only clustered maps label their clusters.
    const { cluster_id, point_count_abbreviated, ...rest } = tags;
    const kept = Object.fromEntries(Object.entries(rest).filter(([k, v]) => !(NODE_STATUSES as readonly string[]).includes(k) || v !== 0));
    return {
      type: 1,
      geometry: f.geometry,
      tags: {
        ...kept,
        ...(cluster ? { cluster_id, point_count_abbreviated } : {}),
        expansion_zoom: Math.min(index.getClusterExpansionZoom(id), MAP_TILE_MAX_ZOOM + 4),
      },
    };
  });
  return encodeTile({ [NODE_TILE_LAYER]: features });
}

// ---- the voltage heat map ----

/** The hexagons of one radius: the cells, their polygons cut into tiles, their centres clustered. */
interface Radius {
  cells: HexCell[];
  polygons?: GeoJSONVT;
  points?: Supercluster<CellProps, CellSums>;
}
type CellProps = { i: number; v: number; n: number };
type CellSums = { s: number; n: number };

interface HeatView {
  kind: 'heat';
  columns: VoltageColumns;
  refLat: number;
  radii: Map<number, Radius>;
}

function heatView(c: VoltageColumns): { view: HeatView; facts: HeatViewFacts } {
  const points = Array.from(c.ids, (_, i) => ({ lat: c.lat[i], lng: c.lng[i], value: c.value[i] }));
  const radii = new Map<number, Radius>();
  let refLat = 0;
  for (const r of HEX_RADIUS_CHOICES) {
    const binned = binHexagons(points, r);
    refLat = binned.refLat;
    radii.set(r, { cells: binned.cells });
  }
  let outside = 0;
  for (const v of c.value) if (v < VOLTAGE_MIN || v > VOLTAGE_MAX) outside++;
  return {
    view: { kind: 'heat', columns: c, refLat, radii },
    facts: {
      total: c.ids.length,
      bounds: boundsOf(c.lat, c.lng),
      version: versionOf(c.ids.length, c.ids, c.lat, c.lng, c.value),
      outside,
      hexagons: Object.fromEntries([...radii].map(([r, radius]) => [String(r), radius.cells.length])),
    },
  };
}

/** Metres on the ground across one pixel of a 512-pixel tile at zoom z and latitude lat. */
function metresPerPixel(z: number, lat: number): number {
  return (40_075_016.686 * Math.cos((lat * Math.PI) / 180)) / (512 * 2 ** z);
}

/** Two decimals of a volt: enough for the colour steps, and equal values share one entry in the tile. */
const volts = (v: number) => Math.round(v * 100) / 100;

function polygonsOf(view: HeatView, radius: number, hexes: Radius): GeoJSONVT {
  hexes.polygons ??= new GeoJSONVT(
    {
      type: 'FeatureCollection',
      features: hexes.cells.map((c, i) => ({
        type: 'Feature',
        id: i,
        properties: { v: volts(c.v), n: c.n, q: c.q, r: c.r },
        geometry: { type: 'Polygon', coordinates: [hexRing(c.q, c.r, radius, view.refLat)] },
      })),
    },
    { maxZoom: MAP_TILE_MAX_ZOOM, extent: TILE_EXTENT, buffer: 64, indexMaxZoom: 4 },
  );
  return hexes.polygons;
}

function pointsOf(view: HeatView, radius: number, hexes: Radius): Supercluster<CellProps, CellSums> {
  if (!hexes.points) {
    hexes.points = new Supercluster<CellProps, CellSums>({
      radius: TILE_EXTENT / 512,
      extent: TILE_EXTENT,
      maxZoom: MAP_TILE_MAX_ZOOM,
      map: (p) => ({ s: p.v * p.n, n: p.n }),
      reduce: (acc, p) => {
        acc.s += p.s;
        acc.n += p.n;
      },
    });
    hexes.points.load(
      hexes.cells.map((c, i) => ({
        type: 'Feature' as const,
        properties: { i, v: c.v, n: c.n },
        geometry: { type: 'Point' as const, coordinates: hexCentre(c.q, c.r, radius, view.refLat) },
      })),
    );
  }
  return hexes.points;
}

/** The tile z/x/y of the view's hexagons of `radius` metres: polygons, or far out (a hexagon under two pixels) dots. */
function heatTile(view: HeatView, t: { z: number; x: number; y: number }, radius: number): Uint8Array {
  const hexes = view.radii.get(radius) as Radius;
  if (hexes.cells.length === 0) return encodeTile({});
  const across = (Math.sqrt(3) * radius) / metresPerPixel(t.z, view.refLat);
  if (across >= 2) {
    const tile = polygonsOf(view, radius, hexes).getTile(t.z, t.x, t.y);
    return encodeTile({ [HEX_TILE_LAYER]: (tile?.features ?? []) as TileFeature[] });
  }
  const cells = hexes.cells.length;
  const features = (pointsOf(view, radius, hexes).getTile(t.z, t.x, t.y)?.features ?? []).map((f): TileFeature => {
    const tags = f.tags as Record<string, number | boolean>;
    // One hexagon keeps its id and coordinates; merged hexagons are ids past the last hexagon's.
    if (!tags.cluster) {
      const c = hexes.cells[tags.i as number];
      return { type: 1, geometry: f.geometry, id: tags.i as number, tags: { v: volts(c.v), n: c.n, q: c.q, r: c.r } };
    }
    return { type: 1, geometry: f.geometry, id: cells + (tags.cluster_id as number), tags: { v: volts((tags.s as number) / (tags.n as number)), n: tags.n } };
  });
  return encodeTile({ [HEX_TILE_LAYER]: features });
}

/** The nodes of hexagon (q, r) at `radius`, lowest voltage first (at most HEXAGON_NODES_LIMIT), and how many it holds. */
function hexagonNodes(view: HeatView, radius: number, q: number, r: number) {
  const c = view.columns;
  const inside: { id: number; value: number }[] = [];
  for (let i = 0; i < c.ids.length; i++) {
    const cell = hexCell(c.lng[i], c.lat[i], radius, view.refLat);
    if (cell.q === q && cell.r === r) inside.push({ id: c.ids[i], value: c.value[i] });
  }
  inside.sort((a, b) => a.value - b.value || a.id - b.id);
  return { total: inside.length, nodes: inside.slice(0, HEXAGON_NODES_LIMIT) };
}

// ---- the worker's requests ----

const views = new Map<number, NodeView | HeatView>();
let lastId = 0;

function viewOf<K extends 'nodes' | 'heat'>(id: number, kind: K): Extract<NodeView | HeatView, { kind: K }> {
  const view = views.get(id);
  if (!view || view.kind !== kind) throw new Error(`The map view ${id} is no longer held.`);
  return view as Extract<NodeView | HeatView, { kind: K }>;
}

/** The map worker's requests, by name: each answers a value (and the buffers it may hand over). */
export const mapRequests = {
  nodeView(c: NodeColumns) {
    const id = ++lastId;
    views.set(id, { kind: 'nodes', columns: c, indexes: {} });
    return { id, facts: nodeFacts(c) };
  },
  heatView(c: VoltageColumns) {
    const id = ++lastId;
    const made = heatView(c);
    views.set(id, made.view);
    return { id, facts: made.facts };
  },
  nodeTile(a: { id: number; t: { z: number; x: number; y: number }; cluster: boolean }) {
    return nodeTile(viewOf(a.id, 'nodes'), a.t, a.cluster);
  },
  heatTile(a: { id: number; t: { z: number; x: number; y: number }; radius: number }) {
    return heatTile(viewOf(a.id, 'heat'), a.t, a.radius);
  },
  hexagon(a: { id: number; radius: number; q: number; r: number }) {
    return hexagonNodes(viewOf(a.id, 'heat'), a.radius, a.q, a.r);
  },
  drop(id: number) {
    views.delete(id);
    return null;
  },
};
export type MapRequests = typeof mapRequests;
