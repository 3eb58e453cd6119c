import type { Feature, FeatureCollection, Polygon } from 'geojson';
import type { VoltagePoint } from './voltage.ts';

// The voltage heat map's hexagons (spec 2 §9): the nodes binned into hexagons whose radius depends on
// the zoom, each coloured by the mean latest voltage of its nodes. The grid is pointy-topped and laid
// in Web Mercator metres, scaled by 1 / cos(latitude) so that the radius is in metres on the ground;
// one pass over the points, so that 50,000 nodes bin in a few milliseconds.

/** Spec 2 §9: hexagon radius 1000 m up to zoom 12, 500 m up to 14, 300 m up to 15, else 100 m. */
export const HEX_RADII: readonly { upToZoom: number; radius: number }[] = [
  { upToZoom: 12, radius: 1000 },
  { upToZoom: 14, radius: 500 },
  { upToZoom: 15, radius: 300 },
];
export const HEX_RADIUS_CLOSE = 100;

/** The hexagons' radius in metres at a (fractional) zoom; "up to" includes the boundary. */
export function hexRadiusForZoom(zoom: number): number {
  for (const step of HEX_RADII) if (zoom <= step.upToZoom) return step.radius;
  return HEX_RADIUS_CLOSE;
}

/** The WGS 84 radius Web Mercator uses, in metres. */
const EARTH = 6378137;
/** Beyond this latitude Web Mercator is not drawn. */
const MAX_LAT = 85.051129;
const RAD = Math.PI / 180;
const SQRT3 = Math.sqrt(3);
/** Axial coordinates are offset by this much in the numeric key (|q|, |r| stay below it at 100 m). */
const KEY_OFFSET = 2 ** 20;
const KEY_BASE = 2 ** 21;

function mercatorY(lat: number): number {
  const l = Math.max(-MAX_LAT, Math.min(MAX_LAT, lat));
  return EARTH * Math.log(Math.tan(Math.PI / 4 + (l * RAD) / 2));
}
function latitudeOf(y: number): number {
  return (2 * Math.atan(Math.exp(y / EARTH)) - Math.PI / 2) / RAD;
}

/**
 * The latitude whose scale the whole grid takes: the points' mean latitude, to the whole degree,
 * so that a refetch with a node more or less does not shift every hexagon. A VPP spans a few degrees
 * at most, where the scale changes by a few per cent.
 */
export function referenceLatitude(points: readonly Pick<VoltagePoint, 'lat'>[]): number {
  if (points.length === 0) return 0;
  let sum = 0;
  for (const p of points) sum += p.lat;
  return Math.max(-80, Math.min(80, Math.round(sum / points.length)));
}

/** The grid's radius in Mercator metres for a radius on the ground at the reference latitude. */
function projectedRadius(radius: number, refLat: number): number {
  return radius / Math.cos(refLat * RAD);
}

/** The axial coordinates (pointy-topped) of the hexagon holding a point, for a projected radius. */
function cellOf(lng: number, lat: number, size: number): [number, number] {
  const x = EARTH * lng * RAD;
  const y = mercatorY(lat);
  const qf = ((SQRT3 / 3) * x - y / 3) / size;
  const rf = ((2 / 3) * y) / size;
  const sf = -qf - rf;
  let q = Math.round(qf);
  let r = Math.round(rf);
  const s = Math.round(sf);
  const dq = Math.abs(q - qf);
  const dr = Math.abs(r - rf);
  const ds = Math.abs(s - sf);
  if (dq > dr && dq > ds) q = -r - s;
  else if (dr > ds) r = -q - s;
  return [q, r];
}

/** The hexagon holding a point, at a radius on the ground and a reference latitude: its axial q and r. */
export function hexCell(lng: number, lat: number, radius: number, refLat: number): { q: number; r: number } {
  const [q, r] = cellOf(lng, lat, projectedRadius(radius, refLat));
  return { q, r };
}

/** A hexagon's closed ring of [lng, lat] corners, counter-clockwise, for its axial coordinates. */
export function hexRing(q: number, r: number, radius: number, refLat: number): [number, number][] {
  const size = projectedRadius(radius, refLat);
  const cx = size * SQRT3 * (q + r / 2);
  const cy = size * 1.5 * r;
  const ring: [number, number][] = [];
  for (let i = 0; i < 6; i++) {
    const a = (30 + 60 * i) * RAD;
    ring.push([(cx + size * Math.cos(a)) / EARTH / RAD, latitudeOf(cy + size * Math.sin(a))]);
  }
  ring.push(ring[0]);
  return ring;
}

/** A hexagon's properties: `v` the mean voltage of its nodes (the colour), `n` how many nodes. */
export interface HexProps {
  v: number;
  n: number;
}

/** One non-empty hexagon: its axial coordinates, the mean voltage and count of its nodes. */
export interface HexCell {
  q: number;
  r: number;
  v: number;
  n: number;
}

/**
 * The points binned into hexagons of `radius` metres at the points' reference latitude: one pass
 * over the points, one cell per non-empty hexagon (in the order first met).
 */
export function binHexagons(points: readonly Pick<VoltagePoint, 'lat' | 'lng' | 'value'>[], radius: number): { refLat: number; cells: HexCell[] } {
  const refLat = referenceLatitude(points);
  const size = projectedRadius(radius, refLat);
  const index = new Map<number, number>();
  const cells: HexCell[] = [];
  for (const p of points) {
    const [q, r] = cellOf(p.lng, p.lat, size);
    const key = (q + KEY_OFFSET) * KEY_BASE + (r + KEY_OFFSET);
    let i = index.get(key);
    if (i === undefined) {
      i = cells.length;
      index.set(key, i);
      cells.push({ q, r, v: 0, n: 0 });
    }
    cells[i].v += p.value;
    cells[i].n++;
  }
  for (const c of cells) c.v /= c.n;
  return { refLat, cells };
}

/** A hexagon's centre as [lng, lat]. */
export function hexCentre(q: number, r: number, radius: number, refLat: number): [number, number] {
  const size = projectedRadius(radius, refLat);
  return [(size * SQRT3 * (q + r / 2)) / EARTH / RAD, latitudeOf(size * 1.5 * r)];
}

/**
 * The points binned into hexagons of `radius` metres, as GeoJSON polygons (numbered from 0 as
 * feature ids), each with the mean voltage and count of its nodes.
 */
export function hexagonFeatures(points: readonly VoltagePoint[], radius: number): FeatureCollection<Polygon, HexProps> {
  const { refLat, cells } = binHexagons(points, radius);
  const features: Feature<Polygon, HexProps>[] = cells.map((c, i) => ({
    type: 'Feature',
    id: i,
    properties: { v: c.v, n: c.n },
    geometry: { type: 'Polygon', coordinates: [hexRing(c.q, c.r, radius, refLat)] },
  }));
  return { type: 'FeatureCollection', features };
}
