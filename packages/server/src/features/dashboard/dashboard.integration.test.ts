import { ALL_FLEET_NODES } from '@vpp/shared/constants';
import { MESSAGES } from '@vpp/shared/messages';
import { NODE_STATUSES, nodeStatus } from '@vpp/shared/nodes/schemas';
import { endOfPeriod, localMidnights } from '@vpp/shared/time';
import { beforeAll, expect, it } from 'vitest';
import { seedFleet } from '../../test/fleet.ts';
import { describeEachDatabase } from '../../test/harness.ts';
import type { NodeRow } from '../nodes/index.ts';

type Headers = { authorization: string };
type Series = Record<string, Record<string, number | null>>;

describeEachDatabase('dashboard routes', (h) => {
  let fleet: NodeRow[];
  let foreign: NodeRow[];
  let from: number;
  let to: number;
  let admin: Headers;
  let none: Headers;
  let theirs: Headers;

  const get = (url: string, headers?: Headers) => h().app.inject({ method: 'GET', url, headers });
  const status = (r: NodeRow) =>
    nodeStatus({ state: r.unit_state, status: { ping: { lastTimestamp: r.last_contact, connectionOffline: r.connection_offline === 1 } } });

  beforeAll(async () => {
    const retailer = await h().org('RETAILER');
    const other = await h().org('RETAILER');
    ({ from, to } = await seedFleet(h(), { retailer, count: 24, seed: 31 }, [{ retailer: other, count: 5, seed: 32 }], 1));
    const members = async (org: number) =>
      h()
        .ctx.db.selectFrom('nodes')
        .innerJoin('fleet_members', 'fleet_members.node_id', 'nodes.id')
        .selectAll('nodes')
        .select('fleet_members.site_label')
        .where('fleet_members.organisation_id', '=', org)
        .orderBy('nodes.id')
        .execute();
    fleet = await members(retailer);
    foreign = await members(other);
    admin = await h().bearer((await h().user(retailer)).username);
    none = await h().bearer((await h().user(retailer, { permissions: ['fleet.dispatches.view', 'fleet.analysis.export.view'] })).username);
    theirs = await h().bearer((await h().user(other)).username);
  });

  const calls = () => ['/dashboard/map', '/dashboard/totals', `/api/data?id=${ALL_FLEET_NODES}&metrics=solarPower&interval=300&start=${from}&end=${to}`];

  it('answers 401 to every dashboard call without a token', async () => {
    for (const url of calls()) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(401);
      expect(res.json().data.message).toBe('Sign in to continue.');
    }
  });

  it('answers 403 to every dashboard call for a user without fleet permissions', async () => {
    for (const url of calls()) {
      const res = await get(url, none);
      expect(res.statusCode, url).toBe(403);
      expect(res.json().data.message).toBe(MESSAGES.notAuthorized);
    }
  });

  it('maps every node of the fleet, and only of this fleet, with its display status', async () => {
    const res = await get('/dashboard/map', admin);
    expect(res.statusCode).toBe(200);
    expect(res.json().deployments).toEqual(fleet.map((n) => ({ id: n.id, lat: n.lat, lng: n.lng, siteLabel: n.site_label, displayStatus: status(n) })));
    const other = (await get('/dashboard/map', theirs)).json().deployments.map((d: { id: number }) => d.id);
    expect(other).toEqual(foreign.map((n) => n.id));
  });

  it('maps only the nodes a search finds', async () => {
    const suburb = fleet[0].suburb;
    const res = await get(`/dashboard/map?f=${encodeURIComponent(suburb.toLowerCase())}`, admin);
    const expected = fleet.filter((n) => n.suburb.toLowerCase().includes(suburb.toLowerCase()) || n.street.toLowerCase().includes(suburb.toLowerCase()));
    expect(res.json().deployments.map((d: { id: number }) => d.id)).toEqual(expected.map((n) => n.id));
    expect((await get('/dashboard/map?f=nowhere-at-all', admin)).json()).toEqual({ deployments: [] });
  });

  it('maps only the nodes of a display status, with or without a search', async () => {
    let sum = 0;
    for (const s of NODE_STATUSES) {
      const res = await get(`/dashboard/map?status=${s}`, admin);
      expect(res.statusCode).toBe(200);
      expect(res.json().deployments.map((d: { id: number }) => d.id)).toEqual(fleet.filter((n) => status(n) === s).map((n) => n.id));
      for (const d of res.json().deployments) expect(d.displayStatus).toBe(s);
      sum += res.json().deployments.length;
    }
    expect(sum).toBe(fleet.length);
    const node = fleet.find((n) => status(n) === 'ONLINE') as NodeRow;
    const found = await get(`/dashboard/map?f=${node.serial_number}&status=ONLINE`, admin);
    expect(found.json().deployments.map((d: { id: number }) => d.id)).toEqual([node.id]);
    expect((await get(`/dashboard/map?f=${node.serial_number}&status=NOT_COMMISSIONED`, admin)).json()).toEqual({ deployments: [] });
  });

  it('refuses a map status that does not exist, with the exact message', async () => {
    const res = await get('/dashboard/map?status=SLEEPING', admin);
    expect(res.statusCode).toBe(400);
    expect(res.json().data.message).toBe(`status must be one of ${NODE_STATUSES.join(', ')}.`);
  });

  it('counts commissioned, not commissioned and offline nodes of the fleet', async () => {
    const count = (rows: NodeRow[]) => ({
      commissioned: rows.filter((n) => n.unit_state === 'COMMISSIONED').length,
      non_commissioned: rows.filter((n) => n.unit_state !== 'COMMISSIONED').length,
      offline: rows.filter((n) => ['OFFLINE', 'AWAITING_CONTACT'].includes(status(n))).length,
    });
    const res = await get('/dashboard/totals', admin);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'OK', data: { deploymentCounts: count(fleet) } });
    expect(res.json().data.deploymentCounts.commissioned).toBeGreaterThan(0);
    expect((await get('/dashboard/totals', theirs)).json().data.deploymentCounts).toEqual(count(foreign));
  });

  it("sums the fleet's nodes at every 5 minutes, and averages those sums over each hour", async () => {
    const metrics = ['solarPower', 'meterPower', 'batteryPower', 'housePower', 'remainingCharge'];
    // A whole hour before the history begins: the first hourly bucket holds nothing yet.
    const start = Math.floor(from / 3600) * 3600 - 3600;
    const fleetSeries = async (interval: number) => {
      const res = await get(`/api/data?id=${ALL_FLEET_NODES}&metrics=${metrics.join(',')}&interval=${interval}&start=${start}&end=${to}`, admin);
      expect(res.statusCode).toBe(200);
      const series = res.json().series as Series;
      // The buckets that begin in [start, end): from the first whole interval at or after start.
      const first = Math.ceil(start / interval) * interval;
      expect(Object.keys(series).map(Number)).toEqual(Array.from({ length: Math.ceil((to - first) / interval) }, (_, i) => first + i * interval));
      // Before the fleet's history there is no data at all.
      expect(Object.values(series[first]).every((v) => v === null)).toBe(true);
      return series;
    };
    const five = await fleetSeries(300);
    const sums = new Map<string, Record<string, number>>();
    for (const n of fleet) {
      const node = (await get(`/api/nodes/${n.id}/data?metrics=${metrics.join(',')}&start=${from}&end=${to}&interval=300`, admin)).json().series as Series;
      for (const [ts, p] of Object.entries(node)) {
        const s = sums.get(ts) ?? Object.fromEntries(metrics.map((m) => [m, 0]));
        for (const m of metrics) s[m] += p[m] ?? 0;
        sums.set(ts, s);
      }
    }
    expect(sums.size).toBeGreaterThan(280);
    for (const [ts, s] of sums) {
      for (const m of metrics)
        expect(Math.abs((five[ts][m] as number) - s[m]), `${m} at ${ts}`).toBeLessThanOrEqual(0.001 * fleet.length + 1e-4 * Math.abs(s[m]));
    }

    const hourly = await fleetSeries(3600);
    let full = 0;
    for (const [ts, p] of Object.entries(hourly)) {
      if (Number(ts) < from) continue;
      const inside = Object.entries(five).filter(([t]) => Number(t) >= Number(ts) && Number(t) < Number(ts) + 3600);
      if (inside.length < 12) continue;
      full++;
      for (const m of metrics) {
        const mean = inside.reduce((a, [, q]) => a + (q[m] ?? 0), 0) / 12;
        expect(Math.abs((p[m] as number) - mean), `${m} at ${ts}`).toBeLessThanOrEqual(0.002 + 1e-4 * Math.abs(mean));
      }
    }
    expect(full).toBeGreaterThan(20);
  });

  it("answers the fleet's local days (the account's zone, Sydney by default)", async () => {
    const start = from - 3 * 86400;
    const res = await get(`/api/data?id=${ALL_FLEET_NODES}&metrics=housePower&interval=86400&start=${start}&end=${to}`, admin);
    expect(res.statusCode).toBe(200);
    const series = res.json().series as Series;
    expect(Object.keys(series).map(Number)).toEqual(localMidnights(start, to, 'Australia/Sydney').filter((t) => t >= start));
    const values = Object.values(series).map((p) => p.housePower);
    expect(values[0]).toBeNull();
    expect(values.at(-1)).toBeGreaterThan(0);
  });

  it('keeps other organisations out of the fleet series', async () => {
    const url = `/api/data?id=${ALL_FLEET_NODES}&metrics=housePower&interval=300&start=${from}&end=${to}`;
    const mine = (await get(url, admin)).json().series as Series;
    const other = (await get(url, theirs)).json().series as Series;
    const ts = Object.keys(mine).find((t) => mine[t].housePower !== null) as string;
    expect(other[ts].housePower).not.toBe(mine[ts].housePower);
    const sum = (
      await Promise.all(
        foreign.map(
          async (n) => (await get(`/api/nodes/${n.id}/data?metrics=housePower&start=${ts}&end=${Number(ts) + 300}&interval=300`, theirs)).json().series,
        ),
      )
    ).reduce((a, s: Series) => a + (s[ts]?.housePower ?? 0), 0);
    expect(Math.abs((other[ts].housePower as number) - sum)).toBeLessThan(0.01);
  });

  it('refuses a bad fleet series request with the exact message', async () => {
    const base = `/api/data?metrics=solarPower&start=${from}`;
    for (const [query, message] of [
      [`id=12&interval=300`, `id must be ${ALL_FLEET_NODES}; a VPP's series is at /api/powerstations/{id}/data.`],
      [`id=${ALL_FLEET_NODES}&interval=30`, 'interval must be 300, 3600 or 86400 seconds for the fleet.'],
      [`id=${ALL_FLEET_NODES}&interval=600`, 'interval must be 30, 300, 3600 or 86400 seconds.'],
      [`id=${ALL_FLEET_NODES}&interval=300&end=${from}`, 'end must be after start.'],
    ]) {
      const res = await get(`${base}&${query}`, admin);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().data.message, query).toBe(message);
    }
    const metrics = await get(`/api/data?id=${ALL_FLEET_NODES}&metrics=soc&interval=300&start=${from}`, admin);
    expect(metrics.statusCode).toBe(400);
    expect(metrics.json().data.message).toBe('metrics must be among solarPower, meterPower, batteryPower, housePower, remainingCharge.');
  });

  it('answers a local day of 5-minute points when no end is given (23 or 25 hours on a daylight-saving change)', async () => {
    const res = await get(`/api/data?id=${ALL_FLEET_NODES}&metrics=solarPower&interval=300&start=${from}`, admin);
    const end = endOfPeriod(from, 'day', 'Australia/Sydney');
    let buckets = 0;
    for (let t = Math.ceil(from / 300) * 300; t < end; t += 300) buckets++;
    expect(buckets).toBeGreaterThanOrEqual(276);
    expect(Object.keys(res.json().series)).toHaveLength(buckets);
  });
});
