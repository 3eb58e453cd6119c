// The maps' vector tiles (issue 30): `npm run bench:maps -- --nodes N` places N nodes around the
// capital cities (as the demo fleet's postcodes do), makes the node map's and the heat map's views as
// the server does, and prints what a view downloads at three zooms (the country, a city, a suburb):
// the gzipped bytes of the tiles a 1440×900 map shows, and the time to index and cut them. The views
// are made as the server makes them (no database), in the map worker thread: what it measures is the
// clustering, binning and encoding, and how long the calling thread's event loop is held meanwhile.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { hexRadiusForZoom } from '@vpp/shared/dashboard/hexagons';
import { type MapPoint, nodeMapTile, nodeMapView } from '../packages/server/src/features/nodes/node-map-tiles.ts';
import { heatMapTile, heatMapView } from '../packages/server/src/features/vpps/heat-map-tiles.ts';
import { stopMapWorker } from '../packages/server/src/platform/map-worker.ts';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const N = arg('nodes', 50_000);
const log = (line: string) => process.stdout.write(`${line}\n`);

// A repeatable pseudo-random sequence (mulberry32).
let seed = 42;
const random = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const gauss = () => Math.sqrt(-2 * Math.log(random() || 1e-9)) * Math.cos(2 * Math.PI * random());
const CITIES: [number, number, number][] = [
  [151.0, -33.85, 0.3],
  [144.95, -37.8, 0.25],
  [153.0, -27.5, 0.2],
  [115.85, -31.95, 0.2],
  [138.6, -34.9, 0.15],
  [147.3, -42.9, 0.1],
  [149.1, -35.3, 0.05],
];
const STATUSES = ['ONLINE', 'ONLINE', 'ONLINE', 'OFFLINE', 'AWAITING_CONTACT', 'NOT_COMMISSIONED'] as const;
const points: MapPoint[] = [];
for (let id = 1; id <= N; id++) {
  const r = random();
  let sum = 0;
  const city =
    CITIES.find((c) => {
      sum += c[2];
      return r < sum;
    }) ?? CITIES[0];
  points.push({ id, lng: city[0] + gauss() * 0.25, lat: city[1] + gauss() * 0.2, siteLabel: null, displayStatus: STATUSES[id % STATUSES.length] });
}
const volts = points.map((p) => ({ id: p.id, lat: p.lat, lng: p.lng, value: 240 + gauss() * 4 }));

/** The tiles (512 px) a 1440×900 map centred on (lng, lat) at zoom z shows. */
function tilesOfView(lng: number, lat: number, z: number) {
  const n = 2 ** z;
  const x = ((lng + 180) / 360) * n;
  const s = Math.sin((lat * Math.PI) / 180);
  const y = (0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI)) * n;
  const out: { z: number; x: number; y: number }[] = [];
  for (let tx = Math.floor(x - 720 / 512); tx <= Math.floor(x + 720 / 512); tx++)
    for (let ty = Math.floor(y - 450 / 512); ty <= Math.floor(y + 450 / 512); ty++) if (ty >= 0 && ty < n) out.push({ z, x: ((tx % n) + n) % n, y: ty });
  return out;
}

const VIEWS = [
  { name: 'the country (zoom 4)', lng: 134, lat: -28, z: 4 },
  { name: 'Sydney (zoom 9)', lng: 151, lat: -33.85, z: 9 },
  { name: 'a suburb (zoom 14)', lng: 151, lat: -33.85, z: 14 },
];

// The API thread's event loop while the worker indexes and cuts: its longest delay.
const loop = monitorEventLoopDelay({ resolution: 10 });
loop.enable();
let t = performance.now();
const nodes = await nodeMapView('bench:nodes', async () => points);
const heat = await heatMapView('bench:heat', async () => volts);
log(`${N.toLocaleString('en-AU')} nodes: views made in ${Math.round(performance.now() - t)} ms (the worker started with them)`);
const results: Record<string, number> = {};
for (const v of VIEWS) {
  const tiles = tilesOfView(v.lng, v.lat, v.z);
  for (const [kind, cut] of [
    ['node map, clustered', (tt: (typeof tiles)[0]) => nodeMapTile(nodes, tt, true)],
    ['node map, every node', (tt: (typeof tiles)[0]) => nodeMapTile(nodes, tt, false)],
    ['heat map', (tt: (typeof tiles)[0]) => heatMapTile(heat, tt, hexRadiusForZoom(v.z))],
  ] as const) {
    t = performance.now();
    const bytes = (await Promise.all(tiles.map(cut))).reduce((sum, b) => sum + b.length, 0);
    const ms = performance.now() - t;
    log(`  ${kind}, ${v.name}: ${tiles.length} tiles, ${(bytes / 1024).toFixed(1)} KB gzipped, cut in ${Math.round(ms)} ms`);
    results[`${kind} ${v.z}`] = bytes;
  }
}
loop.disable();
log(`largest view: ${(Math.max(...Object.values(results)) / 1024).toFixed(1)} KB gzipped (mapViewMaxKbGzip)`);
log(`the calling thread's event loop held at most ${Math.round(loop.max / 1e6)} ms (mapLongestStallMs)`);
await stopMapWorker();
