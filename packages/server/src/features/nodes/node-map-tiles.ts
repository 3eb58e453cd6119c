import { MAP_VIEW_TTL_S } from '@vpp/shared/dashboard/map-tiles';
import { NODE_STATUSES, type NodeStatus } from '@vpp/shared/nodes/schemas';
import type { NodeViewFacts } from '../../platform/map-tiles.ts';
import { mapWorker, mapWorkerGeneration, onMapWorkerReset } from '../../platform/map-worker.ts';
import { type TileView, TileViews, tileOf } from '../../platform/vector-tiles.ts';

// The node maps' vector tiles (issue 30): the dashboard's fleet map, a search's fleet map and a
// VPP's map. Each view (organisation and scope) is read from the database once per report interval
// and handed to the map worker, which indexes it with supercluster and cuts its tiles: the nodes and
// clusters of a square, a cluster with its count by display status (a cluster of one status wears
// its colour) and the zoom it breaks up at (platform/map-tiles.ts).

/** A node as the map shows it. */
export interface MapPoint {
  id: number;
  lat: number;
  lng: number;
  siteLabel: string | null;
  displayStatus: NodeStatus;
}

/** A view as this thread holds it: the worker's number for it (and which worker), its count, bounds and version. */
export interface NodeMapData extends NodeViewFacts {
  id: number;
  worker: number;
}

const views = new TileViews<NodeMapData>(MAP_VIEW_TTL_S * 1000, 64, (d) => {
  if (d.worker === mapWorkerGeneration()) void mapWorker('drop', d.id);
});
onMapWorkerReset(() => views.clear(false));

/** The view of `key` (an organisation and scope), made from `load` when not held or older than the report interval. */
export function nodeMapView(key: string, load: () => Promise<MapPoint[]>): Promise<TileView<NodeMapData>> {
  return views.get(
    key,
    async () => {
      const points = await load();
      const n = points.length;
      const columns = {
        ids: new Float64Array(n),
        lat: new Float64Array(n),
        lng: new Float64Array(n),
        status: new Uint8Array(n),
        labels: [] as [number, string][],
      };
      for (let i = 0; i < n; i++) {
        const p = points[i];
        columns.ids[i] = p.id;
        columns.lat[i] = p.lat;
        columns.lng[i] = p.lng;
        columns.status[i] = NODE_STATUSES.indexOf(p.displayStatus);
        if (p.siteLabel) columns.labels.push([i, p.siteLabel]);
      }
      const worker = mapWorkerGeneration();
      const { id, facts } = await mapWorker('nodeView', columns);
      return { ...facts, id, worker };
    },
    (d) => d.version,
  );
}

/** Forgets the views held (tests). */
export function clearNodeMapViews(): void {
  views.clear();
}

/** The gzipped tile z/x/y of a view: its nodes and (clustered or not) its clusters. */
export function nodeMapTile(view: TileView<NodeMapData>, t: { z: number; x: number; y: number }, cluster: boolean): Promise<Buffer> {
  return tileOf(view, `${cluster ? 'c' : 's'}/${t.z}/${t.x}/${t.y}`, () => mapWorker('nodeTile', { id: view.data.id, t: { z: t.z, x: t.x, y: t.y }, cluster }));
}
