import { describe, expect, it } from 'vitest';
import { HEX_RADIUS_CLOSE, hexagonFeatures, hexCell, hexRadiusForZoom, hexRing, referenceLatitude } from './hexagons.ts';
import { voltageColour } from './voltage.ts';

const EARTH = 6378137;
const RAD = Math.PI / 180;

/** Metres on the ground between two points (haversine on the sphere Web Mercator uses). */
function metres(a: [number, number], b: [number, number]): number {
  const dLat = (b[1] - a[1]) * RAD;
  const dLng = (b[0] - a[0]) * RAD;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a[1] * RAD) * Math.cos(b[1] * RAD) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH * Math.asin(Math.sqrt(h));
}
/** A point `m` metres east and `n` metres north of another (small distances). */
function offset(p: [number, number], east: number, north: number): [number, number] {
  return [p[0] + east / (EARTH * RAD * Math.cos(p[1] * RAD)), p[1] + north / (EARTH * RAD)];
}
/** Web Mercator metres, where the hexagons' edges are straight. */
const merc = (p: [number, number]): [number, number] => [EARTH * p[0] * RAD, EARTH * Math.log(Math.tan(Math.PI / 4 + (p[1] * RAD) / 2))];
function inside(p: [number, number], ring: [number, number][]): boolean {
  const [x, y] = merc(p);
  const r = ring.map(merc);
  let yes = false;
  for (let i = 0, j = r.length - 2; i < r.length - 1; j = i++) {
    if (r[i][1] > y !== r[j][1] > y && x < ((r[j][0] - r[i][0]) * (y - r[i][1])) / (r[j][1] - r[i][1]) + r[i][0]) yes = !yes;
  }
  return yes;
}
/** A hexagon's centre: the mean of its six corners in Mercator metres, back in degrees. */
function centreOf(ring: [number, number][]): [number, number] {
  const m = ring.slice(0, 6).map(merc);
  const x = m.reduce((s, c) => s + c[0], 0) / 6;
  const y = m.reduce((s, c) => s + c[1], 0) / 6;
  return [x / EARTH / RAD, (2 * Math.atan(Math.exp(y / EARTH)) - Math.PI / 2) / RAD];
}
/** Reproducible points scattered over Greater Sydney. */
function scatter(n: number, seed = 7): { id: number; lat: number; lng: number; value: number }[] {
  let s = seed;
  const next = () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
  return Array.from({ length: n }, (_, i) => ({ id: i + 1, lng: 150.6 + next() * 0.8, lat: -34.1 + next() * 0.6, value: 225 + next() * 30 }));
}

describe('the hexagon radius per zoom (spec 2 §9)', () => {
  it('is 1000 m up to zoom 12, 500 m up to 14, 300 m up to 15, else 100 m, each boundary included', () => {
    const zooms = [0, 3.2, 11.99, 12, 12.01, 13, 14, 14.01, 15, 15.01, 16, 22];
    expect(zooms.map(hexRadiusForZoom)).toEqual([1000, 1000, 1000, 1000, 500, 500, 500, 300, 300, 100, 100, 100]);
    expect(HEX_RADIUS_CLOSE).toBe(100);
  });
});

describe('binning the nodes into hexagons', () => {
  it.each([1000, 500, 300, 100])('puts a node in the hexagon of radius %i m around it, a regular hexagon of that radius on the ground', (radius) => {
    const points = scatter(200);
    const refLat = referenceLatitude(points);
    expect(refLat).toBe(-34);
    for (const p of points) {
      const { q, r } = hexCell(p.lng, p.lat, radius, refLat);
      const ring = hexRing(q, r, radius, refLat);
      expect(ring).toHaveLength(7);
      expect(ring[6]).toEqual(ring[0]);
      expect(inside([p.lng, p.lat], ring)).toBe(true);
      const centre = centreOf(ring);
      // Within the radius of the centre (a corner is the farthest a point can be), and the corners a radius away (to 2 % across the 0.6° the points span).
      expect(metres([p.lng, p.lat], centre)).toBeLessThanOrEqual(radius * 1.02);
      for (const corner of ring.slice(0, 6)) expect(Math.abs(metres(corner, centre) / radius - 1)).toBeLessThan(0.02);
    }
    // At the reference latitude the size is exact: the hexagon's corners are `radius` metres from its centre.
    const at = hexCell(151, -34, radius, -34);
    const ring = hexRing(at.q, at.r, radius, -34);
    const centre = centreOf(ring);
    for (const corner of ring.slice(0, 6)) expect(Math.abs(metres(corner, centre) - radius)).toBeLessThan(radius * 0.002);
    // Pointy-topped: the east neighbour's centre is √3 radius away, the next row 1.5 radius north or south.
    const east = offset(centre, Math.sqrt(3) * radius, 0);
    expect(hexCell(east[0], east[1], radius, -34)).toEqual({ q: at.q + 1, r: at.r });
    const near = offset(centre, 0.4 * radius, -0.4 * radius);
    expect(hexCell(near[0], near[1], radius, -34)).toEqual(at);
    const north = offset(centre, (Math.sqrt(3) / 2) * radius, 1.5 * radius);
    expect(hexCell(north[0], north[1], radius, -34)).toEqual({ q: at.q, r: at.r + 1 });
  });

  it('colours a hexagon by the mean voltage of its nodes, each node in exactly one hexagon', () => {
    const centre = centreOf(hexRing(hexCell(151.2, -33.87, 1000, -34).q, hexCell(151.2, -33.87, 1000, -34).r, 1000, -34));
    const near = (east: number, north: number) => offset(centre, east, north);
    const points = [
      { id: 1, lng: near(100, 0)[0], lat: near(100, 0)[1], value: 236 },
      { id: 2, lng: near(-200, 150)[0], lat: near(-200, 150)[1], value: 252 },
      { id: 3, lng: near(0, -300)[0], lat: near(0, -300)[1], value: 250 },
      // Five kilometres east: a hexagon of its own.
      { id: 4, lng: near(5000, 0)[0], lat: near(5000, 0)[1], value: 229 },
    ];
    const hexes = hexagonFeatures(points, 1000);
    expect(hexes.features.map((f) => [f.id, f.properties.n, f.properties.v])).toEqual([
      [0, 3, 246],
      [1, 1, 229],
    ]);
    // 236 V and 252 V alone would be green and red: their hexagon wears its mean's colour.
    expect(voltageColour(hexes.features[0].properties.v)).toBe(voltageColour(246));
    expect(inside([points[0].lng, points[0].lat], hexes.features[0].geometry.coordinates[0] as [number, number][])).toBe(true);
    // Closer in, at 100 m, the three nodes hundreds of metres apart part ways.
    expect(hexagonFeatures(points, 100).features.map((f) => f.properties.n)).toEqual([1, 1, 1, 1]);
    expect(hexagonFeatures([], 1000).features).toEqual([]);
  });

  it('bins 50,000 nodes into hexagons that together hold every node once', () => {
    const points = scatter(50_000, 11);
    for (const radius of [1000, 500, 300, 100]) {
      const hexes = hexagonFeatures(points, radius);
      expect(hexes.features.reduce((s, f) => s + f.properties.n, 0)).toBe(50_000);
      // The mean of the means weighted by their counts is the mean of all nodes.
      const weighted = hexes.features.reduce((s, f) => s + f.properties.v * f.properties.n, 0) / 50_000;
      expect(weighted).toBeCloseTo(points.reduce((s, p) => s + p.value, 0) / 50_000, 6);
      expect(new Set(hexes.features.map((f) => JSON.stringify(f.geometry.coordinates[0][0]))).size).toBe(hexes.features.length);
    }
    // Coarser hexagons hold more nodes each.
    expect(hexagonFeatures(points, 1000).features.length).toBeLessThan(hexagonFeatures(points, 100).features.length);
  });
});
