import { CURTAILMENT_MESSAGES } from '@vpp/shared/curtailments/messages';
import { beforeAll, describe, expect, it } from 'vitest';
import { nowS } from '../../db/database.ts';
import { toControl } from '../../devices/index.ts';
import { atTime, commandsLeft } from '../../test/events.ts';
import { homesVpp, node } from '../../test/factories.ts';
import { describeEachDatabase } from '../../test/harness.ts';
import { forecastVpp } from '../events/index.ts';
import { runCurtailmentEngine } from './curtailments.orders.service.ts';
import { createImportLimit, curtailmentSource, importCaps, setpointSource } from './curtailments.service.ts';

describeEachDatabase('curtailments and default setpoints', (h) => {
  let org: number;
  let headers: { authorization: string };
  let vpp: number;
  let empty: number;
  let nodes: number[];
  const start = () => Math.floor(nowS() / 300) * 300 + 4 * 3600;

  const post = (url: string, payload?: object, hdrs: Record<string, string> = headers) =>
    h().app.inject({ method: 'POST', url, headers: hdrs, ...(payload ? { payload } : {}) });
  const get = (url: string, hdrs: Record<string, string> = headers) => h().app.inject({ method: 'GET', url, headers: hdrs });
  const create = async (payload: object = {}) => {
    const res = await post('/api/curtailments', { powerstation: vpp, startTime: start(), realPowerP: -10, ...payload });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.id as number;
  };
  /** The nodes report now: the engine can reach them. */
  const report = async (ids: number[], ts = nowS()) => {
    const { db } = h().ctx;
    await db.deleteFrom('tel_latest').where('node_id', 'in', ids).execute();
    await db
      .insertInto('tel_latest')
      .values(ids.map((id) => ({ node_id: id, ts })) as never)
      .execute();
  };

  beforeAll(async () => {
    org = await h().org('RETAILER', 'Feed-In Energy');
    headers = await h().bearer((await h().user(org)).username);
    // Each factory node has 6.6 kW of panels behind a 5 kW inverter: it can put out 5 kW.
    const homes = await homesVpp(h(), org, headers, 'Rooftops', 4);
    ({ vpp, nodes } = homes);
    empty = (await post('/api/powerstations', { type: 'STATIC', name: 'Empty', nodes: [homes.idle] })).json().data.id;
    await report(nodes);
  });

  it('answers the constraint: minus the summed solar the commissioned nodes can put out, 0 with none', async () => {
    expect((await get(`/api/constraints/curtailments?powerstation=${vpp}`)).json()).toEqual({
      status: 'OK',
      data: { constraint: -20, deploymentsCurtailable: 4 },
    });
    expect((await get(`/api/constraints/curtailments?powerstation=${empty}`)).json().data).toEqual({ constraint: 0, deploymentsCurtailable: 0 });
  });

  it('creates a curtailment with the defaults (4 hours, 0 kW, grid) and shows it in the list, detail and node table', async () => {
    const res = await post('/api/curtailments', { powerstation: vpp, startTime: start() });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().data.id as number;
    const d = (await get(`/api/curtailments/${id}`)).json().data;
    expect(d).toMatchObject({
      id,
      state: 'UPCOMING',
      triggered: false,
      reason: null,
      powerstation: { id: vpp, name: 'Rooftops' },
      component: 'grid',
      cancelledAt: null,
      request: { startTime: start(), duration: 14400, realPowerP: 0, deploymentsRequested: 4 },
      currentResponse: { deploymentsAccepted: 0, deploymentsAsked: 4, solarPower: null, meterPower: null },
    });
    expect(d.createdBy).not.toBe('Unknown');
    expect(d.audit.map((a: { action: string }) => a.action)).toEqual(['CREATED']);
    const list = (await get('/api/curtailments?limit=10&offset=0')).json().data;
    expect(list.curtailments.map((c: { id: number }) => c.id)).toContain(id);
    expect(list.total).toBeGreaterThanOrEqual(1);
    const table = (await get(`/curtailment/${id}/nodes?limit=2&offset=0`)).json().data;
    expect(table.total).toBe(4);
    expect(table.nodes).toHaveLength(2);
    expect(table.nodes[0]).toMatchObject({ id: nodes[0], responded: false });
    expect(table.nodes[0].address).toContain('Test Street');
    expect(table.nodes[0].serialNumber).toMatch(/^RPT/);
  });

  it('lists latest start first, paged', async () => {
    const a = await create({ startTime: start() + 3600 });
    const b = await create({ startTime: start() + 7200 });
    const page = (await get('/api/curtailments?limit=2&offset=0')).json().data;
    expect(page.curtailments.map((c: { id: number }) => c.id)).toEqual([b, a]);
    expect((await get('/api/curtailments?limit=1&offset=1')).json().data.curtailments[0].id).toBe(a);
  });

  it('answers 400 with what is wrong, and creates nothing', async () => {
    const before = (await get('/api/curtailments')).json().data.total;
    const cases: [object, string][] = [
      [{ realPowerP: 5 }, 'realPowerP must be a number of kW from -10000000 to 0.'],
      [{ component: 'wind' }, 'component must be one of grid, solar.'],
      [{ component: 'import', realPowerP: 0 }, CURTAILMENT_MESSAGES.importFromVtnOnly],
      [{ duration: 60 }, 'duration must be a whole number of seconds from 300 to 604800.'],
      [{ startTime: start() + 7 }, CURTAILMENT_MESSAGES.startStep],
      [{ duration: 1000 }, CURTAILMENT_MESSAGES.durationStep],
      [{ startTime: start() - 86400 }, CURTAILMENT_MESSAGES.startInPast],
      [{ realPowerP: -1.25 }, CURTAILMENT_MESSAGES.powerStep],
      [{ realPowerP: -20.1 }, CURTAILMENT_MESSAGES.belowConstraint(-20)],
      [{ powerstation: empty }, CURTAILMENT_MESSAGES.noCurtailableNodes],
    ];
    for (const [payload, message] of cases) {
      const res = await post('/api/curtailments', { powerstation: vpp, startTime: start(), realPowerP: -10, ...payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().data.message).toContain(message);
    }
    expect((await get('/api/curtailments')).json().data.total).toBe(before);
  });

  it("holds a network's import limit with the VPP's homes with a battery only, and refuses one from a user (issue 31)", async () => {
    const { db } = h().ctx;
    const batteries = [(await node(h(), [org])).id, (await node(h(), [org])).id];
    const bare = (await node(h(), [org], { batteryKwh: 0 })).id;
    const feeder = (await post('/api/powerstations', { type: 'STATIC', name: 'Import feeder', nodes: [...batteries, bare] })).json().data.id as number;
    await report([...batteries, bare]);

    // A user cannot ask for one: only the console's VEN makes them, from a network's VTN.
    const refused = await post('/api/curtailments', { powerstation: feeder, startTime: start(), realPowerP: 0, component: 'import' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().data.message).toBe(
      "component import is made only from a network's OpenADR VTN (an IMPORT_CAPACITY_LIMIT event): choose grid or solar.",
    );

    // The VTN's 3.05 kW becomes 3 kW (toward less import), split between the two batteries.
    const actor = { id: null, organisationId: org, reason: 'Import limit (OpenADR event-1 from vtn.test)' };
    const { id } = await createImportLimit(h().ctx, actor, { powerstation: feeder, startTime: start(), duration: 1800, importKw: 3.05 });
    expect((await get(`/api/curtailments/${id}`)).json().data).toMatchObject({
      component: 'import',
      triggered: true,
      reason: 'Import limit (OpenADR event-1 from vtn.test)',
      request: { startTime: start(), duration: 1800, realPowerP: 3, deploymentsRequested: 2 },
    });
    expect((await runCurtailmentEngine(h().ctx)).sent).toContain(id);
    const commands = await db
      .selectFrom('node_commands')
      .select(['node_id', 'kind', 'params'])
      .where('source', '=', curtailmentSource(id))
      .orderBy('node_id')
      .execute();
    expect(commands.map((c) => [c.node_id, c.kind, toControl(JSON.parse(c.params))])).toEqual(
      batteries.map((n) => [n, 'import_limit', { type: 'opModImpLimW', w: 1500 }]),
    );
    const history = await db.selectFrom('node_events').select(['node_id', 'description']).where('description', 'like', `%curtailment ${id}.`).execute();
    expect(history.map((e) => e.description)).toEqual([
      `Import limit: import from the grid held to at most 1.5 kW by curtailment ${id}.`,
      `Import limit: import from the grid held to at most 1.5 kW by curtailment ${id}.`,
    ]);
    // Its prediction and response count the home without a battery too (the limit is on the VPP's import).
    expect((await get(`/api/curtailments/${id}/prediction`)).json().data.deployments).toBe(3);

    // A VTN's limit is never refused for its value: a negative one holds the import at 0.
    const zero = await createImportLimit(h().ctx, actor, { powerstation: feeder, startTime: start() + 3600, duration: 900, importKw: -4 });
    expect((await get(`/api/curtailments/${zero.id}`)).json().data.request.realPowerP).toBe(0);
    // A VPP without a battery home takes none.
    await expect(createImportLimit(h().ctx, actor, { powerstation: empty, startTime: start(), duration: 900, importKw: 1 })).rejects.toThrow(
      CURTAILMENT_MESSAGES.noBatteryHomes,
    );

    expect((await post(`/api/curtailments/${id}/cancel`)).statusCode).toBe(200);
    const after = await db.selectFrom('node_commands').select('status').where('source', '=', curtailmentSource(id)).execute();
    expect(after.map((c) => c.status)).toEqual(['CANCELLED', 'CANCELLED']);
  });

  it('predicts the import under an import limit: what the batteries can hold, and the load of a home without one', () => {
    // An evening: no sun, 3 kW of load in each home. The first home's battery gives at most 1.5 kW
    // (its share is 1 kW: it holds what it can); the second home has none. The kernel's forecast steps
    // them, the limit applied as an import cap on each home with a battery over its window.
    const homes = [
      { id: 1, solarKw: 0, inverterKw: 0, batteryKw: 1.5, usableKwh: 10, socKwh: 10 },
      { id: 2, solarKw: 0, inverterKw: 0, batteryKw: 0, usableKwh: 0, socKwh: 0 },
    ];
    const expected = { solarKw: () => 0, houseKw: () => 3 };
    const meter = (nodes: typeof homes) =>
      Object.values(forecastVpp(nodes, { from: 0, dayStart: 0, end: 1200 }, expected, importCaps(nodes, 1, 600, 600)).adjustedPrediction ?? {}).map(
        (p) => p.meterPower,
      );
    expect(meter(homes)).toEqual([4.5, 4.5, 4.5, 4.5]);
    // A battery with the power to cover its home's load holds it at 0, under its share.
    const stronger = [{ ...homes[0], batteryKw: 5 }, homes[1]];
    expect(meter(stronger)).toEqual([3, 3, 3, 3]);
    // An empty battery holds nothing: the limit is not met, and the prediction says so.
    const empty = [{ ...homes[0], socKwh: 0 }, homes[1]];
    expect(meter(empty)).toEqual([6, 6, 6, 6]);
  });

  it('refuses a curtailment or a setpoint on an FCAS VPP, which is registered for frequency services', async () => {
    const { db } = h().ctx;
    const t = nowS();
    const fcas = (
      await db
        .insertInto('powerstations')
        .values({ organisation_id: org, name: 'FCAS Raise', type: 'FCAS', state: null, duid: 'TESTVPP8', created_at: t, updated_at: t })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    await db.insertInto('vpp_nodes').values({ powerstation_id: fcas, node_id: nodes[0] }).execute();
    const before = (await get('/api/curtailments')).json().data.total;
    for (const [url, payload] of [
      ['/api/curtailments', { powerstation: fcas, startTime: start(), realPowerP: -1 }],
      ['/api/curtailments/setpoint', { powerstation: fcas, meterRealPowerP: -1, inverterRealPowerP: -1 }],
    ] as const) {
      const res = await post(url, payload);
      expect(res.statusCode, url).toBe(400);
      expect(res.json().data.message).toBe(CURTAILMENT_MESSAGES.fcasNotCurtailable);
    }
    expect((await get('/api/curtailments')).json().data.total).toBe(before);
    expect((await get(`/api/curtailments/setpoints/powerstation/${fcas}`)).json().data.total).toBe(0);
  });

  it('counts the nodes asked as the node table lists them, a node that joined the VPP later included', async () => {
    const id = await create();
    const late = (await node(h(), [org])).id;
    await h()
      .ctx.db.insertInto('limit_nodes')
      .values({ source: curtailmentSource(id), node_id: late, net_kw: 0, gross_kw: null, orders_sent_at: null, dropped_at: null })
      .execute();
    const table = (await get(`/curtailment/${id}/nodes?limit=10&offset=0`)).json().data;
    const response = (await get(`/api/curtailments/${id}/response`)).json().data;
    expect(table.total).toBe(5);
    expect(response.deploymentsRequested).toBe(table.total);
    expect(response.deploymentsAccepted).toBe(table.nodes.filter((n: { responded: boolean }) => n.responded).length);
    expect((await get(`/api/curtailments/${id}`)).json().data.currentResponse.deploymentsAsked).toBe(table.total);
  });

  it('sends per-node limits within 24 hours of the start, splitting the VPP limit by capacity, and logs them in the node history', async () => {
    const id = await create({ realPowerP: -6, component: 'solar' });
    await report(nodes);
    const run = await runCurtailmentEngine(h().ctx, nowS());
    expect(run.sent).toContain(id);
    expect((await runCurtailmentEngine(h().ctx, nowS())).sent).not.toContain(id);
    const commands = await h()
      .ctx.db.selectFrom('node_commands')
      .select(['node_id', 'params', 'start_ts', 'end_ts'])
      .where('source', '=', curtailmentSource(id))
      .execute();
    expect(commands).toHaveLength(4);
    for (const c of commands) {
      expect(JSON.parse(c.params)).toEqual({ kind: 'export_limit', kw: 1.5, mode: 'gross' });
      expect([Number(c.start_ts), Number(c.end_ts)]).toEqual([start(), start() + 14400]);
    }
    const history = (await get(`/api/nodes/${nodes[0]}/events?limit=50&offset=0`)).json();
    const line = JSON.stringify(history);
    expect(line).toContain(`Solar output limited to 1.5 kW by curtailment ${id}.`);
  });

  it('cancels an upcoming curtailment (its limits withdrawn) and refuses a second cancel with the message', async () => {
    const id = await create();
    await report(nodes);
    await runCurtailmentEngine(h().ctx, nowS());
    const res = await post(`/api/curtailments/${id}/cancel`);
    expect(res.statusCode, res.body).toBe(200);
    const d = (await get(`/api/curtailments/${id}`)).json().data;
    expect(d.cancelledAt).not.toBeNull();
    expect(d.audit.map((a: { action: string }) => a.action)).toEqual(['CREATED', 'CANCELLED']);
    expect(await commandsLeft(h(), curtailmentSource(id))).toEqual([]);
    const again = await post(`/api/curtailments/${id}/cancel`);
    expect(again.statusCode).toBe(400);
    expect(again.json().data.message).toBe(CURTAILMENT_MESSAGES.notCancellable);
  });

  it('cancels an in-progress curtailment and refuses a completed one', async () => {
    const running = await create();
    const done = await create({ duration: 300 });
    await atTime(start() + 600, async () => {
      const hdrs = await h().bearer((await h().user(org)).username);
      expect((await get(`/api/curtailments/${running}`, hdrs)).json().data.state).toBe('INPROGRESS');
      expect((await get(`/api/curtailments/${done}`, hdrs)).json().data.state).toBe('COMPLETED');
      const refused = await post(`/api/curtailments/${done}/cancel`, undefined, hdrs);
      expect(refused.statusCode).toBe(400);
      expect(refused.json().data.message).toBe(CURTAILMENT_MESSAGES.notCancellable);
      expect((await post(`/api/curtailments/${running}/cancel`, undefined, hdrs)).statusCode).toBe(200);
    });
  });

  it('predicts the window an hour either side at 5 minutes, warning for a later day', async () => {
    const s = start();
    const p = (await get(`/curtailment/prediction?powerstation=${vpp}&startTime=${s}&duration=3600`)).json().data;
    expect(p.interval).toBe(300);
    expect(Object.keys(p.solarPower)).toHaveLength((3600 + 7200) / 300);
    expect(p.solarPower[s]).not.toBeNull();
    expect(p.deployments).toBe(4);
    const later = (await get(`/curtailment/prediction?powerstation=${vpp}&startTime=${s + 3 * 86400}&duration=3600`)).json().data;
    expect(later.warning).toBe(CURTAILMENT_MESSAGES.futurePredictions);
    const far = await get(`/curtailment/prediction?powerstation=${vpp}&startTime=${s + 9 * 86400}`);
    expect(far.statusCode).toBe(400);
    expect(far.json().data.message).toBe(CURTAILMENT_MESSAGES.predictionHorizon);
    const id = await create();
    const own = (await get(`/api/curtailments/${id}/prediction`)).json().data;
    expect(Object.keys(own.meterPower)).toHaveLength((14400 + 7200) / 300);
  });

  describe('default setpoints', () => {
    it('creates setpoints with the default ramp: the newest of a VPP ACTIVE, ACTIVE first within the same creation time', async () => {
      const first = await post('/api/curtailments/setpoint', { powerstation: vpp, meterRealPowerP: -8, inverterRealPowerP: -12 });
      expect(first.statusCode, first.body).toBe(200);
      const second = await post('/api/curtailments/setpoint', { powerstation: vpp, meterRealPowerP: -4 });
      const other = await post('/api/curtailments/setpoint', { powerstation: empty, rampDuration: 30 });
      const [a, b, c] = [first, second, other].map((r) => r.json().data.id as number);
      const mine = (await get(`/api/curtailments/setpoints/powerstation/${vpp}?offset=0&limit=10`)).json().data;
      expect(mine.total).toBe(2);
      expect(mine.setpoints.map((s: { id: number; status: string }) => [s.id, s.status])).toEqual([
        [b, 'ACTIVE'],
        [a, 'INACTIVE'],
      ]);
      expect(mine.setpoints[1]).toMatchObject({ powerstation: vpp, powerstationName: 'Rooftops', ramp_duration: 120, solar_limit: -12, grid_limit: -8 });
      expect(mine.setpoints[0]).toMatchObject({ solar_limit: 0, grid_limit: -4 });
      const all = (await get('/api/curtailments/setpoints?limit=10&offset=0')).json().data;
      expect(all.total).toBe(3);
      const ids = all.setpoints.map((s: { id: number }) => s.id);
      expect(ids).toContain(c);
      // Newest first; within one second, each VPP's ACTIVE setpoint before the INACTIVE ones.
      const rows = all.setpoints as { created_at: number; status: string }[];
      for (let i = 1; i < rows.length; i++) {
        expect(rows[i - 1].created_at).toBeGreaterThanOrEqual(rows[i].created_at);
        if (rows[i - 1].created_at === rows[i].created_at) expect(rows[i - 1].status === 'ACTIVE' || rows[i].status === 'INACTIVE').toBe(true);
      }
    });

    it('refuses a positive or fractional limit and a bad ramp with the field named', async () => {
      const cases: [object, string][] = [
        [{ meterRealPowerP: 3 }, 'meterRealPowerP must be a whole number of kW from -10000000 to 0 (a limit is 0 or negative).'],
        [{ inverterRealPowerP: -1.5 }, 'inverterRealPowerP must be a whole number of kW'],
        [{ rampDuration: -1 }, 'rampDuration must be a whole number of seconds from 0 to 86400.'],
      ];
      for (const [payload, message] of cases) {
        const res = await post('/api/curtailments/setpoint', { powerstation: vpp, ...payload });
        expect(res.statusCode).toBe(400);
        expect(res.json().data.message).toContain(message);
      }
    });

    it('sends the ACTIVE setpoint as standing limits that replace the previous one and ramp from it', async () => {
      await report(nodes);
      const now = nowS();
      const run = await runCurtailmentEngine(h().ctx, now);
      const active = (await get(`/api/curtailments/setpoints/powerstation/${vpp}`)).json().data.setpoints[0];
      expect(run.setpointsSent).toContain(active.id);
      const cmds = await h().ctx.db.selectFrom('node_commands').select(['params']).where('source', '=', setpointSource(active.id)).execute();
      const specs = cmds.map((c) => JSON.parse(c.params));
      // -4 kW net over four equal nodes; no gross limit below 0 kW means 0 kW of solar.
      expect(specs.filter((s) => s.mode === 'net').map((s) => s.kw)).toEqual([1, 1, 1, 1]);
      expect(specs.every((s) => s.standing === true && s.rampS === 120)).toBe(true);
      // Another setpoint replaces it: the first one's limits end now, the new ones ramp from them.
      const next = (await post('/api/curtailments/setpoint', { powerstation: vpp, meterRealPowerP: -8, inverterRealPowerP: -20 })).json().data.id;
      await runCurtailmentEngine(h().ctx, nowS());
      const ended = await h().ctx.db.selectFrom('node_commands').select(['end_ts', 'status']).where('source', '=', setpointSource(active.id)).execute();
      expect(ended.every((e) => Number(e.end_ts) <= nowS() || e.status === 'CANCELLED')).toBe(true);
      const fresh = (await h().ctx.db.selectFrom('node_commands').select('params').where('source', '=', setpointSource(next)).execute()).map((c) =>
        JSON.parse(c.params),
      );
      expect(fresh.find((s) => s.mode === 'net')).toMatchObject({ kw: 2, rampFromKw: 1 });
      expect(fresh.find((s) => s.mode === 'gross')).toMatchObject({ kw: 5, rampFromKw: 0 });
    });

    it('removes the ACTIVE setpoint: its limits lifted, the VPP without one (the older does not return), and refuses removing an inactive one', async () => {
      const own = [(await node(h(), [org])).id, (await node(h(), [org])).id];
      await report(own);
      const ps = (await post('/api/powerstations', { type: 'STATIC', name: 'Removable', nodes: own })).json().data.id;
      const older = (await post('/api/curtailments/setpoint', { powerstation: ps, meterRealPowerP: -2 })).json().data.id as number;
      const newer = (await post('/api/curtailments/setpoint', { powerstation: ps, meterRealPowerP: -3 })).json().data.id as number;
      await runCurtailmentEngine(h().ctx, nowS());
      const refused = await post(`/api/curtailments/setpoints/${older}/remove`);
      expect(refused.statusCode).toBe(400);
      expect(refused.json().data.message).toBe('Only the active setpoint can be removed: a superseded or removed one holds no limit.');
      expect((await post(`/api/curtailments/setpoints/${newer}/remove`)).json()).toEqual({ status: 'OK' });
      const statuses = (await get(`/api/curtailments/setpoints/powerstation/${ps}?offset=0&limit=10`))
        .json()
        .data.setpoints.map((s: { status: string }) => s.status);
      expect(statuses).toEqual(['INACTIVE', 'INACTIVE']);
      const live = await h()
        .ctx.db.selectFrom('node_commands')
        .select(['end_ts', 'status'])
        .where('source', 'in', [setpointSource(older), setpointSource(newer)])
        .execute();
      expect(live.every((c) => Number(c.end_ts) <= nowS() || c.status === 'CANCELLED')).toBe(true);
      // Nothing is sent again for this VPP until a new setpoint.
      const run = await runCurtailmentEngine(h().ctx, nowS() + 600);
      expect([...run.setpointsSent, ...run.setpointsResplit]).not.toContain(older);
      expect([...run.setpointsSent, ...run.setpointsResplit]).not.toContain(newer);
      const history = JSON.stringify((await get(`/api/nodes/${own[0]}/events?limit=50&offset=0`)).json());
      expect(history).toContain(`Default setpoint ${newer} was removed: its standing limit is lifted.`);
      expect((await post(`/api/curtailments/setpoints/${newer}/remove`)).statusCode).toBe(400);
    });
  });

  it("ends a deleted VPP's setpoint limits, and lists its setpoints no more", async () => {
    const own = [(await node(h(), [org])).id, (await node(h(), [org])).id];
    await report(own);
    const doomed = (await post('/api/powerstations', { type: 'STATIC', name: 'Doomed', nodes: own })).json().data.id;
    const id = (await post('/api/curtailments/setpoint', { powerstation: doomed, meterRealPowerP: -2 })).json().data.id;
    await runCurtailmentEngine(h().ctx, nowS());
    const inForce = () =>
      h()
        .ctx.db.selectFrom('node_commands')
        .select('id')
        .where('source', '=', setpointSource(id))
        .where('end_ts', '>', nowS())
        .where('status', '!=', 'CANCELLED')
        .execute();
    expect((await inForce()).length).toBe(4);
    expect((await h().app.inject({ method: 'DELETE', url: `/api/powerstations/${doomed}`, headers })).statusCode).toBe(200);
    await runCurtailmentEngine(h().ctx, nowS());
    expect(await inForce()).toEqual([]);
    const all = (await get('/api/curtailments/setpoints?limit=200')).json().data.setpoints as { id: number }[];
    expect(all.map((s) => s.id)).not.toContain(id);
  });

  describe('permissions and organisations', () => {
    it('lets a viewer see but not create or cancel; others without the permission see nothing', async () => {
      const id = await create();
      const viewer = await h().bearer((await h().user(org, { permissions: ['fleet.curtailments.any'] })).username);
      for (const url of [
        '/api/curtailments',
        `/api/curtailments/${id}`,
        `/api/curtailments/${id}/response`,
        `/curtailment/${id}/nodes`,
        '/api/curtailments/setpoints',
      ])
        expect((await get(url, viewer)).statusCode, url).toBe(200);
      expect((await post('/api/curtailments', { powerstation: vpp, startTime: start() }, viewer)).statusCode).toBe(403);
      expect((await post(`/api/curtailments/${id}/cancel`, undefined, viewer)).statusCode).toBe(403);
      expect((await post('/api/curtailments/setpoint', { powerstation: vpp }, viewer)).statusCode).toBe(403);
      const standing = (await get(`/api/curtailments/setpoints/powerstation/${vpp}`)).json().data.setpoints[0].id;
      expect((await post(`/api/curtailments/setpoints/${standing}/remove`, undefined, viewer)).statusCode).toBe(403);
      expect((await get(`/api/constraints/curtailments?powerstation=${vpp}`, viewer)).statusCode).toBe(403);
      const dispatcher = await h().bearer((await h().user(org, { permissions: ['fleet.dispatches.any', 'fleet.dispatches.edit'] })).username);
      expect((await get('/api/curtailments', dispatcher)).statusCode).toBe(403);
      expect((await get(`/api/curtailments/setpoints/powerstation/${vpp}`, dispatcher)).statusCode).toBe(403);
      expect((await post(`/api/curtailments/${id}/cancel`, undefined, dispatcher)).statusCode).toBe(403);
      expect((await get(`/api/curtailments/${id}`)).json().data.cancelledAt).toBeNull();
    });

    it("answers 404 for another organisation's curtailment and VPP, and changes nothing", async () => {
      const id = await create();
      const other = await h().org('RETAILER', 'Other Feed-In');
      await node(h(), [other]);
      const theirs = await h().bearer((await h().user(other)).username);
      for (const url of [
        `/api/curtailments/${id}`,
        `/api/curtailments/${id}/response`,
        `/api/curtailments/${id}/prediction`,
        `/curtailment/${id}/nodes`,
        `/api/constraints/curtailments?powerstation=${vpp}`,
        `/curtailment/prediction?powerstation=${vpp}&startTime=${start()}`,
        `/api/curtailments/setpoints/powerstation/${vpp}`,
      ])
        expect((await get(url, theirs)).statusCode, url).toBe(404);
      expect((await post(`/api/curtailments/${id}/cancel`, undefined, theirs)).statusCode).toBe(404);
      expect((await post('/api/curtailments', { powerstation: vpp, startTime: start() }, theirs)).statusCode).toBe(404);
      expect((await post('/api/curtailments/setpoint', { powerstation: vpp }, theirs)).statusCode).toBe(404);
      const standing = (await get(`/api/curtailments/setpoints/powerstation/${vpp}`)).json().data.setpoints[0];
      expect((await post(`/api/curtailments/setpoints/${standing.id}/remove`, undefined, theirs)).statusCode).toBe(404);
      expect((await get(`/api/curtailments/setpoints/powerstation/${vpp}`)).json().data.setpoints[0].status).toBe(standing.status);
      expect((await get('/api/curtailments', theirs)).json().data).toEqual({ curtailments: [], total: 0 });
      expect((await get('/api/curtailments/setpoints', theirs)).json().data).toEqual({ setpoints: [], total: 0 });
      expect((await get(`/api/curtailments/${id}`)).json().data.cancelledAt).toBeNull();
    });
  });
});
