import { HEX_RADIUS_CHOICES, HEX_TILE_LAYER, HEXAGON_NODES_LIMIT, MAP_TILE_MAX_ZOOM, MAP_VIEW_TTL_S } from '@vpp/shared';
import { binHexagons, type HexCell, hexCell, hexCentre, hexRing } from '@vpp/shared/dashboard/hexagons';
import { VOLTAGE_MAX, VOLTAGE_MIN } from '@vpp/shared/dashboard/voltage';
import GeoJSONVT from 'geojson-vt';
import Supercluster from 'supercluster';
import { TILE_EXTENT, type TileFeature, type TileView, TileViews, tileOf, versionOf } from '../../platform/vector-tiles.ts';

// The voltage heat map's vector tiles (issue 30, spec 2 §9): the VPP's nodes with a fresh meter
// voltage are binned into hexagons on the server, at each of the spec's radii, once per report
// interval. A tile carries the hexagons of the radius the map asks (the radius of its zoom) as
// polygons; far out, where a hexagon is under two pixels across, it carries them as points, and
// hexagons within a pixel of each other as one point of their nodes' mean voltage.

export interface VoltageReading {
  id: number;
  lat: number;
  lng: number;
  value: number;
}

/** The hexagons of one radius: the cells, their polygons cut into tiles, their centres clustered. */
interface Radius {
  cells: HexCell[];
  polygons?: GeoJSONVT;
  points?: Supercluster<CellProps, CellSums>;
}
type CellProps = { i: number; v: number; n: number };
type CellSums = { s: number; n: number };

export interface HeatMapData {
  points: VoltageReading[];
  refLat: number;
  outside: number;
  bounds: [number, number, number, number] | null;
  radii: Map<number, Radius>;
}

const views = new TileViews<HeatMapData>(MAP_VIEW_TTL_S * 1000);

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
      const radii = new Map<number, Radius>();
      let refLat = 0;
      for (const r of HEX_RADIUS_CHOICES) {
        const binned = binHexagons(points, r);
        refLat = binned.refLat;
        radii.set(r, { cells: binned.cells });
      }
      let outside = 0;
      let [w, s, e, n] = [Infinity, Infinity, -Infinity, -Infinity];
      for (const p of points) {
        if (p.value < VOLTAGE_MIN || p.value > VOLTAGE_MAX) outside++;
        w = Math.min(w, p.lng);
        e = Math.max(e, p.lng);
        s = Math.min(s, p.lat);
        n = Math.max(n, p.lat);
      }
      return { points, refLat, outside, bounds: points.length ? [w, s, e, n] : null, radii };
    },
    (d) =>
      versionOf(
        d.points.length,
        d.points.flatMap((p) => [p.id, p.lat, p.lng, p.value]),
      ),
  );
}

/** The view's hexagon counts by radius, as the view's reply gives them. */
export function hexagonCounts(data: HeatMapData): Record<string, number> {
  return Object.fromEntries([...data.radii].map(([r, radius]) => [String(r), radius.cells.length]));
}

/** Metres on the ground across one pixel of a 512-pixel tile at zoom z and latitude lat. */
function metresPerPixel(z: number, lat: number): number {
  return (40_075_016.686 * Math.cos((lat * Math.PI) / 180)) / (512 * 2 ** z);
}

/** Two decimals of a volt: enough for the colour steps, and equal values share one entry in the tile. */
const volts = (v: number) => Math.round(v * 100) / 100;

function polygonsOf(data: HeatMapData, radius: number, hexes: Radius): GeoJSONVT {
  hexes.polygons ??= new GeoJSONVT(
    {
      type: 'FeatureCollection',
      features: hexes.cells.map((c, i) => ({
        type: 'Feature',
        id: i,
        properties: { v: volts(c.v), n: c.n, q: c.q, r: c.r },
        geometry: { type: 'Polygon', coordinates: [hexRing(c.q, c.r, radius, data.refLat)] },
      })),
    },
    { maxZoom: MAP_TILE_MAX_ZOOM, extent: TILE_EXTENT, buffer: 64, indexMaxZoom: 4 },
  );
  return hexes.polygons;
}

function pointsOf(data: HeatMapData, radius: number, hexes: Radius): Supercluster<CellProps, CellSums> {
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
        geometry: { type: 'Point' as const, coordinates: hexCentre(c.q, c.r, radius, data.refLat) },
      })),
    );
  }
  return hexes.points;
}

/** The gzipped tile z/x/y of the view's hexagons of `radius` metres. */
export function heatMapTile(view: TileView<HeatMapData>, t: { z: number; x: number; y: number }, radius: number): Buffer {
  return tileOf(view, `${radius}/${t.z}/${t.x}/${t.y}`, (): Record<string, TileFeature[]> => {
    const data = view.data;
    const hexes = data.radii.get(radius) as Radius;
    if (hexes.cells.length === 0) return {};
    const across = (Math.sqrt(3) * radius) / metresPerPixel(t.z, data.refLat);
    if (across >= 2) {
      const tile = polygonsOf(data, radius, hexes).getTile(t.z, t.x, t.y);
      return { [HEX_TILE_LAYER]: (tile?.features ?? []) as TileFeature[] };
    }
    const cells = hexes.cells.length;
    const features = (pointsOf(data, radius, hexes).getTile(t.z, t.x, t.y)?.features ?? []).map((f): TileFeature => {
      const tags = f.tags as Record<string, number | boolean>;
      // One hexagon keeps its id and coordinates; merged hexagons are ids past the last hexagon's.
      if (!tags.cluster) {
        const c = hexes.cells[tags.i as number];
        return { type: 1, geometry: f.geometry, id: tags.i as number, tags: { v: volts(c.v), n: c.n, q: c.q, r: c.r } };
      }
      return { type: 1, geometry: f.geometry, id: cells + (tags.cluster_id as number), tags: { v: volts((tags.s as number) / (tags.n as number)), n: tags.n } };
    });
    return { [HEX_TILE_LAYER]: features };
  });
}

/** The nodes of hexagon (q, r) at `radius`, lowest voltage first (at most HEXAGON_NODES_LIMIT), and how many it holds. */
export function hexagonNodes(data: HeatMapData, radius: number, q: number, r: number) {
  const inside = data.points.filter((p) => {
    const c = hexCell(p.lng, p.lat, radius, data.refLat);
    return c.q === q && c.r === r;
  });
  inside.sort((a, b) => a.value - b.value || a.id - b.id);
  return { total: inside.length, nodes: inside.slice(0, HEXAGON_NODES_LIMIT).map((p) => ({ id: p.id, value: p.value })) };
}
