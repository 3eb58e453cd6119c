import { MAP_VIEW_TTL_S } from '@vpp/shared/dashboard/map-tiles';
import type { HeatViewFacts } from '../../platform/map-tiles.ts';
import { mapWorker, mapWorkerGeneration, onMapWorkerReset } from '../../platform/map-worker.ts';
import { type TileView, TileViews, tileOf } from '../../platform/vector-tiles.ts';

// The voltage heat map's vector tiles (issue 30, spec 2 §9): the VPP's nodes with a fresh meter
// voltage are read once per report interval and handed to the map worker, which bins them into
// hexagons at each of the spec's radii and cuts the tiles: the hexagons of the radius the map asks
// (the radius of its zoom) as polygons; far out, where a hexagon is under two pixels across, as
// points, hexagons within a pixel of each other as one point of their nodes' mean voltage.

export interface VoltageReading {
  id: number;
  lat: number;
  lng: number;
  value: number;
}

/** A view as this thread holds it: the worker's number for it (and which worker), and its facts. */
export interface HeatMapData extends HeatViewFacts {
  id: number;
  worker: number;
}

const views = new TileViews<HeatMapData>(MAP_VIEW_TTL_S * 1000, 64, (d) => {
  if (d.worker === mapWorkerGeneration()) void mapWorker('drop', d.id);
});
onMapWorkerReset(() => views.clear(false));

/** Forgets the views held (tests). */
export function clearHeatMapViews(): void {
  views.clear();
}

/** The heat map's view of `key` (an organisation's VPP), made from `load` when not held or older than the report interval. */
export function heatMapView(key: string, load: () => Promise<VoltageReading[]>): Promise<TileView<HeatMapData>> {
  return views.get(
    key,
    async () => {
      const points = await load();
      const n = points.length;
      const columns = { ids: new Float64Array(n), lat: new Float64Array(n), lng: new Float64Array(n), value: new Float64Array(n) };
      for (let i = 0; i < n; i++) {
        const p = points[i];
        columns.ids[i] = p.id;
        columns.lat[i] = p.lat;
        columns.lng[i] = p.lng;
        columns.value[i] = p.value;
      }
      const worker = mapWorkerGeneration();
      const { id, facts } = await mapWorker('heatView', columns);
      return { ...facts, id, worker };
    },
    (d) => d.version,
  );
}

/** The gzipped tile z/x/y of the view's hexagons of `radius` metres. */
export function heatMapTile(view: TileView<HeatMapData>, t: { z: number; x: number; y: number }, radius: number): Promise<Buffer> {
  return tileOf(view, `${radius}/${t.z}/${t.x}/${t.y}`, () => mapWorker('heatTile', { id: view.data.id, t: { z: t.z, x: t.x, y: t.y }, radius }));
}

/** The nodes of hexagon (q, r) at `radius`, lowest voltage first (at most HEXAGON_NODES_LIMIT), and how many it holds. */
export function hexagonNodes(
  view: TileView<HeatMapData>,
  radius: number,
  q: number,
  r: number,
): Promise<{ total: number; nodes: { id: number; value: number }[] }> {
  return mapWorker('hexagon', { id: view.data.id, radius, q, r });
}
