import { MESSAGES } from '@vpp/shared/messages';
import { VPP_MESSAGES } from '@vpp/shared/vpps/messages';
import { beforeAll, describe, expect, it } from 'vitest';
import { nowS } from '../../db/database.ts';
import { node } from '../../test/factories.ts';
import { describeEachDatabase } from '../../test/harness.ts';
import { createPowerstation, memberNodes, vppNodesDuring } from './vpps.repo.ts';
import { releaseNodes } from './vpps.service.ts';

describeEachDatabase('virtual power plants', (h) => {
  let org: number;
  let otherOrg: number;
  let headers: { authorization: string };
  let otherHeaders: { authorization: string };
  let viewer: { authorization: string };
  let nobody: { authorization: string };
  const nodes: Record<string, { id: number; serial: string }> = {};

  const call = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, hdrs: Record<string, string> = headers, payload?: unknown) =>
    h().app.inject({ method, url, headers: hdrs, payload: payload as never });
  const create = async (payload: unknown, hdrs = headers) => {
    const res = await call('POST', '/api/powerstations', hdrs, payload);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.id as number;
  };
  const count = async () => (await call('GET', '/v2/powerstations?limit=100')).json().total as number;
  const vpp = async (id: number) => (await call('GET', `/v2/powerstations/${id}`)).json();
  const memberIds = async (id: number, query = '') =>
    (await call('GET', `/v2/powerstations/${id}/nodes?limit=100${query}`)).json().deployments.map((d: { id: number }) => d.id) as number[];

  beforeAll(async () => {
    org = await h().org('RETAILER', 'Sunrise');
    otherOrg = await h().org('RETAILER', 'Elsewhere');
    headers = await h().bearer((await h().user(org)).username);
    otherHeaders = await h().bearer((await h().user(otherOrg)).username);
    viewer = await h().bearer((await h().user(org, { permissions: ['fleet.powerstations.view', 'fleet.node.any'] })).username);
    nobody = await h().bearer((await h().user(org, { permissions: ['fleet.node.any', 'fleet.kit_designer'] })).username);
    nodes.newtown1 = await node(h(), [org], { postcode: '2042', label: 'Nguyen Home' });
    nodes.newtown2 = await node(h(), [org, otherOrg], { postcode: '2042' });
    nodes.bondi = await node(h(), [org], { postcode: '2026', suburb: 'Bondi', batteryKwh: 10 });
    nodes.brisbane = await node(h(), [org], { postcode: '4064', state: 'QLD', suburb: 'Paddington', commissioned: false });
    nodes.foreign = await node(h(), [otherOrg], { postcode: '2042' });
  });

  describe('authentication and permissions', () => {
    const routes = (id: number) =>
      [
        ['GET', '/v2/powerstations'],
        ['GET', '/api/powerstations'],
        ['GET', `/v2/powerstations/${id}`],
        ['POST', '/api/powerstations'],
        ['PUT', `/api/powerstations/${id}`],
        ['PATCH', `/v2/powerstations/${id}`],
        ['DELETE', `/api/powerstations/${id}`],
        ['GET', `/api/powerstations/${id}/events?status=INCOMPLETE`],
        ['GET', '/api/events?state=INCOMPLETE'],
        ['GET', `/v2/powerstations/${id}/nodes`],
        ['GET', `/v2/powerstations/${id}/map`],
        ['GET', `/api/powerstations/${id}/data/latest?metrics=meterVoltage&format=nodes&maxAge=1200`],
        ['GET', `/api/powerstations/${id}/data?metrics=solarPower&interval=300&start=0`],
        ['GET', '/v2/unused-nodes'],
      ] as const;

    it('answers 401 to every VPP call without a token', async () => {
      for (const [method, url] of routes(1)) {
        const res = await h().app.inject({ method, url, payload: method === 'POST' || method === 'PUT' || method === 'PATCH' ? {} : undefined });
        expect(res.statusCode, `${method} ${url}`).toBe(401);
        expect(res.json().data.message).toBe('Sign in to continue.');
      }
    });

    it('answers 403 to a user without any VPP permission, and changes nothing', async () => {
      const id = await create({ type: 'STATIC', name: 'Guarded', nodes: [nodes.bondi.id] });
      for (const [method, url] of routes(id)) {
        if (url === '/v2/unused-nodes') continue; // open to node pages too
        const res = await call(method, url, nobody, method === 'POST' || method === 'PUT' || method === 'PATCH' ? { type: 'STATIC', name: 'X' } : undefined);
        expect(res.statusCode, `${method} ${url}`).toBe(403);
        expect(res.json().data.message).toBe(MESSAGES.notAuthorized);
      }
      expect((await vpp(id)).name).toBe('Guarded');
    });

    it('lets a viewer read but not write, and keeps VPP data behind its own permission', async () => {
      const id = await create({ type: 'STATIC', name: 'Viewed', nodes: [nodes.bondi.id] });
      expect((await call('GET', '/v2/powerstations', viewer)).statusCode).toBe(200);
      expect((await call('GET', `/v2/powerstations/${id}`, viewer)).statusCode).toBe(200);
      expect((await call('GET', `/v2/powerstations/${id}/nodes`, viewer)).statusCode).toBe(200);
      for (const [method, url, body] of [
        ['POST', '/api/powerstations', { type: 'STATIC', name: 'Nope' }],
        ['PUT', `/api/powerstations/${id}`, { type: 'STATIC', name: 'Nope' }],
        ['PATCH', `/v2/powerstations/${id}`, { name: 'Nope' }],
        ['DELETE', `/api/powerstations/${id}`, undefined],
        ['GET', `/api/powerstations/${id}/data/latest?metrics=meterVoltage`, undefined],
        ['GET', `/api/powerstations/${id}/data?metrics=solarPower&interval=300&start=0`, undefined],
      ] as const) {
        const res = await call(method, url, viewer, body);
        expect(res.statusCode, `${method} ${url}`).toBe(403);
        expect(res.json().data.message).toBe(MESSAGES.notAuthorized);
      }
      expect((await vpp(id)).name).toBe('Viewed');
    });

    it('offers the VPP choices of GET /api/powerstations to a dispatcher without the VPP screens, of their own organisation only', async () => {
      const id = await create({ type: 'STATIC', name: 'Chosen', nodes: [nodes.bondi.id] });
      await create({ type: 'STATIC', name: 'Not theirs', nodes: [nodes.foreign.id] }, otherHeaders);
      const dispatcher = await h().bearer((await h().user(org, { permissions: ['fleet.dispatches.edit'] })).username);
      expect((await call('GET', '/v2/powerstations', dispatcher)).statusCode).toBe(403);
      const res = await call('GET', '/api/powerstations?limit=100&type=STATIC', dispatcher);
      expect(res.statusCode, res.body).toBe(200);
      const names = res.json().result.map((v: { name: string }) => v.name) as string[];
      expect(names).toContain('Chosen');
      expect(names).not.toContain('Not theirs');
      expect(res.json().result.find((v: { id: number }) => v.id === id)).toEqual(
        (await call('GET', '/v2/powerstations?limit=100&type=STATIC')).json().result.find((v: { id: number }) => v.id === id),
      );
    });

    it("offers the VPP choices to a user with only export view or edit (the export forms' VPP selector), of their own organisation only, and nothing else of the VPPs", async () => {
      const id = await create({ type: 'STATIC', name: 'Exported', nodes: [nodes.bondi.id] });
      await create({ type: 'STATIC', name: 'Not exported', nodes: [nodes.foreign.id] }, otherHeaders);
      const all = (await call('GET', '/v2/powerstations?limit=1000')).json();
      for (const permission of ['fleet.analysis.export.view', 'fleet.analysis.export.edit']) {
        const exporter = await h().bearer((await h().user(org, { permissions: [permission] })).username);
        const res = await call('GET', '/api/powerstations?limit=1000&offset=0', exporter);
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json()).toEqual(all);
        expect(res.json().result.map((v: { name: string }) => v.name)).toContain('Exported');
        expect(res.json().result.map((v: { name: string }) => v.name)).not.toContain('Not exported');
        for (const url of ['/v2/powerstations', `/v2/powerstations/${id}`, `/v2/powerstations/${id}/nodes`]) {
          expect((await call('GET', url, exporter)).statusCode, url).toBe(403);
        }
      }
    });

    it("answers 404 for another organisation's VPP on every call, and changes nothing", async () => {
      const theirs = await create({ type: 'STATIC', name: 'Theirs', nodes: [nodes.foreign.id] }, otherHeaders);
      for (const [method, url] of routes(theirs)) {
        if (!url.includes(String(theirs))) continue;
        const body = method === 'PUT' ? { type: 'STATIC', name: 'Mine now' } : method === 'PATCH' ? { name: 'Mine now' } : undefined;
        const res = await call(method, url, headers, body);
        expect(res.statusCode, `${method} ${url}`).toBe(404);
        expect(res.json().data.message).toBe('No such Virtual Power Plant.');
      }
      const still = (await call('GET', `/v2/powerstations/${theirs}`, otherHeaders)).json();
      expect(still).toMatchObject({ name: 'Theirs', nodes: 1 });
      expect((await call('GET', '/v2/powerstations?limit=100')).json().result.map((p: { id: number }) => p.id)).not.toContain(theirs);
    });

    it('answers 400 with the reason for an id that is not a number', async () => {
      const res = await call('GET', '/v2/powerstations/abc');
      expect(res.statusCode).toBe(400);
      expect(res.json().data.message).toBe('The Virtual Power Plant id must be a whole number from 1 to 2147483647.');
    });

    it('answers 400 with the exact reason for bad ids and queries on the other VPP calls, and changes nothing', async () => {
      const id = await create({ type: 'STATIC', name: 'Queried', nodes: [nodes.bondi.id] });
      const before = await count();
      for (const [method, url, message] of [
        ['DELETE', '/api/powerstations/abc', 'The Virtual Power Plant id must be a whole number from 1 to 2147483647.'],
        ['DELETE', '/api/powerstations/-1', 'The Virtual Power Plant id must be a whole number from 1 to 2147483647.'],
        ['GET', `/v2/powerstations/${id}/nodes?deployment_state=ONLINE`, 'deployment_state must be COMMISSIONED or NOT_COMMISSIONED.'],
        ['GET', `/v2/powerstations/${id}/nodes?limit=0`, 'limit must be a whole number from 1 to 10000.'],
        ['GET', `/v2/powerstations/${id}/nodes?limit=many`, 'limit must be a whole number from 1 to 10000.'],
        ['GET', `/v2/powerstations/${id}/nodes?offset=-1`, 'offset must be a whole number from 0 to 2147483647.'],
        ['GET', '/v2/powerstations/abc/map', 'The Virtual Power Plant id must be a whole number from 1 to 2147483647.'],
        ['GET', '/v2/powerstations/1.5/map', 'The Virtual Power Plant id must be a whole number from 1 to 2147483647.'],
        ['GET', '/api/events?state=bogus', 'Use INCOMPLETE, UPCOMING, INPROGRESS, COMPLETED.'],
      ] as const) {
        const res = await call(method, url);
        expect(res.statusCode, `${method} ${url}`).toBe(400);
        expect(res.json().data.message, `${method} ${url}`).toBe(message);
      }
      expect(await count()).toBe(before);
      expect((await vpp(id)).name).toBe('Queried');
    });
  });

  describe('create', () => {
    it.each([
      [{ type: 'STATIC' }, VPP_MESSAGES.nameRequired],
      [{ type: 'STATIC', name: '   ' }, VPP_MESSAGES.nameRequired],
      [{ type: 'STATIC', name: 'x'.repeat(101) }, VPP_MESSAGES.nameTooLong],
      [{ type: 'DYNAMIC', name: 'Postcodes', filters: { postcodes: [] } }, VPP_MESSAGES.postcodeRequired],
      [{ type: 'DYNAMIC', name: 'Postcodes', filters: { postcodes: ['2042', '20x0'] } }, 'Postcodes are four digits: 20x0 is not.'],
      [{ type: 'DYNAMIC', name: 'State', filters: { state: null } }, VPP_MESSAGES.stateRequired],
      [{ type: 'DYNAMIC', name: 'State', filters: { state: 'XYZ' } }, 'state must be one of ACT, NSW, NT, QLD, SA, TAS, VIC, WA.'],
      [{ type: 'DYNAMIC', name: 'Neither' }, VPP_MESSAGES.postcodeOrState],
      [{ type: 'DYNAMIC', name: 'Both', filters: { postcodes: ['2042'], state: 'NSW' } }, VPP_MESSAGES.postcodeAndState],
      [{ type: 'DYNAMIC', name: 'Nodes', filters: { state: 'NSW' }, nodes: [1] }, VPP_MESSAGES.automaticNodes],
      [{ type: 'STATIC', name: 'Filtered', filters: { state: 'NSW' } }, VPP_MESSAGES.staticHasNoFilter],
      [{ type: 'FCAS', name: 'Market' }, VPP_MESSAGES.fcasNotCreatable],
      [{ type: 'MANUAL', name: 'Odd' }, 'type must be one of STATIC, DYNAMIC, FCAS.'],
      [{ type: 'STATIC', name: 'Ids', nodes: ['one'] }, 'nodes must be a list of node ids.'],
    ])('refuses %j with its message and creates nothing', async (payload, message) => {
      const before = await count();
      const res = await call('POST', '/api/powerstations', headers, payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().data.message).toBe(message);
      expect(await count()).toBe(before);
    });

    it('refuses nodes outside the fleet, naming them, and creates nothing', async () => {
      const before = await count();
      const res = await call('POST', '/api/powerstations', headers, { type: 'STATIC', name: 'Grabby', nodes: [nodes.bondi.id, nodes.foreign.id, 999999] });
      expect(res.statusCode).toBe(400);
      expect(res.json().data.message).toBe(`Nodes ${nodes.foreign.id}, 999999 are not in your fleet.`);
      expect(await count()).toBe(before);
    });

    it('creates a manual VPP with its nodes and answers its id and type; the list shows it with its nameplate', async () => {
      const res = await call('POST', '/api/powerstations', headers, {
        type: 'STATIC',
        name: '  Manual One ',
        nodes: [nodes.newtown1.id, nodes.bondi.id],
        filters: {},
      });
      expect(res.statusCode).toBe(200);
      const { id, type } = res.json().data;
      expect(type).toBe('STATIC');
      expect(await vpp(id)).toEqual({
        id,
        name: 'Manual One',
        type: 'STATIC',
        filters: { postcodes: [], state: null },
        duid: null,
        nodes: 2,
        namePlate: { batteryCapacity: 23.5, inverterPower: 10, batteryPower: 10, totalDeployments: 2 },
        createdAt: expect.any(Number),
      });
      const list = (await call('GET', '/v2/powerstations?limit=100&offset=0')).json();
      expect(list.total).toBe(list.result.length);
      expect(list.result.find((p: { id: number }) => p.id === id)).toMatchObject({ name: 'Manual One', nodes: 2 });
    });

    it('pages the list with limit and offset and narrows it by type', async () => {
      const total = await count();
      const page = (await call('GET', '/v2/powerstations?limit=1&offset=1')).json();
      expect(page.total).toBe(total);
      expect(page.result).toHaveLength(1);
      const dynamicOnly = (await call('GET', '/v2/powerstations?limit=100&type=DYNAMIC')).json();
      expect(dynamicOnly.result.every((p: { type: string }) => p.type === 'DYNAMIC')).toBe(true);
      const bad = await call('GET', '/v2/powerstations?limit=0');
      expect(bad.statusCode).toBe(400);
      expect(bad.json().data.message).toBe('limit must be a whole number from 1 to 10000.');
    });
  });

  describe('automatic membership', () => {
    it('follows postcodes, also for nodes added later and nodes that move, within the fleet only', async () => {
      const id = await create({ type: 'DYNAMIC', name: 'Newtown', filters: { postcodes: ['2042'] } });
      expect((await memberIds(id)).sort()).toEqual([nodes.newtown1.id, nodes.newtown2.id].sort());
      expect(await memberIds(id)).not.toContain(nodes.foreign.id);

      const later = await node(h(), [org], { postcode: '2042' });
      expect(await memberIds(id)).toContain(later.id);
      expect((await vpp(id)).nodes).toBe(3);

      await h().ctx.db.updateTable('nodes').set({ postcode: '2026' }).where('id', '=', later.id).execute();
      expect(await memberIds(id)).not.toContain(later.id);
      await h().ctx.db.deleteFrom('nodes').where('id', '=', later.id).execute();
    });

    it('follows the state', async () => {
      const id = await create({ type: 'DYNAMIC', name: 'Queensland', filters: { state: 'QLD' } });
      expect(await vpp(id)).toMatchObject({ filters: { state: 'QLD' }, nodes: 1 });
      const later = await node(h(), [org], { postcode: '4000', state: 'QLD' });
      expect((await memberIds(id)).sort()).toEqual([nodes.brisbane.id, later.id].sort());
      await h().ctx.db.deleteFrom('nodes').where('id', '=', later.id).execute();
    });

    it('counts the same node once in each VPP it belongs to', async () => {
      const a = await create({ type: 'DYNAMIC', name: 'Two postcodes', filters: { postcodes: ['2042', '2026', '2042'] } });
      expect(await vpp(a)).toMatchObject({ filters: { postcodes: ['2026', '2042'] }, nodes: 3 });
    });
  });

  describe('FCAS', () => {
    let fcas: number;
    beforeAll(async () => {
      fcas = await createPowerstation(h().ctx.db, org, { name: 'FCAS Raise', type: 'FCAS', state: null, postcodes: [], duid: 'TESTVPP1' });
      await h()
        .ctx.db.insertInto('duid_units')
        .values([
          { duid: 'TESTVPP1', serial_number: nodes.bondi.serial },
          { duid: 'TESTVPP1', serial_number: nodes.foreign.serial },
          { duid: 'TESTVPP1', serial_number: 'RP-NOT-BUILT-YET' },
        ])
        .execute();
    });

    it('has the fleet nodes registered under its DUID, including units that appear later', async () => {
      expect(await vpp(fcas)).toMatchObject({ type: 'FCAS', duid: 'TESTVPP1', nodes: 1 });
      await h().ctx.db.updateTable('nodes').set({ serial_number: 'RP-NOT-BUILT-YET' }).where('id', '=', nodes.newtown1.id).execute();
      expect((await memberIds(fcas)).sort()).toEqual([nodes.bondi.id, nodes.newtown1.id].sort());
      await h().ctx.db.updateTable('nodes').set({ serial_number: nodes.newtown1.serial }).where('id', '=', nodes.newtown1.id).execute();
    });

    it('refuses to be edited, patched or deleted', async () => {
      for (const [method, url, body, message] of [
        ['PUT', `/api/powerstations/${fcas}`, { type: 'FCAS', name: 'Renamed' }, VPP_MESSAGES.fcasNotEditable],
        ['PATCH', `/v2/powerstations/${fcas}`, { name: 'Renamed' }, VPP_MESSAGES.fcasNotEditable],
        ['PATCH', `/v2/powerstations/${fcas}`, { nodes: { method: 'add', list: [nodes.newtown2.id] } }, VPP_MESSAGES.fcasNotEditable],
        ['DELETE', `/api/powerstations/${fcas}`, undefined, VPP_MESSAGES.fcasNotDeletable],
      ] as const) {
        const res = await call(method, url, headers, body);
        expect(res.statusCode, `${method} ${url}`).toBe(400);
        expect(res.json().data.message).toBe(message);
      }
      expect(await vpp(fcas)).toMatchObject({ name: 'FCAS Raise', nodes: 1 });
    });
  });

  describe('update (PUT)', () => {
    it('changes name and postcodes', async () => {
      const id = await create({ type: 'DYNAMIC', name: 'Before', filters: { postcodes: ['2042'] } });
      const res = await call('PUT', `/api/powerstations/${id}`, headers, { type: 'DYNAMIC', name: 'After', nodes: [], filters: { postcodes: ['2026'] } });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ status: 'OK' });
      expect(await vpp(id)).toMatchObject({ name: 'After', filters: { postcodes: ['2026'], state: null }, nodes: 1 });
    });

    it('replaces the node list of a manual VPP when one is given, and keeps it when not', async () => {
      const id = await create({ type: 'STATIC', name: 'Replace', nodes: [nodes.newtown1.id] });
      await call('PUT', `/api/powerstations/${id}`, headers, { type: 'STATIC', name: 'Replace', nodes: [nodes.bondi.id, nodes.brisbane.id] });
      expect((await memberIds(id)).sort()).toEqual([nodes.bondi.id, nodes.brisbane.id].sort());
      await call('PUT', `/api/powerstations/${id}`, headers, { type: 'STATIC', name: 'Renamed' });
      expect(await vpp(id)).toMatchObject({ name: 'Renamed', nodes: 2 });
    });

    it.each([
      ['STATIC', { type: 'DYNAMIC', name: 'Moved', filters: { postcodes: ['2042'] } }, VPP_MESSAGES.typeUnchangeable],
      ['POSTCODE', { type: 'DYNAMIC', name: 'Moved', filters: { state: 'NSW' } }, VPP_MESSAGES.typeUnchangeable],
      ['POSTCODE', { type: 'STATIC', name: 'Moved' }, VPP_MESSAGES.typeUnchangeable],
      ['POSTCODE', { type: 'DYNAMIC', name: ' ', filters: { postcodes: ['2042'] } }, VPP_MESSAGES.nameRequired],
      ['POSTCODE', { type: 'DYNAMIC', name: 'Moved', filters: { postcodes: [] } }, VPP_MESSAGES.postcodeRequired],
      ['STATIC', { type: 'STATIC', name: 'Moved', nodes: 'foreign' }, 'foreign'],
    ] as const)('refuses on a %s VPP %j and changes nothing', async (kind, payload, message) => {
      const id =
        kind === 'STATIC'
          ? await create({ type: 'STATIC', name: 'Unchanged', nodes: [nodes.bondi.id] })
          : await create({ type: 'DYNAMIC', name: 'Unchanged', filters: { postcodes: ['2026'] } });
      const before = await vpp(id);
      // 'foreign' stands for a node of another organisation's fleet (created after the table is built).
      const foreign = 'nodes' in payload;
      const res = await call('PUT', `/api/powerstations/${id}`, headers, foreign ? { ...payload, nodes: [nodes.foreign.id] } : payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().data.message).toBe(foreign ? `Node ${nodes.foreign.id} is not in your fleet.` : message);
      expect(await vpp(id)).toEqual(before);
    });
  });

  describe('patch', () => {
    it('renames only', async () => {
      const id = await create({ type: 'STATIC', name: 'Old name', nodes: [nodes.bondi.id] });
      const res = await call('PATCH', `/v2/powerstations/${id}`, headers, { name: 'New name' });
      expect(res.statusCode).toBe(200);
      expect(await vpp(id)).toMatchObject({ name: 'New name', nodes: 1 });
    });

    it('adds and removes nodes by list, idempotently', async () => {
      const id = await create({ type: 'STATIC', name: 'Toggles', nodes: [] });
      expect(
        (await call('PATCH', `/v2/powerstations/${id}`, headers, { nodes: { method: 'add', list: [nodes.newtown1.id, nodes.bondi.id] } })).statusCode,
      ).toBe(200);
      await call('PATCH', `/v2/powerstations/${id}`, headers, { nodes: { method: 'add', list: [nodes.bondi.id] } });
      expect((await memberIds(id)).sort()).toEqual([nodes.newtown1.id, nodes.bondi.id].sort());
      await call('PATCH', `/v2/powerstations/${id}`, headers, { nodes: { method: 'remove', list: [nodes.newtown1.id] } });
      expect(await memberIds(id)).toEqual([nodes.bondi.id]);
    });

    it('adds and removes every fleet node matching a filter', async () => {
      const id = await create({ type: 'STATIC', name: 'Bulk', nodes: [] });
      await call('PATCH', `/v2/powerstations/${id}`, headers, { nodes: { method: 'add', filter: { address_filter: 'newtown' } } });
      expect((await memberIds(id)).sort()).toEqual([nodes.newtown1.id, nodes.newtown2.id].sort());
      await call('PATCH', `/v2/powerstations/${id}`, headers, { nodes: { method: 'add', filter: { f: 'nguyen' } } });
      await call('PATCH', `/v2/powerstations/${id}`, headers, { nodes: { method: 'add', filter: { deployment_state: 'NOT_COMMISSIONED' } } });
      expect((await memberIds(id)).sort()).toEqual([nodes.newtown1.id, nodes.newtown2.id, nodes.brisbane.id].sort());
      await call('PATCH', `/v2/powerstations/${id}`, headers, { nodes: { method: 'remove', filter: { f: 'nguyen' } } });
      expect((await memberIds(id)).sort()).toEqual([nodes.newtown2.id, nodes.brisbane.id].sort());
      await call('PATCH', `/v2/powerstations/${id}`, headers, { nodes: { method: 'remove', filter: {} } });
      expect(await memberIds(id)).toEqual([]);
    });

    it('refuses an automatic VPP, a blank name, an empty patch, nodes outside the fleet and a list with a filter, changing nothing', async () => {
      const manual = await create({ type: 'STATIC', name: 'Kept', nodes: [nodes.bondi.id] });
      const dynamic = await create({ type: 'DYNAMIC', name: 'Auto', filters: { state: 'NSW' } });
      for (const [id, body, message] of [
        [dynamic, { nodes: { method: 'add', list: [nodes.brisbane.id] } }, VPP_MESSAGES.automaticNodes],
        [manual, { name: '  ' }, VPP_MESSAGES.nameRequired],
        [manual, { name: 'Renamed', nodes: { method: 'add', list: [nodes.foreign.id] } }, `Node ${nodes.foreign.id} is not in your fleet.`],
        [manual, { name: 'Renamed', nodes: { method: 'add', list: [1], filter: { f: 'x' } } }, VPP_MESSAGES.listOrFilter],
        [manual, { nodes: { method: 'toggle', list: [1] } }, 'nodes.method must be add or remove.'],
        [manual, {}, VPP_MESSAGES.nothingToPatch],
      ] as const) {
        const res = await call('PATCH', `/v2/powerstations/${id}`, headers, body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(res.json().data.message).toBe(message);
      }
      expect(await vpp(manual)).toMatchObject({ name: 'Kept', nodes: 1 });
      expect(await vpp(dynamic)).toMatchObject({ name: 'Auto' });
    });
  });

  describe('delete', () => {
    it('deletes a VPP, which then answers 404 and leaves the list', async () => {
      const id = await create({ type: 'STATIC', name: 'Doomed', nodes: [nodes.bondi.id] });
      const res = await call('DELETE', `/api/powerstations/${id}`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ status: 'OK' });
      expect((await call('GET', `/v2/powerstations/${id}`)).statusCode).toBe(404);
      expect((await call('DELETE', `/api/powerstations/${id}`)).statusCode).toBe(404);
    });
  });

  describe('nodes, map and unused nodes', () => {
    it('lists members, or every fleet node flagged included, with search, address and state filters', async () => {
      const id = await create({ type: 'STATIC', name: 'Listing', nodes: [nodes.bondi.id] });
      const members = (await call('GET', `/v2/powerstations/${id}/nodes?limit=10&offset=0`)).json();
      expect(members.total).toBe(1);
      expect(members.deployments[0]).toMatchObject({ id: nodes.bondi.id, included: true, address: { suburb: 'Bondi' } });

      const all = (await call('GET', `/v2/powerstations/${id}/nodes?include_unused_deployments=true&limit=10&offset=0`)).json();
      expect(all.total).toBe(4);
      expect(all.deployments.map((d: { id: number; included: boolean }) => [d.id, d.included])).toEqual([
        [nodes.newtown1.id, false],
        [nodes.newtown2.id, false],
        [nodes.bondi.id, true],
        [nodes.brisbane.id, false],
      ]);
      expect(await memberIds(id, '&include_unused_deployments=true&f=nguyen')).toEqual([nodes.newtown1.id]);
      expect(await memberIds(id, '&include_unused_deployments=true&address_filter=paddington')).toEqual([nodes.brisbane.id]);
      expect(await memberIds(id, '&include_unused_deployments=true&deployment_state=NOT_COMMISSIONED')).toEqual([nodes.brisbane.id]);
      expect(await memberIds(id, '&f=nobody-matches-this')).toEqual([]);
      const page = (await call('GET', `/v2/powerstations/${id}/nodes?include_unused_deployments=true&limit=2&offset=2`)).json();
      expect(page.deployments.map((d: { id: number }) => d.id)).toEqual([nodes.bondi.id, nodes.brisbane.id]);
    });

    it('answers the members as map points', async () => {
      const id = await create({ type: 'DYNAMIC', name: 'Mapped', filters: { state: 'QLD' } });
      const res = await call('GET', `/v2/powerstations/${id}/map`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ deployments: [{ id: nodes.brisbane.id, lat: -33.9, lng: 151.18, siteLabel: null, displayStatus: 'NOT_COMMISSIONED' }] });
    });

    it('answers as unused the fleet nodes in none of the organisation VPPs', async () => {
      const o = await h().org();
      const hdrs = await h().bearer((await h().user(o)).username);
      const a = await node(h(), [o], { postcode: '3000', state: 'VIC' });
      await node(h(), [o], { postcode: '3001', state: 'VIC' });
      const shared = await node(h(), [o, org], { postcode: '3002', state: 'VIC' });
      const nsw = await node(h(), [o]);
      const unused = async () => (await call('GET', '/v2/unused-nodes?limit=10&offset=0', hdrs)).json();
      expect((await unused()).total).toBe(4);
      await create({ type: 'STATIC', name: 'One', nodes: [a.id] }, hdrs);
      await create({ type: 'DYNAMIC', name: 'Postcode', filters: { postcodes: ['3001'] } }, hdrs);
      // Another organisation's VPP holding a shared node does not use it for this organisation.
      await create({ type: 'STATIC', name: 'Theirs', nodes: [shared.id] });
      const after = await unused();
      expect(after.total).toBe(2);
      expect(after.deployments.map((d: { id: number }) => d.id)).toEqual([shared.id, nsw.id]);
      const paged = (await call('GET', '/v2/unused-nodes?limit=1&offset=1', hdrs)).json();
      expect(paged).toMatchObject({ total: 2, deployments: [{ id: nsw.id }] });
      await create({ type: 'DYNAMIC', name: 'NSW', filters: { state: 'NSW' } }, hdrs);
      await create({ type: 'DYNAMIC', name: 'VIC', filters: { state: 'VIC' } }, hdrs);
      expect(await unused()).toEqual({ deployments: [], total: 0 });
    });
  });

  describe('events', () => {
    it('answers upcoming and in-progress events of the VPP, or none', async () => {
      const id = await create({ type: 'STATIC', name: 'Eventful', nodes: [] });
      const empty = await call('GET', `/api/powerstations/${id}/events?status=INCOMPLETE`);
      expect(empty.statusCode).toBe(200);
      expect(empty.json()).toEqual({ status: 'OK', events: [] });
      const now = nowS();
      await h()
        .ctx.db.insertInto('events')
        .values([
          { organisation_id: org, powerstation_id: id, type: 'DISPATCH', start_time: now + 3600, duration: 1800, cancelled_at: null, created_at: now },
          { organisation_id: org, powerstation_id: id, type: 'CURTAILMENT', start_time: now - 600, duration: 1800, cancelled_at: null, created_at: now },
          { organisation_id: org, powerstation_id: id, type: 'DISPATCH', start_time: now - 7200, duration: 1800, cancelled_at: null, created_at: now },
          { organisation_id: org, powerstation_id: id, type: 'DISPATCH', start_time: now + 7200, duration: 1800, cancelled_at: now, created_at: now },
        ])
        .execute();
      const res = (await call('GET', `/api/powerstations/${id}/events?status=INCOMPLETE`)).json();
      expect(res.events).toEqual([
        { id: expect.any(Number), type: 'CURTAILMENT', startTime: now - 600, duration: 1800, state: 'INPROGRESS', powerstation: { id, name: 'Eventful' } },
        { id: expect.any(Number), type: 'DISPATCH', startTime: now + 3600, duration: 1800, state: 'UPCOMING', powerstation: { id, name: 'Eventful' } },
      ]);
      const all = (await call('GET', '/api/events?state=INCOMPLETE')).json();
      expect(all.events.filter((e: { powerstation: { id: number } }) => e.powerstation?.id === id)).toHaveLength(2);
      expect((await call('GET', '/api/events?state=INCOMPLETE', otherHeaders)).json().events).toEqual([]);
      const bad = await call('GET', `/api/powerstations/${id}/events?status=SOON`);
      expect(bad.statusCode).toBe(400);
      expect(bad.json().data.message).toBe('Use INCOMPLETE, UPCOMING, INPROGRESS, COMPLETED.');
    });
  });

  describe('data', () => {
    it('answers the latest voltage of each member node no older than maxAge', async () => {
      const id = await create({ type: 'DYNAMIC', name: 'Volts', filters: { postcodes: ['2042'] } });
      const now = nowS();
      await h().ctx.telemetry.ingest(
        [
          { nodeId: nodes.newtown1.id, ts: now - 60, dt: 30, voltage: 243.5, meter_p: 1 },
          { nodeId: nodes.newtown2.id, ts: now - 5000, dt: 30, voltage: 239.1, meter_p: 1 },
          { nodeId: nodes.bondi.id, ts: now - 60, dt: 30, voltage: 250, meter_p: 1 },
        ],
        now,
      );
      const res = await call('GET', `/api/powerstations/${id}/data/latest?metrics=meterVoltage&format=nodes&maxAge=1200`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ status: 'OK', meterVoltage: [{ id: nodes.newtown1.id, lat: -33.9, lng: 151.18, ts: now - 60, value: 243.5 }] });
      // A longer maxAge takes in the node that last reported 5000 s ago.
      const older = await call('GET', `/api/powerstations/${id}/data/latest?metrics=meterVoltage&format=nodes&maxAge=6000`);
      expect(older.json().meterVoltage.map((p: { id: number; value: number }) => [p.id, p.value])).toEqual(
        [
          [nodes.newtown1.id, 243.5],
          [nodes.newtown2.id, 239.1],
        ].sort((a, b) => a[0] - b[0]),
      );
      const bad = await call('GET', `/api/powerstations/${id}/data/latest?metrics=pressure`);
      expect(bad.statusCode).toBe(400);
      expect(bad.json().data.message).toBe('metrics must be among meterVoltage, meterPower, solarPower, batteryPower, soc, remainingCharge.');
      const badFormat = await call('GET', `/api/powerstations/${id}/data/latest?metrics=meterVoltage&format=csv`);
      expect(badFormat.statusCode).toBe(400);
      expect(badFormat.json().data.message).toBe('format must be nodes or total.');
    });

    it('adds up the same readings on the server with format=total (the Single Stat), and how many nodes reported', async () => {
      const id = await create({ type: 'DYNAMIC', name: 'Sums', filters: { postcodes: ['2042'] } });
      const now = nowS();
      await h().ctx.telemetry.ingest(
        [
          { nodeId: nodes.newtown1.id, ts: now - 60, dt: 30, voltage: 243.5, meter_p: 1.25, solar_p: 2.5 },
          { nodeId: nodes.newtown2.id, ts: now - 90, dt: 30, voltage: 239.1, meter_p: -0.5, solar_p: 3.125 },
          { nodeId: nodes.newtown2.id, ts: now - 5000, dt: 30, voltage: 239.1, meter_p: 9, solar_p: 9 },
          { nodeId: nodes.bondi.id, ts: now - 60, dt: 30, voltage: 250, meter_p: 7, solar_p: 7 },
        ],
        now,
      );
      const res = await call('GET', `/api/powerstations/${id}/data/latest?metrics=solarPower,meterPower&format=total&maxAge=1200`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ status: 'OK', totals: { solarPower: { value: 5.625, nodes: 2 }, meterPower: { value: 0.75, nodes: 2 } } });
      const nodesReply = await call('GET', `/api/powerstations/${id}/data/latest?metrics=solarPower&format=nodes&maxAge=1200`);
      expect(nodesReply.json().solarPower.reduce((n: number, p: { value: number }) => n + p.value, 0)).toBe(5.625);
    });

    it('rounds each reading of format=total as format=nodes does, halves up (toward +∞) also below zero', async () => {
      const id = await create({ type: 'DYNAMIC', name: 'Halves', filters: { postcodes: ['2042'] } });
      const now = nowS();
      await h().ctx.telemetry.ingest(
        [
          { nodeId: nodes.newtown1.id, ts: now - 60, dt: 30, voltage: 240, meter_p: -1.2345, solar_p: 0.0025 },
          { nodeId: nodes.newtown2.id, ts: now - 60, dt: 30, voltage: 240, meter_p: 2.0015, solar_p: 1.0005 },
        ],
        now,
      );
      const res = await call('GET', `/api/powerstations/${id}/data/latest?metrics=solarPower,meterPower&format=total&maxAge=1200`);
      expect(res.json()).toEqual({ status: 'OK', totals: { solarPower: { value: 1.004, nodes: 2 }, meterPower: { value: 0.768, nodes: 2 } } });
      const each = await call('GET', `/api/powerstations/${id}/data/latest?metrics=solarPower,meterPower&format=nodes&maxAge=1200`);
      const sum = (points: { value: number }[]) => Math.round(points.reduce((n, p) => n + p.value, 0) * 1000) / 1000;
      expect([sum(each.json().solarPower), sum(each.json().meterPower)]).toEqual([1.004, 0.768]);
    });

    it("answers the latest readings of exactly the members of every kind of VPP, never another organisation's node", async () => {
      const now = nowS();
      const all = [nodes.newtown1, nodes.newtown2, nodes.bondi, nodes.brisbane, nodes.foreign];
      await h().ctx.telemetry.ingest(
        all.map((n, k) => ({ nodeId: n.id, ts: now - 30, dt: 30, voltage: 240 + k, meter_p: 1 })),
        now,
      );
      await h()
        .ctx.db.insertInto('duid_units')
        .values([nodes.bondi, nodes.foreign].map((n) => ({ duid: 'HEATVPP', serial_number: n.serial })))
        .execute();
      const vpps = {
        manual: await create({ type: 'STATIC', name: 'Heat manual', nodes: [nodes.newtown2.id, nodes.bondi.id] }),
        postcode: await create({ type: 'DYNAMIC', name: 'Heat postcode', filters: { postcodes: ['2042'] } }),
        state: await create({ type: 'DYNAMIC', name: 'Heat state', filters: { state: 'QLD' } }),
        fcas: await createPowerstation(h().ctx.db, org, { name: 'Heat FCAS', type: 'FCAS', state: null, postcodes: [], duid: 'HEATVPP' }),
      };
      const latestIds = async (id: number) =>
        ((await call('GET', `/api/powerstations/${id}/data/latest?metrics=meterVoltage&maxAge=1200`)).json().meterVoltage as { id: number }[]).map((p) => p.id);
      const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b);
      expect(await latestIds(vpps.manual)).toEqual(sorted([nodes.newtown2.id, nodes.bondi.id]));
      expect(await latestIds(vpps.postcode)).toEqual(sorted([nodes.newtown1.id, nodes.newtown2.id]));
      expect(await latestIds(vpps.state)).toEqual([nodes.brisbane.id]);
      expect(await latestIds(vpps.fcas)).toEqual([nodes.bondi.id]);
      // The same members as the VPP's node list: the heat map and the list never disagree.
      for (const id of Object.values(vpps)) expect(await latestIds(id)).toEqual(sorted(await memberIds(id)));
    });

    it('answers 5-minute series summed over member nodes, null where no node reported', async () => {
      const id = await create({ type: 'STATIC', name: 'Summed', nodes: [nodes.newtown1.id, nodes.bondi.id] });
      const start = 1_750_000_200; // a multiple of 300
      await h().ctx.telemetry.ingest(
        [
          { nodeId: nodes.newtown1.id, ts: start, dt: 300, solar_p: 3, meter_p: -1, remaining: 5 },
          { nodeId: nodes.bondi.id, ts: start, dt: 300, solar_p: 2.5, meter_p: 0.5, remaining: 7 },
          { nodeId: nodes.newtown2.id, ts: start, dt: 300, solar_p: 100 },
          { nodeId: nodes.bondi.id, ts: start + 300, dt: 300, solar_p: 1, meter_p: 2, remaining: 6 },
        ],
        start + 900,
      );
      const res = await call(
        'GET',
        `/api/powerstations/${id}/data?metrics=solarPower,meterPower,remainingCharge&interval=300&start=${start}&end=${start + 900}`,
      );
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        status: 'OK',
        series: {
          [start]: { solarPower: 5.5, meterPower: -0.5, remainingCharge: 12 },
          [start + 300]: { solarPower: 1, meterPower: 2, remainingCharge: 6 },
          [start + 600]: { solarPower: null, meterPower: null, remainingCharge: null },
        },
      });
      for (const [query, message] of [
        ['metrics=voltage&interval=300&start=0', 'metrics must be among solarPower, meterPower, batteryPower, housePower, remainingCharge.'],
        ['metrics=solarPower&interval=60&start=0', 'interval must be 300 or 3600 seconds.'],
        [`metrics=solarPower&interval=300&start=${start}&end=${start}`, 'end must be after start.'],
      ]) {
        const r = await call('GET', `/api/powerstations/${id}/data?${query}`);
        expect(r.statusCode, query).toBe(400);
        expect(r.json().data.message).toBe(message);
      }
    });
  });
});

// Issue 33 item 6: membership history of manual VPPs, and the path that takes a node out of a fleet.
describeEachDatabase('VPP membership history and releasing a node from the fleet', (h) => {
  it('keeps each stay of a node in a manual VPP, and closes its fleet and VPP stays when it leaves the fleet', async () => {
    const { db } = h().ctx;
    const org = await h().org('RETAILER', 'Leaving Energy');
    const headers = await h().bearer((await h().user(org)).username);
    const t0 = nowS();
    const [a, b, c] = [await node(h(), [org], { joinedAt: t0 - 86_400 }), await node(h(), [org], { joinedAt: t0 - 86_400 }), await node(h(), [org])];
    const call = (method: 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) => h().app.inject({ method, url, headers, payload: payload as never });
    const id = (await call('POST', '/api/powerstations', { type: 'STATIC', name: 'Street', nodes: [a.id, b.id] })).json().data.id as number;
    expect((await call('PATCH', `/v2/powerstations/${id}`, { nodes: { method: 'add', list: [c.id] } })).statusCode).toBe(200);
    expect((await call('PATCH', `/v2/powerstations/${id}`, { nodes: { method: 'remove', list: [b.id] } })).statusCode).toBe(200);
    const stays = async () =>
      (await db.selectFrom('vpp_membership_history').selectAll().where('powerstation_id', '=', id).orderBy('node_id').execute()).map((r) => [
        r.node_id,
        r.left_at === null ? 'open' : 'closed',
      ]);
    expect(await stays()).toEqual([
      [a.id, 'open'],
      [b.id, 'closed'],
      [c.id, 'open'],
    ]);

    // A leaves the fleet an hour from now: its fleet stay and its VPP stay close then, and it is no longer a member.
    const at = t0 + 3600;
    await expect(releaseNodes(db, 'Leaving Energy', [a.serial, 'NOPE123'])).rejects.toThrow("Not in Leaving Energy's fleet: NOPE123.");
    await expect(releaseNodes(db, 'Nobody', [a.serial])).rejects.toThrow('No organisation is named "Nobody".');
    expect(await db.selectFrom('fleet_members').select('node_id').where('node_id', '=', a.id).execute()).toHaveLength(1);
    expect(await releaseNodes(db, 'Leaving Energy', [a.serial], at)).toEqual([a.id]);
    expect(await db.selectFrom('fleet_members').select('node_id').where('node_id', '=', a.id).execute()).toEqual([]);
    const fleetStay = await db.selectFrom('fleet_membership_history').selectAll().where('node_id', '=', a.id).executeTakeFirstOrThrow();
    expect(Number(fleetStay.left_at)).toBe(at);
    const vppStay = await db.selectFrom('vpp_membership_history').selectAll().where('node_id', '=', a.id).executeTakeFirstOrThrow();
    expect(Number(vppStay.left_at)).toBe(at);
    expect(await db.selectFrom('vpp_nodes').select('node_id').where('powerstation_id', '=', id).execute()).toEqual([{ node_id: c.id }]);

    // The VPP's nodes of a period: before A left, A and C (B's stay ended when it was removed); after, C only.
    const ps = await db.selectFrom('powerstations').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const removedB = await db.selectFrom('vpp_membership_history').select('left_at').where('node_id', '=', b.id).executeTakeFirstOrThrow();
    expect(await vppNodesDuring(db, ps, Number(removedB.left_at) + 1, at)).toEqual([a.id, c.id]);
    expect(await vppNodesDuring(db, ps, at, at + 3600)).toEqual([c.id]);
    expect(await vppNodesDuring(db, ps, t0 - 2 * 86_400, t0 - 86_400)).toEqual([]);
    // An automatic VPP's of a period: the fleet's of that period matching its rule (all three are in postcode 2042).
    const auto = (await call('POST', '/api/powerstations', { type: 'DYNAMIC', name: 'Newtown', filters: { postcodes: ['2042'] } })).json().data.id as number;
    const dynamic = await db.selectFrom('powerstations').selectAll().where('id', '=', auto).executeTakeFirstOrThrow();
    expect(await vppNodesDuring(db, dynamic, t0, at)).toEqual([a.id, b.id, c.id]);
    expect(await vppNodesDuring(db, dynamic, at, at + 3600)).toEqual([b.id, c.id]);
    // Deleting the manual VPP ends its stays; their history stays.
    expect((await call('DELETE', `/api/powerstations/${id}`)).statusCode).toBe(200);
    expect(await stays()).toEqual([
      [a.id, 'closed'],
      [b.id, 'closed'],
      [c.id, 'closed'],
    ]);
  });
});

// Issue 30: each VPP's node count and nameplate sums are stored with it, kept by the database's triggers.
describeEachDatabase('VPP nameplate sums kept with each VPP', (h) => {
  it('stay right across changes to the members, their nameplates, the fleet and the rules, for every kind of VPP', async () => {
    const { db } = h().ctx;
    const org = await h().org('RETAILER', 'Nameplate Energy');
    const other = await h().org('RETAILER', 'Nameplate Elsewhere');
    const headers = await h().bearer((await h().user(org)).username);
    const call = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: unknown) =>
      h().app.inject({ method, url, headers, payload: payload as never });
    const create = async (payload: unknown) => {
      const res = await call('POST', '/api/powerstations', payload);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data.id as number;
    };
    const [a, b, c] = [
      await node(h(), [org], { postcode: '2042' }),
      await node(h(), [org], { postcode: '2042', batteryKwh: 10 }),
      await node(h(), [org], { postcode: '2026' }),
    ];
    const qld = await node(h(), [org, other], { postcode: '4064', state: 'QLD' });
    const vpps = {
      manual: await create({ type: 'STATIC', name: 'Manual', nodes: [a.id, c.id] }),
      postcode: await create({ type: 'DYNAMIC', name: 'Newtown', filters: { postcodes: ['2042'], state: null } }),
      state: await create({ type: 'DYNAMIC', name: 'Queensland', filters: { state: 'QLD' } }),
      fcas: await createPowerstation(db, org, { name: 'FCAS', type: 'FCAS', state: null, postcodes: [], duid: 'NAMEPLATE1' }),
    };

    // What the list says of each VPP, against the nameplates of its members as its rule names them now.
    const expectRight = async (step: string) => {
      const listed = (await call('GET', '/v2/powerstations?limit=100')).json().result as { id: number; nodes: number; namePlate: Record<string, number> }[];
      for (const [kind, id] of Object.entries(vpps)) {
        const ps = await db.selectFrom('powerstations').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
        const members = await memberNodes(db, ps).select(['nodes.battery_kwh', 'nodes.inverter_kw', 'nodes.battery_kw']).execute();
        const sum = (f: (m: (typeof members)[number]) => number) => Math.round(members.reduce((s, m) => s + Number(f(m)), 0) * 100) / 100;
        const expected = {
          nodes: members.length,
          namePlate: {
            batteryCapacity: sum((m) => m.battery_kwh),
            inverterPower: sum((m) => m.inverter_kw),
            batteryPower: sum((m) => m.battery_kw),
            totalDeployments: members.length,
          },
        };
        expect(
          listed.find((p) => p.id === id),
          `${step}: ${kind}`,
        ).toMatchObject(expected);
        // The sums the list gave are the stored ones, of the VPP's current version.
        const stored = await db.selectFrom('powerstation_nameplates').selectAll().where('powerstation_id', '=', id).executeTakeFirstOrThrow();
        expect(stored.summed_version, `${step}: ${kind}`).toBe(stored.version);
        expect(Number(stored.nodes), `${step}: ${kind}`).toBe(members.length);
      }
    };
    const counts = async () => {
      const listed = (await call('GET', '/v2/powerstations?limit=100')).json().result as { id: number; nodes: number }[];
      return Object.fromEntries(Object.entries(vpps).map(([kind, id]) => [kind, listed.find((p) => p.id === id)?.nodes]));
    };

    await expectRight('created');
    expect(await counts()).toEqual({ manual: 2, postcode: 2, state: 1, fcas: 0 });

    expect((await call('PATCH', `/v2/powerstations/${vpps.manual}`, { nodes: { method: 'add', list: [b.id, qld.id] } })).statusCode).toBe(200);
    await expectRight('nodes added to the manual VPP');
    expect((await call('PATCH', `/v2/powerstations/${vpps.manual}`, { nodes: { method: 'remove', list: [c.id] } })).statusCode).toBe(200);
    await expectRight('a node removed from the manual VPP');

    await db.updateTable('nodes').set({ battery_kwh: 7.25, battery_kw: 3.3, inverter_kw: 4.6 }).where('id', '=', a.id).execute();
    await expectRight("a member's nameplate changed");
    await db.updateTable('nodes').set({ battery_kwh: 20 }).where('id', '=', qld.id).execute();
    await expectRight("a QLD member's battery changed");

    await db.updateTable('nodes').set({ postcode: '2026' }).where('id', '=', b.id).execute();
    await expectRight('a node moved out of the postcode');
    await db.updateTable('nodes').set({ state: 'QLD', postcode: '4000' }).where('id', '=', c.id).execute();
    await expectRight('a node moved into the state');
    expect(await counts()).toEqual({ manual: 3, postcode: 1, state: 2, fcas: 0 });

    await db
      .insertInto('duid_units')
      .values([
        { duid: 'NAMEPLATE1', serial_number: a.serial },
        { duid: 'NAMEPLATE1', serial_number: qld.serial },
      ])
      .execute();
    await expectRight('units registered under the DUID');
    await db
      .updateTable('nodes')
      .set({ serial_number: `${qld.serial}X` })
      .where('id', '=', qld.id)
      .execute();
    await expectRight("a unit's serial changed");
    await db.deleteFrom('duid_units').where('serial_number', '=', a.serial).execute();
    await expectRight('a unit taken off the DUID');

    // A node joining the organisation's fleet joins its automatic VPPs; one joining another's fleet changes nothing here.
    const d = await node(h(), [org], { postcode: '2042', batteryKwh: 5 });
    await node(h(), [other], { postcode: '2042' });
    await expectRight('a node joined the fleet');
    expect((await counts()).postcode).toBe(2);

    expect(
      (
        await call('PUT', `/api/powerstations/${vpps.postcode}`, {
          type: 'DYNAMIC',
          name: 'Two postcodes',
          nodes: [],
          filters: { postcodes: ['2042', '2026'] },
        })
      ).statusCode,
    ).toBe(200);
    await expectRight('a postcode added');
    expect((await call('PUT', `/api/powerstations/${vpps.state}`, { type: 'DYNAMIC', name: 'Now NSW', nodes: [], filters: { state: 'NSW' } })).statusCode).toBe(
      200,
    );
    await expectRight('the state VPP now of another state');

    await releaseNodes(db, 'Nameplate Energy', [d.serial]);
    await expectRight('a node released from the fleet');
    await db.deleteFrom('fleet_members').where('node_id', '=', a.id).where('organisation_id', '=', org).execute();
    await expectRight('a member left the fleet');
    await db.deleteFrom('nodes').where('id', '=', qld.id).execute();
    await expectRight('a member deleted');
    expect(await counts()).toEqual({ manual: 1, postcode: 1, state: 1, fcas: 0 });

    // A rename is no change of members: the sums stay stored and are not summed again.
    const before = await db.selectFrom('powerstation_nameplates').select('version').where('powerstation_id', '=', vpps.manual).executeTakeFirstOrThrow();
    expect((await call('PATCH', `/v2/powerstations/${vpps.manual}`, { name: 'Renamed' })).statusCode).toBe(200);
    await db.updateTable('nodes').set({ last_contact: nowS() }).where('id', '=', b.id).execute();
    const after = await db.selectFrom('powerstation_nameplates').select('version').where('powerstation_id', '=', vpps.manual).executeTakeFirstOrThrow();
    expect(after.version).toBe(before.version);

    // Deleting a VPP takes its sums with it.
    expect((await call('DELETE', `/api/powerstations/${vpps.manual}`)).statusCode).toBe(200);
    expect(await db.selectFrom('powerstation_nameplates').select('powerstation_id').where('powerstation_id', '=', vpps.manual).execute()).toEqual([]);
  });
});
