import { MAP_CLUSTER_MAX_ZOOM, MAP_TILE_MAX_ZOOM, MAP_VIEW_TTL_S, NODE_STATUSES, NODE_TILE_LAYER, type NodeStatus } from '@vpp/shared';
import Supercluster from 'supercluster';
import { TILE_EXTENT, type TileFeature, type TileView, TileViews, tileOf, versionOf } from '../../platform/vector-tiles.ts';

// The node maps' vector tiles (issue 30): the dashboard's fleet map, a search's fleet map and a
// VPP's map. Each view (organisation and scope) is indexed by supercluster once per report
// interval; each tile carries the nodes and clusters of its square, a cluster with its count by
// display status (a cluster of one status wears its colour) and the zoom it breaks up at.

/** A node as the map shows it. */
export interface MapPoint {
  id: number;
  lat: number;
  lng: number;
  siteLabel: string | null;
  displayStatus: NodeStatus;
}

// The hover label travels only when the node has a site label (the browser says "Node {id}" otherwise).
type NodeProps = { id: number; status: NodeStatus; label?: string };
type ClusterCounts = Record<NodeStatus, number>;

/** One view's nodes, its bounds, and its two indexes (made when first asked). */
export interface NodeMapData {
  points: MapPoint[];
  bounds: [number, number, number, number] | null;
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

const views = new TileViews<NodeMapData>(MAP_VIEW_TTL_S * 1000);

/** The view of `key` (an organisation and scope), made from `load` when not held or older than the report interval. */
export function nodeMapView(key: string, load: () => Promise<MapPoint[]>): Promise<TileView<NodeMapData>> {
  return views.get(
    key,
    async () => {
      const points = await load();
      return { points, bounds: boundsOf(points), indexes: {} };
    },
    (d) =>
      versionOf(
        d.points.length,
        d.points.flatMap((p) => [p.id, p.lat, p.lng, NODE_STATUSES.indexOf(p.displayStatus)]),
        d.points.map((p) => p.siteLabel ?? '').join('\u0000'),
      ),
  );
}

/** Forgets the views held (tests). */
export function clearNodeMapViews(): void {
  views.clear();
}

function boundsOf(points: readonly { lat: number; lng: number }[]): [number, number, number, number] | null {
  if (points.length === 0) return null;
  let [w, s, e, n] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const p of points) {
    w = Math.min(w, p.lng);
    e = Math.max(e, p.lng);
    s = Math.min(s, p.lat);
    n = Math.max(n, p.lat);
  }
  return [w, s, e, n];
}

function indexOf(data: NodeMapData, cluster: boolean): Supercluster<NodeProps, ClusterCounts> {
  const kind = cluster ? 'clustered' : 'single';
  let index = data.indexes[kind];
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
    index.load(
      data.points.map((p) => ({
        type: 'Feature' as const,
        properties: { id: p.id, status: p.displayStatus, ...(p.siteLabel ? { label: p.siteLabel } : {}) },
        geometry: { type: 'Point' as const, coordinates: [p.lng, p.lat] },
      })),
    );
    data.indexes[kind] = index;
  }
  return index;
}

/** The gzipped tile z/x/y of a view: its nodes and (clustered or not) its clusters. */
export function nodeMapTile(view: TileView<NodeMapData>, t: { z: number; x: number; y: number }, cluster: boolean): Buffer {
  return tileOf(view, `${cluster ? 'c' : 's'}/${t.z}/${t.x}/${t.y}`, () => {
    const index = indexOf(view.data, cluster);
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
    return { [NODE_TILE_LAYER]: features };
  });
}
