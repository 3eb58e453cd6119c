import { gunzipSync } from 'node:zlib';
import { VectorTile } from '@mapbox/vector-tile';
import { PbfReader } from 'pbf';
import { beforeAll, beforeEach, expect, it } from 'vitest';
import { nowS } from '../../db/database.ts';
import { node } from '../../test/factories.ts';
import { describeEachDatabase } from '../../test/harness.ts';
import { clearNodeMapViews } from '../nodes/index.ts';
import { clearHeatMapViews } from './heat-map-tiles.ts';

/** The tile of zoom z holding a point. */
function tileAt(lng: number, lat: number, z: number) {
  const n = 2 ** z;
  const x = Math.floor(((lng + 180) / 360) * n);
  const s = Math.sin((lat * Math.PI) / 180);
  const y = Math.floor((0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI)) * n);
  return { z, x, y };
}

/** A tile reply's features of one layer: their properties and GeoJSON geometry type. */
function featuresOf(body: Buffer, layer: string, t: { z: number; x: number; y: number }) {
  const tile = new VectorTile(new PbfReader(body));
  const l = tile.layers[layer];
  if (!l) return [];
  return Array.from({ length: l.length }, (_, i) => {
    const f = l.feature(i);
    return { id: f.id, properties: f.properties as Record<string, number | string | boolean>, type: f.toGeoJSON(t.x, t.y, t.z).geometry.type };
  });
}

// Issue 30: the maps ask for their view and for vector tiles, never for every node; every call checks
// the caller's permission (the access-control matrix) and organisation (here).
describeEachDatabase('map views and vector tiles', (h) => {
  let org: number;
  let headers: { authorization: string };
  let otherHeaders: { authorization: string };
  const places = {
    newtown: [151.179, -33.897],
    enmore: [151.173, -33.9],
    bondi: [151.274, -33.891],
    brisbane: [153.02, -27.47],
    melbourne: [144.96, -37.81],
  } as const;
  const ids: Record<string, number> = {};
  let foreign: number;
  const get = (url: string, hdrs = headers) => h().app.inject({ method: 'GET', url, headers: { ...hdrs, 'accept-encoding': 'gzip' } });
  const tile = async (url: string) => {
    const res = await get(url);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.mapbox-vector-tile');
    expect(res.headers['content-encoding']).toBe('gzip');
    return gunzipSync(res.rawPayload);
  };

  beforeAll(async () => {
    org = await h().org('RETAILER', 'Tiled');
    const other = await h().org('RETAILER', 'Elsewhere');
    headers = await h().bearer((await h().user(org)).username);
    otherHeaders = await h().bearer((await h().user(other)).username);
    for (const [name, [lng, lat]] of Object.entries(places)) {
      const n = await node(h(), [org], { label: name === 'newtown' ? 'Nguyen Home' : undefined, commissioned: name !== 'melbourne' });
      await h().ctx.db.updateTable('nodes').set({ lat, lng }).where('id', '=', n.id).execute();
      ids[name] = n.id;
    }
    const f = await node(h(), [other]);
    await h().ctx.db.updateTable('nodes').set({ lat: -33.898, lng: 151.178 }).where('id', '=', f.id).execute();
    foreign = f.id;
  });
  beforeEach(() => {
    clearNodeMapViews();
    clearHeatMapViews();
  });

  it("answers the fleet map's view and tiles of the caller's nodes only, clustered by status or one by one", async () => {
    const view = await get('/dashboard/map/view');
    expect(view.statusCode, view.body).toBe(200);
    const { total, bounds, version } = view.json().data;
    expect(total).toBe(5);
    expect(bounds).toEqual([144.96, -37.81, 153.02, -27.47]);
    expect(version).toMatch(/^[\w-]{16}$/);

    // The whole country in one tile: clusters and nodes that together count every node once.
    const world = featuresOf(await tile(`/dashboard/map/tiles/0/0/0?v=${version}`), 'nodes', { z: 0, x: 0, y: 0 });
    expect(world.reduce((s, f) => s + Number(f.properties.point_count ?? 1), 0)).toBe(5);
    const five = tileAt(...places.newtown, 5);
    const region = featuresOf(await tile(`/dashboard/map/tiles/5/${five.x}/${five.y}?v=${version}`), 'nodes', five);
    const sydney = region.find((f) => Number(f.properties.point_count) === 3);
    // A cluster counts its nodes by status, statuses of none left out; on a clustered map it carries its id and label.
    expect(sydney?.properties).toMatchObject({ cluster: true, ONLINE: 3, point_count_abbreviated: 3 });
    expect(Object.keys(sydney?.properties ?? {})).not.toContain('OFFLINE');
    expect(typeof sydney?.properties.cluster_id).toBe('number');
    expect(Number(sydney?.properties.expansion_zoom)).toBeGreaterThan(0);

    // Close in, each node on its own with its id (the feature's), status and hover label; never another organisation's.
    const close = tileAt(...places.newtown, 14);
    const nodes = featuresOf(await tile(`/dashboard/map/tiles/14/${close.x}/${close.y}`), 'nodes', close);
    expect(nodes.map((f) => ({ id: f.id, ...f.properties }))).toEqual(
      expect.arrayContaining([
        { id: ids.newtown, status: 'ONLINE', label: 'Nguyen Home' },
        { id: ids.enmore, status: 'ONLINE' },
      ]),
    );
    expect(nodes.map((f) => f.id)).not.toContain(foreign);

    // Without clustering, far out: only nodes within a pixel of each other are one dot.
    const single = featuresOf(await tile(`/dashboard/map/tiles/5/${five.x}/${five.y}?cluster=false`), 'nodes', five);
    expect(single.reduce((s, f) => s + Number(f.properties.point_count ?? 1), 0)).toBe(3);
    // Unlabelled there: no cluster id or abbreviated count travels.
    for (const f of single.filter((x) => x.properties.cluster)) expect(Object.keys(f.properties)).not.toContain('cluster_id');

    // A search narrows the view and its tiles.
    const searched = await get('/dashboard/map/view?f=Nguyen');
    expect(searched.json().data).toMatchObject({ total: 1, bounds: [151.179, -33.897, 151.179, -33.897] });
    const status = await get('/dashboard/map/view?status=NOT_COMMISSIONED');
    expect(status.json().data.total).toBe(1);
  });

  it('answers 400 for a tile outside its zoom or a bad option, and changes nothing', async () => {
    const outside = await get('/dashboard/map/tiles/2/4/0');
    expect(outside.statusCode).toBe(400);
    expect(outside.json().data.message).toBe('x and y must be below 4 at zoom 2.');
    const deep = await get('/dashboard/map/tiles/17/0/0');
    expect(deep.statusCode).toBe(400);
    expect(deep.json().data.message).toBe('z must be a whole number from 0 to 16.');
    const cluster = await get('/dashboard/map/tiles/0/0/0?cluster=maybe');
    expect(cluster.statusCode).toBe(400);
    expect(cluster.json().data.message).toBe('cluster must be true or false.');
  });

  it("answers a VPP's map view and tiles, and another organisation's VPP as not found", async () => {
    const res = await h().app.inject({
      method: 'POST',
      url: '/api/powerstations',
      headers,
      payload: { type: 'STATIC', name: 'Sydney homes', nodes: [ids.newtown, ids.bondi] },
    });
    const id = res.json().data.id as number;
    const view = await get(`/v2/powerstations/${id}/map/view`);
    expect(view.json().data).toMatchObject({ total: 2, bounds: [151.179, -33.897, 151.274, -33.891] });
    const t = tileAt(...places.bondi, 13);
    const features = featuresOf(await tile(`/v2/powerstations/${id}/map/tiles/13/${t.x}/${t.y}`), 'nodes', t);
    expect(features.map((f) => f.id)).toEqual([ids.bondi]);
    for (const url of [`/v2/powerstations/${id}/map/view`, `/v2/powerstations/${id}/map/tiles/0/0/0`]) {
      const theirs = await get(url, otherHeaders);
      expect(theirs.statusCode, url).toBe(404);
    }
  });

  it("bins the VPP's fresh voltages into the spec's hexagons on the server, and lists a hexagon's nodes", async () => {
    const now = nowS();
    const volts: Record<string, number> = { newtown: 252, enmore: 254, bondi: 241, brisbane: 229, melbourne: 240 };
    await h().ctx.telemetry.ingest(
      [
        ...Object.entries(volts).map(([name, v]) => ({ nodeId: ids[name], ts: now - 60, dt: 30, voltage: v, meter_p: 1 })),
        { nodeId: foreign, ts: now - 60, dt: 30, voltage: 200, meter_p: 1 },
      ],
      now,
    );
    const res = await h().app.inject({
      method: 'POST',
      url: '/api/powerstations',
      headers,
      payload: { type: 'STATIC', name: 'Heat', nodes: Object.values(ids) },
    });
    const id = res.json().data.id as number;
    const view = await get(`/api/powerstations/${id}/data/latest/heat-map`);
    expect(view.statusCode, view.body).toBe(200);
    // Newtown and Enmore are 600 m apart: one hexagon of 1000 m, two of 500 m.
    expect(view.json().data).toMatchObject({ total: 5, outside: 1, hexagons: { '1000': 4, '500': 5, '300': 5, '100': 5 } });
    const version = view.json().data.version as string;

    // Far out the hexagons are points; close in, polygons with their mean voltage, count and coordinates.
    const far = featuresOf(await tile(`/api/powerstations/${id}/data/latest/heat-map/tiles/0/0/0?radius=1000&v=${version}`), 'hexagons', { z: 0, x: 0, y: 0 });
    expect(far.every((f) => f.type === 'Point')).toBe(true);
    expect(far.reduce((s, f) => s + Number(f.properties.n), 0)).toBe(5);
    const t = tileAt(...places.newtown, 12);
    const near = featuresOf(await tile(`/api/powerstations/${id}/data/latest/heat-map/tiles/12/${t.x}/${t.y}?radius=1000`), 'hexagons', t);
    const inner = near.find((f) => f.properties.n === 2);
    expect(inner).toMatchObject({ type: 'Polygon', properties: { v: 253, n: 2 } });

    const listed = await get(`/api/powerstations/${id}/data/latest/heat-map/hexagon?radius=1000&q=${inner?.properties.q}&r=${inner?.properties.r}`);
    expect(listed.json()).toEqual({
      status: 'OK',
      data: {
        total: 2,
        nodes: [
          { id: ids.newtown, value: 252 },
          { id: ids.enmore, value: 254 },
        ],
      },
    });

    const radius = await get(`/api/powerstations/${id}/data/latest/heat-map/tiles/0/0/0?radius=250`);
    expect(radius.statusCode).toBe(400);
    expect(radius.json().data.message).toBe('radius must be one of 1000, 500, 300, 100 metres.');
    for (const url of [
      `/api/powerstations/${id}/data/latest/heat-map`,
      `/api/powerstations/${id}/data/latest/heat-map/tiles/0/0/0?radius=1000`,
      `/api/powerstations/${id}/data/latest/heat-map/hexagon?radius=1000&q=0&r=0`,
    ]) {
      const theirs = await get(url, otherHeaders);
      expect(theirs.statusCode, url).toBe(404);
    }
  });
});
