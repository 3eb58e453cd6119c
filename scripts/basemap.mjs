// Writes the basemap shipped with the web app: Australia's coastline from Natural Earth (the
// world-atlas package, 1:50m), to packages/web/public/basemap/australia.json. Run before each build.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { feature } from 'topojson-client';

const require = createRequire(path.resolve(import.meta.dirname, '../packages/web/package.json'));
const topo = JSON.parse(fs.readFileSync(require.resolve('world-atlas/countries-50m.json'), 'utf8'));
const australia = feature(topo, topo.objects.countries).features.find((f) => f.id === '036');
const round = (c) => (typeof c[0] === 'number' ? [Math.round(c[0] * 1000) / 1000, Math.round(c[1] * 1000) / 1000] : c.map(round));
australia.geometry.coordinates = round(australia.geometry.coordinates);
const out = path.resolve(import.meta.dirname, '../packages/web/public/basemap/australia.json');
fs.mkdirSync(path.dirname(out), { recursive: true });
fs.writeFileSync(
  out,
  JSON.stringify({ type: 'FeatureCollection', features: [{ type: 'Feature', properties: { name: 'Australia' }, geometry: australia.geometry }] }),
);
