import { AUSTRALIAN_STATES } from '@vpp/shared/constants';
import { OPERATOR_PERMISSIONS } from '@vpp/shared/demo';
import { MESSAGES } from '@vpp/shared/messages';
import { NODE_METRICS, NODE_SORTS, NODE_STATUSES, nodeStatus } from '@vpp/shared/nodes/schemas';
import { endOfPeriod, startOfPeriod } from '@vpp/shared/time';
import { beforeAll, expect, it } from 'vitest';
import { seedFleet } from '../../test/fleet.ts';
import { describeEachDatabase } from '../../test/harness.ts';
import type { NodeRow } from './nodes.repo.ts';

type Headers = { authorization: string };
const DAY = 86400;

describeEachDatabase('node routes', (h) => {
  let fleet: NodeRow[];
  let foreign: NodeRow[];
  let from: number;
  let to: number;
  let admin: Headers;
  let none: Headers;
  let dataOnly: Headers;
  let operator: Headers;
  let retailerOrg: number;
  let installer: Headers;
  let otherOrg: number;
  /** A reporting node of the fleet with a battery and submeters. */
  let busy: NodeRow;
  let submeters: { id: number; node_id: number; name: string }[];

  const get = (url: string, headers?: Headers) => h().app.inject({ method: 'GET', url, headers });
  const post = (url: string, payload: unknown, headers?: Headers) => h().app.inject({ method: 'POST', url, payload: payload as object, headers });
  const status = (r: NodeRow) =>
    nodeStatus({ state: r.unit_state, status: { ping: { lastTimestamp: r.last_contact, connectionOffline: r.connection_offline === 1 } } });
  const text = (r: NodeRow) =>
    [r.site_label, r.street, r.suburb, r.state, r.postcode, r.nmi, r.serial_number, r.inverter_brand, r.battery_brand].filter(Boolean);

  /** Every node of a filtered list, page by page. */
  async function all(query: string, headers = admin) {
    const out: { id: number; [k: string]: unknown }[] = [];
    let total = 0;
    for (let offset = 0; ; offset += 50) {
      const res = await get(`/v2/nodes?limit=50&offset=${offset}${query ? `&${query}` : ''}`, headers);
      expect(res.statusCode, res.body).toBe(200);
      total = res.json().total;
      out.push(...res.json().deployments);
      if (offset + 50 >= total) break;
    }
    expect(out).toHaveLength(total);
    return out;
  }

  beforeAll(async () => {
    const retailer = await h().org('RETAILER');
    retailerOrg = retailer;
    const other = await h().org('RETAILER');
    otherOrg = other;
    const installerOrg = await h().org('INSTALLER');
    ({ from, to } = await seedFleet(h(), { retailer, installer: installerOrg, count: 30, seed: 21 }, [{ retailer: other, count: 4, seed: 22 }], 2));
    const { db } = h().ctx;
    const members = async (org: number) =>
      db
        .selectFrom('nodes')
        .innerJoin('fleet_members', 'fleet_members.node_id', 'nodes.id')
        .selectAll('nodes')
        .select('fleet_members.site_label')
        .where('fleet_members.organisation_id', '=', org)
        .orderBy('nodes.id')
        .execute();
    fleet = await members(retailer);
    foreign = await members(other);
    submeters = await db.selectFrom('submeters').selectAll().orderBy('id').execute();
    const withSubs = new Set(submeters.map((s) => s.node_id));
    busy = fleet.find((n) => status(n) === 'ONLINE' && n.battery_kwh > 0 && withSubs.has(n.id)) as NodeRow;

    admin = await h().bearer((await h().user(retailer)).username);
    none = await h().bearer((await h().user(retailer, { permissions: ['fleet.dispatches.view', 'fleet.kitDesigner'] })).username);
    dataOnly = await h().bearer((await h().user(retailer, { permissions: ['fleet.node.data.view'] })).username);
    operator = await h().bearer((await h().user(retailer, { permissions: [...OPERATOR_PERMISSIONS] })).username);
    installer = await h().bearer((await h().user(installerOrg)).username);
  });

  it('has a fleet to answer about', () => {
    expect(fleet).toHaveLength(30);
    expect(foreign).toHaveLength(4);
    expect(busy).toBeDefined();
  });

  const nodeCalls = (id: number, q = { from: 0, to: 0, sub: 0 }) =>
    [
      ['GET', `/api/nodes/${id}/detail`],
      ['POST', `/api/nodes/${id}/sitelabel`],
      ['GET', `/api/nodes/${id}/events`],
      ['GET', `/api/nodes/${id}/data?metrics=meterPower&start=${q.from}&end=${q.to}&interval=300`],
      ['GET', `/api/nodes/${id}/data/summary?start=${q.from}&interval=300`],
      ['GET', `/fleet/deployment/${id}/customerdata/submeter/historical/p?aggregation_base=client&delta_t=300&start=${q.from}&end=${q.to}&id=${q.sub}`],
    ] as const;

  it('answers 401 to every node call without a token', async () => {
    for (const [method, url] of [...nodeCalls(busy.id, { from, to, sub: 1 }), ['GET', '/v2/nodes'], ['GET', '/v2/unused-nodes']] as const) {
      const res = await h().app.inject({ method, url, payload: method === 'POST' ? { siteLabel: 'x' } : undefined });
      expect(res.statusCode, `${method} ${url}`).toBe(401);
      expect(res.json().data.message).toBe('Sign in to continue.');
    }
  });

  it('answers 403 to every node call for a user without node permissions', async () => {
    const sub = submeters.find((s) => s.node_id === busy.id)?.id ?? 0;
    for (const [method, url] of [...nodeCalls(busy.id, { from, to, sub }), ['GET', '/v2/nodes'], ['GET', '/v2/unused-nodes']] as const) {
      const res = await h().app.inject({ method, url, headers: none, payload: method === 'POST' ? { siteLabel: 'x' } : undefined });
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json()).toMatchObject({ status: 'ERROR', error: 'forbidden', data: { message: MESSAGES.notAuthorized } });
    }
    expect((await get(`/api/nodes/${busy.id}/detail`, none)).statusCode).toBe(403);
  });

  it("gives a user with only export permissions the node export's suggestions (GET /v2/nodes?f&limit), of their own organisation only, and no node pages", async () => {
    const [mine] = fleet;
    const theirs = foreign[0] as NodeRow;
    for (const permission of ['fleet.analysis.export.view', 'fleet.analysis.export.edit']) {
      const exporter = await h().bearer((await h().user(retailerOrg, { permissions: [permission] })).username);
      const res = await get(`/v2/nodes?f=${encodeURIComponent(mine?.serial_number ?? '')}&limit=10`, exporter);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().deployments.map((d: { id: number }) => d.id)).toContain(mine?.id);
      expect(res.json().deployments).toEqual((await get(`/v2/nodes?f=${encodeURIComponent(mine?.serial_number ?? '')}&limit=10`, admin)).json().deployments);
      const search = await get(`/v2/nodes?f=${encodeURIComponent(theirs.serial_number)}&limit=10`, exporter);
      expect(search.json().deployments.map((d: { id: number }) => d.id)).not.toContain(theirs.id);
      expect((await all('', exporter)).map((d) => d.id)).toEqual(fleet.map((n) => n.id));
      expect((await get(`/api/nodes/${mine?.id}/detail`, exporter)).statusCode).toBe(403);
      expect((await get('/v2/unused-nodes', exporter)).statusCode).toBe(403);
    }
  });

  it('answers 403 to the data calls for a user with node pages but without fleet.node.data.view (the demo operator)', async () => {
    expect(OPERATOR_PERMISSIONS).not.toContain('fleet.node.data.view');
    const sub = submeters.find((s) => s.node_id === busy.id)?.id ?? 0;
    for (const [method, url] of nodeCalls(busy.id, { from, to, sub })) {
      const res = await h().app.inject({ method, url, headers: operator, payload: method === 'POST' ? { siteLabel: busy.site_label ?? '' } : undefined });
      const data = url.includes('/data') || url.includes('/submeter/');
      expect(res.statusCode, `${method} ${url}`).toBe(data ? 403 : 200);
      if (data) expect(res.json().data.message).toBe(MESSAGES.notAuthorized);
    }
    // fleet.any opens node pages but not node data.
    const fleetAny = await h().bearer((await h().user(retailerOrg, { permissions: ['fleet.any'] })).username);
    expect((await get(`/api/nodes/${busy.id}/detail`, fleetAny)).statusCode).toBe(200);
    expect((await get(`/api/nodes/${busy.id}/data?metrics=meterPower&start=${from}&end=${to}&interval=300`, fleetAny)).statusCode).toBe(403);
    expect((await get(`/api/nodes/${busy.id}/data?metrics=meterPower&start=${from}&end=${to}&interval=300`, dataOnly)).statusCode).toBe(200);
  });

  it("answers 404 to every node call for another organisation's node, and for one that does not exist", async () => {
    const theirs = foreign[0];
    const sub = submeters.find((s) => s.node_id === theirs.id)?.id ?? 1;
    for (const id of [theirs.id, 999_999]) {
      for (const [method, url] of nodeCalls(id, { from, to, sub })) {
        const res = await h().app.inject({ method, url, headers: admin, payload: method === 'POST' ? { siteLabel: 'Mine now' } : undefined });
        expect(res.statusCode, `${method} ${url}`).toBe(404);
        expect(res.json().data.message).toBe('No such node.');
      }
    }
    // The label of another organisation's node is untouched.
    const row = await h()
      .ctx.db.selectFrom('fleet_members')
      .select('site_label')
      .where('node_id', '=', theirs.id)
      .where('organisation_id', '=', otherOrg)
      .executeTakeFirstOrThrow();
    expect(row.site_label).toBe(theirs.site_label);
  });

  it('answers 400 for a node id that is not a number', async () => {
    const res = await get('/api/nodes/abc/detail', admin);
    expect(res.statusCode).toBe(400);
    expect(res.json().data.message).toBe('The node id must be a whole number from 1 to 2147483647.');
  });

  it('lists the fleet ten at a time by default, with the total, and pages through all of it', async () => {
    const first = await get('/v2/nodes', admin);
    expect(first.statusCode).toBe(200);
    expect(first.json().total).toBe(30);
    expect(first.json().deployments.map((d: { id: number }) => d.id)).toEqual(fleet.slice(0, 10).map((n) => n.id));
    expect(first.json().nameplate).toBeUndefined();
    const seen: number[] = [];
    for (let offset = 0; offset < 30; offset += 7) {
      const res = await get(`/v2/nodes?limit=7&offset=${offset}`, admin);
      expect(res.json().total).toBe(30);
      expect(res.json().deployments).toHaveLength(Math.min(7, 30 - offset));
      seen.push(...res.json().deployments.map((d: { id: number }) => d.id));
    }
    expect(seen).toEqual(fleet.map((n) => n.id));
    const past = await get('/v2/nodes?limit=10&offset=30', admin);
    expect(past.json()).toEqual({ deployments: [], total: 30 });
  });

  it('presents each node with its address, network, equipment and display status', async () => {
    const nodes = await all('');
    for (const d of nodes) {
      const row = fleet.find((n) => n.id === d.id) as NodeRow;
      expect(d).toMatchObject({
        id: row.id,
        siteLabel: row.site_label,
        address: { street: row.street, suburb: row.suburb, state: row.state, postcode: row.postcode, lat: row.lat, lng: row.lng },
        network: { nmi: row.nmi, network: row.network },
        timezone: row.timezone,
        system: { reposit: { serialNumber: row.serial_number }, inverter: [{ brand: row.inverter_brand }] },
        state: row.unit_state,
        displayStatus: status(row),
        hasBattery: row.battery_kwh > 0,
      });
      expect(d.system).toMatchObject({ battery: row.battery_brand ? [{ brand: row.battery_brand }] : [] });
    }
    expect(nodes.some((n) => foreign.some((f) => f.id === n.id))).toBe(false);
  });

  it('refuses bad paging with the exact message', async () => {
    for (const [query, message] of [
      ['limit=0', 'limit must be a whole number from 1 to 10000.'],
      ['limit=10001', 'limit must be a whole number from 1 to 10000.'],
      ['limit=ten', 'limit must be a whole number from 1 to 10000.'],
      ['offset=-1', 'offset must be a whole number from 0 to 2147483647.'],
      ['offset=1.5', 'offset must be a whole number from 0 to 2147483647.'],
    ]) {
      for (const url of [`/v2/nodes?${query}`, `/v2/unused-nodes?${query}`]) {
        const res = await get(url, admin);
        expect(res.statusCode, url).toBe(400);
        expect(res.json().data.message, url).toBe(message);
      }
    }
  });

  it.each([
    ['site label', (n: NodeRow) => n.site_label],
    ['street', (n: NodeRow) => n.street.split(' ').slice(1).join(' ')],
    ['suburb', (n: NodeRow) => n.suburb],
    ['NMI', (n: NodeRow) => n.nmi],
    ['serial number', (n: NodeRow) => n.serial_number],
    ['inverter brand', (n: NodeRow) => n.inverter_brand],
    ['battery brand', (n: NodeRow) => n.battery_brand],
  ])('searches by %s, in any case', async (_, field) => {
    const target = fleet.find((n) => field(n)) as NodeRow;
    const term = field(target) as string;
    const expected = fleet.filter((n) => text(n).some((t) => String(t).toLowerCase().includes(term.toLowerCase()))).map((n) => n.id);
    for (const f of [term, term.toUpperCase(), ` ${term.toLowerCase()} `]) {
      const got = await all(`f=${encodeURIComponent(f)}`);
      expect(got.map((d) => d.id)).toEqual(expected);
      expect(got.map((d) => d.id)).toContain(target.id);
    }
  });

  it('finds a node by its address as the console writes it, commas and all', async () => {
    const target = fleet[0];
    const shown = (await all(`f=${encodeURIComponent(target.serial_number)}`))[0] as unknown as { address: { text: string } };
    expect(shown.address.text).toContain(`${target.street}, ${target.suburb}`);
    const got = await all(`f=${encodeURIComponent(`${target.street}, ${target.suburb}`)}`);
    expect(got.map((d) => d.id)).toContain(target.id);
  });

  it("finds in one search the nodes labelled with it and those whose address has it, each once, never by another organisation's label", async () => {
    const term = fleet[0].suburb;
    const has = (n: NodeRow) => text(n).some((t) => String(t).toLowerCase().includes(term.toLowerCase()));
    const [byLabel, theirLabel] = fleet.filter((n) => !has(n));
    const byBoth = fleet[0];
    await post(`/api/nodes/${byLabel.id}/sitelabel`, { siteLabel: `Shed, ${term}` }, admin);
    await post(`/api/nodes/${byBoth.id}/sitelabel`, { siteLabel: `Home in ${term}` }, admin);
    const { db } = h().ctx;
    await db
      .insertInto('fleet_members')
      .values({ organisation_id: otherOrg, node_id: theirLabel.id, role: 'RETAILER', site_label: `Depot ${term}` })
      .execute();
    try {
      const got = await all(`f=${encodeURIComponent(term.toUpperCase())}`);
      const expected = fleet.filter((n) => n === byLabel || has(n)).map((n) => n.id);
      expect(got.map((d) => d.id)).toEqual(expected);
      expect(expected).toContain(byLabel.id);
      expect(expected).toContain(byBoth.id);
      expect(expected).not.toContain(theirLabel.id);
      expect(got.find((d) => d.id === byLabel.id)).toMatchObject({ siteLabel: `Shed, ${term}` });
    } finally {
      await db.deleteFrom('fleet_members').where('organisation_id', '=', otherOrg).where('node_id', '=', theirLabel.id).execute();
      for (const n of [byLabel, byBoth]) await post(`/api/nodes/${n.id}/sitelabel`, { siteLabel: n.site_label ?? '' }, admin);
    }
  });

  it('finds nothing for a search that matches no node, nor for wildcard characters', async () => {
    for (const f of ['zzzqqq', '%', '_']) expect(await all(`f=${encodeURIComponent(f)}`)).toEqual([]);
  });

  it('does not find nodes of another organisation', async () => {
    expect(await all(`f=${foreign[0].serial_number}`)).toEqual([]);
  });

  it('filters by state, and refuses a state that does not exist', async () => {
    const states = [...new Set(fleet.map((n) => n.state))];
    expect(states.length).toBeGreaterThan(2);
    for (const state of states) {
      const got = await all(`state=${state}`);
      expect(got.map((d) => d.id)).toEqual(fleet.filter((n) => n.state === state).map((n) => n.id));
    }
    const res = await get('/v2/nodes?state=NZ', admin);
    expect(res.statusCode).toBe(400);
    expect(res.json().data.message).toBe(`state must be one of ${AUSTRALIAN_STATES.join(', ')}.`);
  });

  it('filters by postcodes, where NULL matches no node', async () => {
    const postcodes = [...new Set(fleet.map((n) => n.postcode))].slice(0, 2);
    const got = await all(`postcodes=${postcodes.join(',')}`);
    expect(got.map((d) => d.id)).toEqual(fleet.filter((n) => postcodes.includes(n.postcode)).map((n) => n.id));
    expect(got.length).toBeGreaterThan(0);
    const nothing = await get('/v2/nodes?postcodes=NULL&nameplate=true', admin);
    expect(nothing.json()).toEqual({
      deployments: [],
      total: 0,
      nameplate: { batteryCapacity: 0, inverterPower: 0, batteryPower: 0, totalDeployments: 0 },
    });
    for (const bad of ['20', '2000,abcd']) {
      const res = await get(`/v2/nodes?postcodes=${bad}`, admin);
      expect(res.statusCode).toBe(400);
      expect(res.json().data.message).toBe('postcodes must be four-digit postcodes separated by commas.');
    }
  });

  it('filters by display status, the statuses adding up to the fleet', async () => {
    let sum = 0;
    for (const s of NODE_STATUSES) {
      const got = await all(`status=${s}`);
      expect(got.map((d) => d.id)).toEqual(fleet.filter((n) => status(n) === s).map((n) => n.id));
      for (const d of got) expect(d.displayStatus).toBe(s);
      sum += got.length;
    }
    expect(sum).toBe(30);
    const res = await get('/v2/nodes?status=SLEEPING', admin);
    expect(res.statusCode).toBe(400);
    expect(res.json().data.message).toBe(`status must be one of ${NODE_STATUSES.join(', ')}.`);
  });

  it('sorts by node, site label, status or last contact, both ways, in pages that never overlap', async () => {
    const { db } = h().ctx;
    const labels = ['banksia', 'Acacia', 'wattle', 'Grevillea', 'acacia grove', 'Boronia'];
    for (const [i, label] of labels.entries()) await post(`/api/nodes/${fleet[i * 4].id}/sitelabel`, { siteLabel: label }, admin);
    // Contact times that differ, and a node never heard from.
    const contacted = [3, 7, 11, 15, 19].map((i) => fleet[i]);
    for (const [i, n] of contacted.entries())
      await db
        .updateTable('nodes')
        .set({ last_contact: i === 0 ? null : to - i * 997 })
        .where('id', '=', n.id)
        .execute();
    const rows = await db
      .selectFrom('nodes')
      .innerJoin('fleet_members as fm', 'fm.node_id', 'nodes.id')
      .selectAll('nodes')
      .select('fm.site_label')
      .where('fm.organisation_id', '=', retailerOrg)
      .execute();
    const rank = (r: NodeRow) => NODE_STATUSES.indexOf(status(r));
    // Labels and contact times first in either direction, then the rest; the node id breaks ties.
    const byKey = {
      id: () => 0,
      siteLabel: (a: NodeRow, b: NodeRow, d: number) =>
        a.site_label === null || b.site_label === null
          ? Number(a.site_label === null) - Number(b.site_label === null)
          : d * (a.site_label.toLowerCase() < b.site_label.toLowerCase() ? -1 : a.site_label.toLowerCase() > b.site_label.toLowerCase() ? 1 : 0),
      status: (a: NodeRow, b: NodeRow, d: number) => d * (rank(a) - rank(b)),
      lastContact: (a: NodeRow, b: NodeRow, d: number) =>
        a.last_contact === null || b.last_contact === null
          ? Number(a.last_contact === null) - Number(b.last_contact === null)
          : d * (Number(a.last_contact) - Number(b.last_contact)),
    };
    expect(new Set(rows.map((r) => r.last_contact)).size).toBeGreaterThan(1);
    for (const sort of NODE_SORTS) {
      for (const order of ['asc', 'desc'] as const) {
        const d = order === 'asc' ? 1 : -1;
        const expected = [...rows].sort((a, b) => byKey[sort](a, b, d) || (sort === 'id' ? d : 1) * (a.id - b.id)).map((r) => r.id);
        const got: number[] = [];
        for (let offset = 0; offset < rows.length; offset += 7) {
          const res = await get(`/v2/nodes?limit=7&offset=${offset}&sort=${sort}&order=${order}`, admin);
          expect(res.statusCode, res.body).toBe(200);
          got.push(...res.json().deployments.map((n: { id: number }) => n.id));
        }
        expect(got, `${sort} ${order}`).toEqual(expected);
      }
    }
    expect((await get('/v2/nodes?sort=address', admin)).json().data.message).toBe(`sort must be one of ${NODE_SORTS.join(', ')}.`);
    expect((await get('/v2/nodes?order=up', admin)).json().data.message).toBe('order must be asc or desc.');
    for (const [i] of labels.entries()) await post(`/api/nodes/${fleet[i * 4].id}/sitelabel`, { siteLabel: '' }, admin);
    for (const n of contacted) await db.updateTable('nodes').set({ last_contact: n.last_contact }).where('id', '=', n.id).execute();
  });

  it('answers nameplate totals of the filtered nodes', async () => {
    const r2 = (v: number) => Math.round(v * 100) / 100;
    const state = fleet[0].state;
    for (const [query, rows] of [
      ['', fleet],
      [`state=${state}`, fleet.filter((n) => n.state === state)],
    ] as const) {
      const res = await get(`/v2/nodes?nameplate=true&limit=10&offset=0${query ? `&${query}` : ''}`, admin);
      expect(res.json().total).toBe(rows.length);
      expect(res.json().nameplate).toEqual({
        batteryCapacity: r2(rows.reduce((a, n) => a + n.battery_kwh, 0)),
        inverterPower: r2(rows.reduce((a, n) => a + n.inverter_kw, 0)),
        batteryPower: r2(rows.reduce((a, n) => a + n.battery_kw, 0)),
        totalDeployments: rows.length,
      });
    }
  });

  it('lists every node of the fleet as unused until VPPs exist, in pages', async () => {
    const res = await get('/v2/unused-nodes?limit=20&offset=20', admin);
    expect(res.statusCode).toBe(200);
    expect(res.json().total).toBe(30);
    expect(res.json().deployments.map((d: { id: number }) => d.id)).toEqual(fleet.slice(20).map((n) => n.id));
  });

  it('hides the network, but not the NMI, from installers, in lists and in detail', async () => {
    const list = await get('/v2/nodes?limit=50', installer);
    expect(list.json().total).toBe(30);
    for (const d of list.json().deployments) {
      const row = fleet.find((n) => n.id === d.id) as NodeRow;
      expect(d.network).toEqual({ nmi: row.nmi, network: null });
    }
    const detail = await get(`/api/nodes/${busy.id}/detail`, installer);
    expect(detail.statusCode).toBe(200);
    expect(detail.json().data.network).toEqual({ nmi: busy.nmi, network: null });
    expect((await get(`/api/nodes/${busy.id}/detail`, admin)).json().data.network).toEqual({ nmi: busy.nmi, network: busy.network });
  });

  it("answers a node's detail with its equipment, meters sorted by hardware id, and submeters", async () => {
    const res = await get(`/api/nodes/${busy.id}/detail`, admin);
    expect(res.statusCode).toBe(200);
    const d = res.json().data;
    expect(d.id).toBe(busy.id);
    expect(d.energySystems).toHaveLength(1);
    expect(d.energySystems[0].inverter).toMatchObject({ brand: busy.inverter_brand, maxPower: busy.inverter_kw, minPower: -busy.inverter_kw });
    expect(d.energySystems[0].battery).toMatchObject({ brand: busy.battery_brand, capacity: busy.battery_kwh, usableCapacity: busy.battery_usable_kwh });
    expect(d.gridMeters).toHaveLength(1);
    expect(d.gridMeters[0].meters).toHaveLength(busy.phases);
    for (const g of [...d.gridMeters, ...d.solarMeters, ...d.subMeterGroups]) {
      const hwids = g.meters.map((m: { hwid: string }) => m.hwid);
      expect(hwids).toEqual([...hwids].sort());
    }
    expect(d.subMeters).toEqual(submeters.filter((s) => s.node_id === busy.id).map((s) => ({ id: s.id, name: s.name })));
    expect(d.reposit).toMatchObject({ serialNumber: busy.serial_number, state: 'COMMISSIONED', commissionedDate: busy.commissioned_at });
  });

  it('refuses a site label of 101 characters and keeps the old one', async () => {
    const node = fleet[1];
    const res = await post(`/api/nodes/${node.id}/sitelabel`, { siteLabel: 'x'.repeat(101) }, admin);
    expect(res.statusCode).toBe(400);
    expect(res.json().data.message).toBe('The site label can be at most 100 characters.');
    expect((await get(`/api/nodes/${node.id}/detail`, admin)).json().data.siteLabel).toBe(node.site_label);
    const missing = await post(`/api/nodes/${node.id}/sitelabel`, {}, admin);
    expect(missing.statusCode).toBe(400);
    expect(missing.json().data.message).toBe('siteLabel is required.');
  });

  it('saves a site label of up to 100 characters, which the search then finds, and clears it', async () => {
    const node = fleet[2];
    const label = `Kookaburra Cottage ${'y'.repeat(81)}`;
    expect(label).toHaveLength(100);
    const res = await post(`/api/nodes/${node.id}/sitelabel`, { siteLabel: `  ${label} ` }, admin);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ id: node.id, siteLabel: label });
    expect((await get(`/api/nodes/${node.id}/detail`, admin)).json().data.siteLabel).toBe(label);
    expect((await all('f=kookaburra cottage')).map((d) => d.id)).toEqual([node.id]);

    const cleared = await post(`/api/nodes/${node.id}/sitelabel`, { siteLabel: '' }, admin);
    expect(cleared.json().data.siteLabel).toBeNull();
    expect((await get(`/api/nodes/${node.id}/detail`, admin)).json().data.siteLabel).toBeNull();
    expect(await all('f=kookaburra cottage')).toEqual([]);
    // The node is still found by everything else.
    expect((await all(`f=${node.serial_number}`)).map((d) => d.id)).toEqual([node.id]);
  });

  it('keeps a site label per organisation: the retailer’s label never shows to, or is found by, the installer', async () => {
    const node = fleet[3];
    const before = (await get(`/api/nodes/${node.id}/detail`, installer)).json().data.siteLabel;
    expect((await post(`/api/nodes/${node.id}/sitelabel`, { siteLabel: 'Retailer Only Name' }, admin)).statusCode).toBe(200);
    expect((await get(`/api/nodes/${node.id}/detail`, admin)).json().data.siteLabel).toBe('Retailer Only Name');
    expect((await get(`/api/nodes/${node.id}/detail`, installer)).json().data.siteLabel).toBe(before);
    expect((await get('/v2/nodes?f=retailer only name', installer)).json().total).toBe(0);
    expect((await get('/v2/nodes?f=retailer only name', admin)).json().deployments.map((d: { id: number }) => d.id)).toEqual([node.id]);
    // And the installer's own label does not overwrite the retailer's.
    expect((await post(`/api/nodes/${node.id}/sitelabel`, { siteLabel: 'Installer Job 4411' }, installer)).statusCode).toBe(200);
    expect((await get(`/api/nodes/${node.id}/detail`, admin)).json().data.siteLabel).toBe('Retailer Only Name');
    expect((await get(`/api/nodes/${node.id}/detail`, installer)).json().data.siteLabel).toBe('Installer Job 4411');
  });

  it("answers a node's events newest first, in pages with the page count", async () => {
    const node = fleet[3];
    const base = to - 10 * DAY;
    await h()
      .ctx.db.insertInto('node_events')
      .values(
        [3, 1, 4, 5, 2].map((k) => ({
          node_id: node.id,
          ts: base + k * 3600,
          event_type: k % 2 ? 'NODE_OFFLINE' : 'NODE_ONLINE',
          description: `Event ${k}`,
          duration: k % 2 ? null : 600,
        })),
      )
      .execute();
    const rows = await h().ctx.db.selectFrom('node_events').selectAll().where('node_id', '=', node.id).execute();
    const total = rows.length;
    const events: { ts: number; eventType: string; description: string; duration: number | null }[] = [];
    for (let offset = 0; offset < total; offset += 2) {
      const res = await get(`/api/nodes/${node.id}/events?limit=2&offset=${offset}`, admin);
      expect(res.statusCode).toBe(200);
      expect(res.json().meta).toEqual({ total, pageCount: Math.ceil(total / 2) });
      expect(res.json().data.length).toBeLessThanOrEqual(2);
      events.push(...res.json().data);
    }
    expect(events).toHaveLength(total);
    expect(events.map((e) => e.ts)).toEqual([...events.map((e) => e.ts)].sort((a, b) => b - a));
    const mine = events.filter((e) => e.description.startsWith('Event '));
    expect(mine.map((e) => e.description)).toEqual(['Event 5', 'Event 4', 'Event 3', 'Event 2', 'Event 1']);
    expect(mine[1]).toMatchObject({ eventType: 'NODE_ONLINE', duration: 600 });
    const defaults = await get(`/api/nodes/${node.id}/events`, admin);
    expect(defaults.json().meta.pageCount).toBe(Math.ceil(total / 10));
  });

  it("lists in a node's event log the organisation's dispatches, RERT dispatches and grid outages that included it, once started", async () => {
    const node = fleet[5];
    const { db } = h().ctx;
    const now = Math.floor(Date.now() / 1000);
    const vpp = async (org: number, name: string) =>
      (
        await db
          .insertInto('powerstations')
          .values({ organisation_id: org, name, type: 'STATIC', state: null, duid: null, created_at: now, updated_at: now })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    const mine = await vpp(retailerOrg, 'Evening Peak');
    const theirs = await vpp(otherOrg, 'Their VPP');
    const event = async (org: number, ps: number, type: string, start: number, duration: number, cancelledAt: number | null = null) =>
      (
        await db
          .insertInto('events')
          .values({ organisation_id: org, powerstation_id: ps, type, start_time: start, duration, cancelled_at: cancelledAt, created_at: start - 7200 })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    const dispatched = async (id: number, shareKw: number, droppedAt: number | null = null) =>
      db
        .insertInto('dispatch_nodes')
        .values({ event_id: id, node_id: node.id, share_kw: shareKw, intervals: '[]', orders_sent_at: id, dropped_at: droppedAt, message_sent_at: null })
        .execute();
    const t0 = now - 5 * DAY;
    const dispatch = await event(retailerOrg, mine, 'DISPATCH', t0, 3600);
    await dispatched(dispatch, -2.5);
    const rert = await event(retailerOrg, mine, 'RERT', t0 + DAY, 7200, t0 + DAY + 1800);
    await dispatched(rert, 0);
    const dropped = await event(retailerOrg, mine, 'DISPATCH', t0 + 2 * DAY, 3600);
    await dispatched(dropped, 1.2, t0 + 2 * DAY + 600);
    const outage = await event(retailerOrg, mine, 'GRID_OUTAGE', t0 + 3 * DAY, 14400);
    await db
      .insertInto('grid_outages')
      .values({ event_id: outage, outage_reason: 'STORM', message_title: null, customer_message: null, created_by: null, orders_sent_at: t0 })
      .execute();
    await db
      .insertInto('outage_nodes')
      .values({ event_id: outage, node_id: node.id, prepare_from: t0, orders_sent_at: t0, opted_out_at: null, opted_out_by: null })
      .execute();
    const optedOut = await event(retailerOrg, mine, 'GRID_OUTAGE', t0 + 4 * DAY, 3600);
    await db
      .insertInto('grid_outages')
      .values({ event_id: optedOut, outage_reason: 'PLANNED', message_title: null, customer_message: null, created_by: null, orders_sent_at: t0 })
      .execute();
    await db
      .insertInto('outage_nodes')
      .values({ event_id: optedOut, node_id: node.id, prepare_from: null, orders_sent_at: null, opted_out_at: t0, opted_out_by: 'CUSTOMER' })
      .execute();
    // Left out: another organisation's dispatch, one cancelled before its start, one not started yet.
    await dispatched(await event(otherOrg, theirs, 'DISPATCH', t0 + 3600, 3600), -1);
    await dispatched(await event(retailerOrg, mine, 'DISPATCH', t0 + 7200, 3600, t0), -1);
    await dispatched(await event(retailerOrg, mine, 'DISPATCH', now + DAY, 3600), -1);

    const all: { id: number; ts: number; eventType: string; description: string; duration: number | null }[] = [];
    for (let offset = 0; ; offset += 10) {
      const res = await get(`/api/nodes/${node.id}/events?limit=10&offset=${offset}`, admin);
      expect(res.statusCode, res.body).toBe(200);
      all.push(...res.json().data);
      if (offset + 10 >= res.json().meta.total) break;
    }
    expect(all.map((e) => e.ts)).toEqual([...all.map((e) => e.ts)].sort((a, b) => b - a));
    const events = all.filter((e) => e.eventType !== 'NODE_ONLINE' && e.eventType !== 'NODE_OFFLINE' && e.eventType !== 'COMMISSIONED');
    expect(events).toEqual([
      {
        id: optedOut,
        ts: t0 + 4 * DAY,
        eventType: 'GRID_OUTAGE',
        description: `Grid outage ${optedOut} of Evening Peak (Planned Outage): the customer opted out; the battery was not prepared.`,
        duration: 3600,
      },
      {
        id: outage,
        ts: t0 + 3 * DAY,
        eventType: 'GRID_OUTAGE',
        description: `Grid outage ${outage} of Evening Peak (Storm): the battery was told to charge to full before the outage.`,
        duration: 14400,
      },
      {
        id: dropped,
        ts: t0 + 2 * DAY,
        eventType: 'DISPATCH',
        description: `Dispatch ${dropped} of Evening Peak: the battery was asked to charge 1.20 kW. The node stopped reporting and was dropped after 10 min.`,
        duration: 600,
      },
      {
        id: rert,
        ts: t0 + DAY,
        eventType: 'RERT',
        description: `RERT dispatch ${rert} of Evening Peak: the battery was held idle (lockout). Cancelled after 30 min.`,
        duration: 1800,
      },
      {
        id: dispatch,
        ts: t0,
        eventType: 'DISPATCH',
        description: `Dispatch ${dispatch} of Evening Peak: the battery was asked to discharge 2.50 kW.`,
        duration: 3600,
      },
    ]);
  });

  it("answers a node's series with a point for every bucket when fill=null, null where there is no data", async () => {
    const start = from - 3600;
    const end = from + 3600;
    const url = (fill: boolean) =>
      `/api/nodes/${busy.id}/data?metrics=meterPower,solarPower,batteryPower,housePower,soc&start=${start}&end=${end}&interval=300${fill ? '&fill=null' : ''}`;
    const filled = await get(url(true), admin);
    expect(filled.statusCode).toBe(200);
    const series = filled.json().series as Record<string, Record<string, number | null>>;
    expect(Object.keys(series).map(Number)).toEqual(Array.from({ length: 24 }, (_, i) => start + i * 300));
    for (const [ts, p] of Object.entries(series)) {
      expect(Object.keys(p).sort()).toEqual(['batteryPower', 'housePower', 'meterPower', 'soc', 'solarPower']);
      if (Number(ts) < from) expect(Object.values(p).every((v) => v === null)).toBe(true);
    }
    const sparse = (await get(url(false), admin)).json().series as Record<string, Record<string, number | null>>;
    expect(Object.keys(sparse).length).toBeGreaterThan(0);
    expect(Object.keys(sparse).every((ts) => Number(ts) >= from)).toBe(true);
    for (const [ts, p] of Object.entries(sparse)) expect(series[ts]).toEqual(p);
  });

  it('answers readings that keep the sign rules: house = solar + grid − battery', async () => {
    const res = await get(`/api/nodes/${busy.id}/data?metrics=meterPower,solarPower,batteryPower,housePower&start=${from}&end=${to}&interval=300`, admin);
    const points = Object.values(res.json().series) as Record<string, number>[];
    expect(points.length).toBeGreaterThan(200);
    for (const p of points) expect(p.solarPower + p.meterPower - p.batteryPower).toBeCloseTo(p.housePower, 2);
  });

  it('answers hourly and local-daily points', async () => {
    const hourly = (await get(`/api/nodes/${busy.id}/data?metrics=meterPower&start=${from}&end=${to}&interval=3600&fill=null`, admin)).json().series;
    const first = from - (from % 3600);
    expect(Object.keys(hourly).map(Number)).toEqual(Array.from({ length: 48 }, (_, i) => first + (i + (first < from ? 1 : 0)) * 3600).filter((t) => t < to));
    const dayStart = startOfPeriod(from - 5 * DAY, 'day', busy.timezone);
    const daily = (await get(`/api/nodes/${busy.id}/data?metrics=meterPower&start=${dayStart}&end=${to}&interval=86400&fill=null`, admin)).json().series;
    const midnights = Object.keys(daily).map(Number);
    expect(midnights[0]).toBe(dayStart);
    for (let i = 1; i < midnights.length; i++) expect(midnights[i]).toBe(endOfPeriod(midnights[i - 1], 'day', busy.timezone));
    expect(midnights.length).toBeGreaterThanOrEqual(7);
    expect(daily[dayStart].meterPower).toBeNull();
    expect(daily[midnights.at(-1) as number].meterPower).not.toBeNull();
  });

  it('refuses a bad series request with the exact message', async () => {
    const base = `/api/nodes/${busy.id}/data`;
    for (const [query, message] of [
      [`start=${from}&end=${to}&interval=300`, 'metrics is required.'],
      [`metrics=meterPower,bogus&start=${from}&end=${to}&interval=300`, `metrics must be among ${NODE_METRICS.join(', ')}.`],
      [`metrics=&start=${from}&end=${to}&interval=300`, 'metrics must name at least one metric.'],
      [`metrics=meterPower&start=${from}&end=${to}&interval=600`, 'interval must be 30, 300, 3600 or 86400 seconds.'],
      [`metrics=meterPower&start=${to}&end=${from}&interval=300`, 'end must be after start.'],
      [`metrics=meterPower&start=${from}&end=${from}&interval=300`, 'end must be after start.'],
      [`metrics=meterPower&start=yesterday&end=${to}&interval=300`, 'start must be epoch seconds from 0 to 4102444800.'],
      [
        `metrics=meterPower&start=${from - 400 * DAY}&end=${to}&interval=30`,
        'A series at 30-second interval can cover at most 2 days: shorten the range or choose a longer interval.',
      ],
      [
        `metrics=meterPower&start=${to - 32 * DAY}&end=${to}&interval=300`,
        'A series at 300-second interval can cover at most 31 days: shorten the range or choose a longer interval.',
      ],
      [
        `metrics=meterPower&start=0&end=${to}&interval=3600`,
        'A series at 3600-second interval can cover at most 366 days: shorten the range or choose a longer interval.',
      ],
      [`metrics=meterPower&start=&end=${to}&interval=300`, 'start must be epoch seconds from 0 to 4102444800.'],
      [`metrics=meterPower&start=${from}&end=9e12&interval=300`, 'end must be epoch seconds from 0 to 4102444800.'],
    ]) {
      const res = await get(`${base}?${query}`, admin);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().data.message, query).toBe(message);
    }
  });

  it('streams the largest series it allows (2 days at 30 s, every metric) while the server goes on answering', async () => {
    const url = `/api/nodes/${busy.id}/data?metrics=${NODE_METRICS.join(',')}&start=${to - 2 * DAY}&end=${to}&interval=30&fill=null`;
    const done: string[] = [];
    const big = h()
      .app.inject({ method: 'GET', url, headers: admin })
      .then((r) => {
        done.push('series');
        return r;
      });
    const health = h()
      .app.inject({ method: 'GET', url: '/healthz' })
      .then((r) => {
        done.push('healthz');
        return r;
      });
    const [res, ok] = await Promise.all([big, health]);
    expect(ok.statusCode).toBe(200);
    // The health check was answered while the series was still being written.
    expect(done).toEqual(['healthz', 'series']);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-length']).toBeUndefined();
    const points = Object.values(res.json().series) as Record<string, number | null>[];
    expect(points).toHaveLength(2 * 2880);
    expect(Object.keys(points[0]).sort()).toEqual([...NODE_METRICS].sort());
  });

  it('answers the SGA series only to users allowed to see it', async () => {
    const url = `/api/nodes/${busy.id}/data?metrics=solarPower,meterSGA&start=${from}&end=${to}&interval=3600`;
    const refused = await get(url, dataOnly);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().data.message).toBe(MESSAGES.notAuthorized);
    expect((await get(url.replace(',meterSGA', ''), dataOnly)).statusCode).toBe(200);
    const res = await get(url, admin);
    expect(res.statusCode).toBe(200);
    const points = Object.values(res.json().series) as { solarPower: number; meterSGA: number }[];
    expect(points.length).toBeGreaterThan(20);
    for (const p of points) expect(p.meterSGA).toBeGreaterThanOrEqual(p.solarPower - 0.001);
  });

  it("sums a local day's energy from its 5-minute points (power × 1/12), import and export apart", async () => {
    // A node without a battery imports at night and exports at noon.
    const node = fleet.find((n) => status(n) === 'ONLINE' && n.battery_kwh === 0) as NodeRow;
    const dayStart = startOfPeriod(to - DAY, 'day', node.timezone);
    const dayEnd = endOfPeriod(dayStart, 'day', node.timezone);
    const res = await get(`/api/nodes/${node.id}/data/summary?start=${dayStart}&interval=300`, admin);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'OK', start: dayStart, end: dayEnd });
    const points = Object.values(
      (await get(`/api/nodes/${node.id}/data?metrics=meterPower,solarPower,housePower&start=${dayStart}&end=${dayEnd}&interval=300`, admin)).json().series,
    ) as Record<string, number>[];
    const sum = (f: (p: Record<string, number>) => number) => points.reduce((a, p) => a + f(p), 0) / 12;
    const s = res.json().summary;
    expect(s.meterImport).toBeGreaterThan(0);
    expect(s.solarGeneration).toBeGreaterThan(0);
    expect(Math.abs(s.meterImport - sum((p) => Math.max(0, p.meterPower)))).toBeLessThan(0.02);
    expect(Math.abs(s.meterExport - sum((p) => Math.max(0, -p.meterPower)))).toBeLessThan(0.02);
    expect(Math.abs(s.solarGeneration - sum((p) => p.solarPower))).toBeLessThan(0.02);
    expect(Math.abs(s.houseConsumption - sum((p) => p.housePower))).toBeLessThan(0.02);

    // The week and month hold the day.
    for (const [interval, period] of [
      [3600, 'week'],
      [86400, 'month'],
    ] as const) {
      const start = startOfPeriod(dayStart, period, node.timezone);
      const wider = await get(`/api/nodes/${node.id}/data/summary?start=${start}&interval=${interval}`, admin);
      expect(wider.json().end).toBe(endOfPeriod(start, period, node.timezone));
      expect(wider.json().summary.houseConsumption).toBeGreaterThanOrEqual(s.houseConsumption - 0.01);
    }
  });

  it('ends a daylight-saving change day in Sydney, Melbourne or Hobart after 23 or 25 hours', async () => {
    const node = fleet.find((n) => ['Australia/Sydney', 'Australia/Melbourne', 'Australia/Hobart'].includes(n.timezone)) as NodeRow;
    for (const [within, hours] of [
      [Date.UTC(2025, 9, 5, 2) / 1000, 23],
      [Date.UTC(2025, 3, 6, 3) / 1000, 25],
    ]) {
      const start = startOfPeriod(within, 'day', node.timezone);
      const res = await get(`/api/nodes/${node.id}/data/summary?start=${start}&interval=300`, admin);
      expect(res.statusCode).toBe(200);
      expect(res.json().end - start).toBe(hours * 3600);
      const series = (await get(`/api/nodes/${node.id}/data?metrics=meterPower&start=${start}&end=${res.json().end}&interval=3600&fill=null`, admin)).json()
        .series;
      expect(Object.keys(series)).toHaveLength(hours);
    }
  });

  it('refuses a summary interval that names no period', async () => {
    for (const [interval, message] of [
      [30, 'interval must be 300 (day), 3600 (week) or 86400 (month).'],
      [900, 'interval must be 30, 300, 3600 or 86400 seconds.'],
    ] as const) {
      const res = await get(`/api/nodes/${busy.id}/data/summary?start=${from}&interval=${interval}`, admin);
      expect(res.statusCode).toBe(400);
      expect(res.json().data.message).toBe(message);
    }
  });

  it("answers a submeter's power and reactive power at 5 minutes and coarser", async () => {
    const sub = submeters.find((s) => s.node_id === busy.id) as { id: number };
    const url = (dt: number) =>
      `/fleet/deployment/${busy.id}/customerdata/submeter/historical/p?aggregation_base=client&delta_t=${dt}&start=${from}&end=${to}&id=${sub.id}`;
    const five = await get(url(300), admin);
    expect(five.statusCode).toBe(200);
    const points = five.json().data as Record<string, { p: number; q: number }>;
    expect(Object.keys(points).length).toBeGreaterThan(200);
    for (const [ts, p] of Object.entries(points)) {
      expect(Number(ts) % 300).toBe(0);
      expect(p.p).toBeGreaterThanOrEqual(0);
      expect(p.q).toBeCloseTo(p.p * 0.15, 2);
    }
    const hourly = (await get(url(3600), admin)).json().data as Record<string, { p: number }>;
    for (const [ts, p] of Object.entries(hourly)) {
      expect(Number(ts) % 3600).toBe(0);
      const inside = Object.entries(points).filter(([t]) => Number(t) >= Number(ts) && Number(t) < Number(ts) + 3600);
      expect(p.p).toBeCloseTo(inside.reduce((a, [, v]) => a + v.p, 0) / inside.length, 2);
    }
  });

  it("buckets a month's submeter days at the node's local midnights, the timestamps of its series", async () => {
    const sub = submeters.find((s) => s.node_id === busy.id) as { id: number };
    const start = startOfPeriod(from, 'month', busy.timezone);
    const end = endOfPeriod(start, 'month', busy.timezone);
    const series = (await get(`/api/nodes/${busy.id}/data?metrics=meterPower&start=${start}&end=${end}&interval=86400&fill=null`, admin)).json().series;
    const days = Object.keys(series).map(Number);
    const url = (dt: number) =>
      `/fleet/deployment/${busy.id}/customerdata/submeter/historical/p?aggregation_base=client&delta_t=${dt}&start=${start}&end=${end}&id=${sub.id}`;
    const res = await get(url(86400), admin);
    expect(res.statusCode).toBe(200);
    const daily = res.json().data as Record<string, { p: number }>;
    expect(Object.keys(daily).length).toBeGreaterThan(0);
    for (const ts of Object.keys(daily)) expect(days).toContain(Number(ts));
    // Each day is the mean of the 5-minute points of that local day.
    const five = Object.entries((await get(url(300), admin)).json().data as Record<string, { p: number }>);
    for (const [ts, p] of Object.entries(daily)) {
      const next = endOfPeriod(Number(ts), 'day', busy.timezone);
      const inside = five.filter(([t]) => Number(t) >= Number(ts) && Number(t) < next);
      expect(inside.length).toBeGreaterThan(0);
      expect(p.p).toBeCloseTo(inside.reduce((a, [, v]) => a + v.p, 0) / inside.length, 2);
    }
  });

  it('answers 404 for a submeter of another node, and 400 for a bad interval', async () => {
    const elsewhere = submeters.find((s) => s.node_id !== busy.id) as { id: number };
    const base = `/fleet/deployment/${busy.id}/customerdata/submeter/historical/p?aggregation_base=client&start=${from}&end=${to}`;
    const res = await get(`${base}&delta_t=300&id=${elsewhere.id}`, admin);
    expect(res.statusCode).toBe(404);
    expect(res.json().data.message).toBe('No such submeter.');
    const bad = await get(`${base}&delta_t=120&id=${elsewhere.id}`, admin);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().data.message).toBe('interval must be 30, 300, 3600 or 86400 seconds.');
  });
});
