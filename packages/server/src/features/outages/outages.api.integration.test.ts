import { defaultOutageMessage, OUTAGE_MESSAGES } from '@vpp/shared/outages/messages';
import { beforeAll, describe, expect, it } from 'vitest';
import { nowS } from '../../db/database.ts';
import { atTime, commandsLeft } from '../../test/events.ts';
import { homesVpp, node } from '../../test/factories.ts';
import { describeEachDatabase } from '../../test/harness.ts';
import { runOutageEngine, simulatedOptOut } from './outages.orders.service.ts';
import { outageSource } from './outages.orders.ts';

describeEachDatabase('grid outages', (h) => {
  let org: number;
  let headers: { authorization: string };
  let vpp: number;
  let nodes: number[];
  const start = () => Math.floor(nowS() / 300) * 300 + 4 * 3600;

  const post = (url: string, payload?: object, hdrs: Record<string, string> = headers) =>
    h().app.inject({ method: 'POST', url, headers: hdrs, ...(payload ? { payload } : {}) });
  const get = (url: string, hdrs: Record<string, string> = headers) => h().app.inject({ method: 'GET', url, headers: hdrs });
  /** A VPP of the same nodes: a VPP holds one outage at a time, so each test's outage gets its own. */
  const coast = async () => (await post('/api/powerstations', { type: 'STATIC', name: 'Coast', nodes })).json().data.id as number;
  const create = async (payload: object = {}) => {
    const res = await post('/grid-outage', { powerstation: await coast(), startTime: start(), ...payload });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.id as number;
  };
  const tokenOf = async (nodeId: number) => (await post(`/api/nodes/${nodeId}/customer-app-token`)).json().data.token as string;

  beforeAll(async () => {
    org = await h().org('RETAILER', 'Stormwatch Energy');
    headers = await h().bearer((await h().user(org)).username);
    // One node not commissioned: an outage does not prepare it.
    ({ vpp, nodes } = await homesVpp(h(), org, headers, 'Coast', 6));
  });

  it('creates an outage with the defaults: 2 hours, STORM, titled Storm Approaching, the message naming the organisation', async () => {
    const id = await create();
    const d = (await get(`/grid-outage/${id}`)).json().data;
    expect(d).toMatchObject({
      id,
      request: { startTime: start(), duration: 7200 },
      reason: 'Storm Approaching',
      outageReason: 'STORM',
      powerstation: { name: 'Coast' },
      state: 'UPCOMING',
      cancelledAt: null,
      customerMessage: defaultOutageMessage('STORM', 'Stormwatch Energy'),
    });
    expect(d.customerMessage).toContain('Stormwatch Energy');
    expect(d.createdBy).not.toBe('Unknown');
    const r = (await get(`/grid-outage/${id}/response`)).json().data;
    expect(r).toEqual({ responded: 0, total_deployments: nodes.length, total_cancelled_deployments: 0, cancelled_deployments: [] });
  });

  it('refuses an outage overlapping another of the same VPP, saying which, and creates nothing; one that follows it is taken', async () => {
    const first = (await post('/grid-outage', { powerstation: vpp, startTime: start() })).json().data.id as number;
    const count = async () => (await h().ctx.db.selectFrom('events').select('id').where('powerstation_id', '=', vpp).execute()).length;
    const before = await count();
    for (const at of [start() - 1800, start() + 3600, start() + 7200 - 300]) {
      const res = await post('/grid-outage', { powerstation: vpp, startTime: at, duration: 3600 });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().data.message).toBe(
        `This Virtual Power Plant already has grid outage ${first} at that time: cancel it, or choose a time after it ends.`,
      );
    }
    expect(await count()).toBe(before);
    // Back to back is no overlap; a cancelled outage holds no time.
    expect((await post('/grid-outage', { powerstation: vpp, startTime: start() + 7200 })).statusCode).toBe(200);
    expect((await post(`/dispatch/${first}/cancel`)).statusCode).toBe(200);
    expect((await post('/grid-outage', { powerstation: vpp, startTime: start() - 3600, duration: 3600 })).statusCode).toBe(200);
  });

  it('keeps a planned outage with its own title and message, and lists outages by start then duration, descending', async () => {
    const a = await create({ outageReason: 'PLANNED', duration: 3600, customerMessage: 'Works on the feeder.' });
    const b = await create({ outageReason: 'PLANNED', duration: 10800, messageTitle: 'Feeder works' });
    const c = await create({ startTime: start() + 3600 });
    const detail = (await get(`/grid-outage/${a}`)).json().data;
    expect(detail).toMatchObject({ reason: 'Planned Outage', outageReason: 'PLANNED', customerMessage: 'Works on the feeder.' });
    expect((await get(`/grid-outage/${b}`)).json().data.reason).toBe('Feeder works');
    const list = (await get('/grid-outages?contract_type=GRID_OUTAGE')).json().data.outages as {
      id: number;
      request: { startTime: number; duration: number };
    }[];
    const ids = list.map((o) => o.id);
    expect(ids.indexOf(c)).toBeLessThan(ids.indexOf(b));
    expect(ids.indexOf(b)).toBeLessThan(ids.indexOf(a));
    for (let i = 1; i < list.length; i++) {
      const [p, q] = [list[i - 1].request, list[i].request];
      expect(p.startTime > q.startTime || (p.startTime === q.startTime && p.duration >= q.duration)).toBe(true);
    }
  });

  it('answers 400 with the field for a bad body', async () => {
    const cases: [object, string][] = [
      [{ outageReason: 'FLOOD' }, 'outageReason'],
      [{ duration: 60 }, 'duration'],
      [{ startTime: 'soon' }, 'startTime'],
      [{ startTime: start() + 7 }, '5-minute'],
      [{ startTime: start() - 86400 }, 'past'],
    ];
    for (const [body, text] of cases) {
      const res = await post('/grid-outage', { powerstation: vpp, startTime: start(), ...body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().data.message).toContain(text);
    }
    expect((await post('/grid-outage', { startTime: start() })).statusCode).toBe(400);
  });

  it('refuses an outage on an FCAS VPP with 400, saying why, and creates nothing', async () => {
    const { db } = h().ctx;
    const fcas = (
      await db
        .insertInto('powerstations')
        .values({ organisation_id: org, name: 'Frequency', type: 'FCAS', state: null, duid: 'FCAS01', created_at: nowS(), updated_at: nowS() })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    const res = await post('/grid-outage', { powerstation: fcas, startTime: start() });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().data.message).toBe('An FCAS Virtual Power Plant cannot prepare for a grid outage: choose a manual or automatic one.');
    expect(await db.selectFrom('events').select('id').where('powerstation_id', '=', fcas).execute()).toEqual([]);
  });

  describe('opt-outs', () => {
    it('records an opt-out from the customer app (node token), gives the node no order, and lists it', async () => {
      const id = await create();
      const token = await tokenOf(nodes[0]);
      const res = await post(`/customer-app/events/${id}/opt-out`, undefined, { authorization: `Bearer ${token}` });
      expect(res.statusCode, res.body).toBe(200);
      const at = res.json().data.optedOutAt;
      expect(Math.abs(at - nowS())).toBeLessThan(5);
      // Twice is the same opt-out.
      expect((await post(`/customer-app/events/${id}/opt-out`, undefined, { authorization: `Bearer ${token}` })).json().data.optedOutAt).toBe(at);
      expect(await runOutageEngine(h().ctx, nowS())).toContain(id);
      const ordered = await h().ctx.db.selectFrom('node_commands').select('node_id').distinct().where('source', '=', outageSource(id)).execute();
      const orderedIds = ordered.map((o) => o.node_id);
      expect(orderedIds).not.toContain(nodes[0]);
      const simulated = nodes.filter((n) => n !== nodes[0] && simulatedOptOut(n, id));
      expect(orderedIds.sort()).toEqual(nodes.filter((n) => n !== nodes[0] && !simulated.includes(n)).sort());
      const nmi = (await h().ctx.db.selectFrom('nodes').select('nmi').where('id', '=', nodes[0]).executeTakeFirstOrThrow()).nmi;
      const r = (await get(`/grid-outage/${id}/response`)).json().data;
      expect(r.total_deployments).toBe(nodes.length);
      expect(r.total_cancelled_deployments).toBe(1 + simulated.length);
      expect(r.cancelled_deployments).toContainEqual({ nmi, deployment_uid: nodes[0], cancelled_at: at });
    });

    it('withdraws the orders of a node that opts out after they were sent', async () => {
      const id = await create();
      await runOutageEngine(h().ctx, nowS());
      const target = nodes.find((n) => !simulatedOptOut(n, id)) as number;
      const statuses = async () =>
        (await h().ctx.db.selectFrom('node_commands').select('status').where('source', '=', outageSource(id)).where('node_id', '=', target).execute()).map(
          (c) => c.status,
        );
      expect(await statuses()).toEqual(['PENDING', 'PENDING']);
      const res = await post(`/customer-app/events/${id}/opt-out`, undefined, { authorization: `Bearer ${await tokenOf(target)}` });
      expect(res.statusCode).toBe(200);
      expect(await statuses()).toEqual(['CANCELLED', 'CANCELLED']);
    });

    it('refuses a missing or unknown token (401), an event that does not prepare the node (404), and an ended or cancelled one (409)', async () => {
      const id = await create();
      expect((await post(`/customer-app/events/${id}/opt-out`, undefined, {})).statusCode).toBe(401);
      expect((await post(`/customer-app/events/${id}/opt-out`, undefined, { authorization: 'Bearer nat_nothing' })).statusCode).toBe(401);
      // A console session is not a node token.
      expect((await post(`/customer-app/events/${id}/opt-out`, undefined, headers)).statusCode).toBe(401);
      const otherOrg = await h().org('RETAILER', 'Elsewhere');
      const otherHeaders = await h().bearer((await h().user(otherOrg)).username);
      const stranger = (await node(h(), [otherOrg])).id;
      const strangerToken = (await post(`/api/nodes/${stranger}/customer-app-token`, undefined, otherHeaders)).json().data.token;
      expect((await post(`/customer-app/events/${id}/opt-out`, undefined, { authorization: `Bearer ${strangerToken}` })).statusCode).toBe(404);
      // A new token replaces the old one.
      const old = await tokenOf(nodes[1]);
      const fresh = await tokenOf(nodes[1]);
      expect((await post(`/customer-app/events/${id}/opt-out`, undefined, { authorization: `Bearer ${old}` })).statusCode).toBe(401);
      expect((await post(`/dispatch/${id}/cancel`)).statusCode).toBe(200);
      const late = await post(`/customer-app/events/${id}/opt-out`, undefined, { authorization: `Bearer ${fresh}` });
      expect(late.statusCode).toBe(409);
      expect(late.json().data.message).toBe(OUTAGE_MESSAGES.optOutClosed);
      // Only hashes are stored.
      const stored = await h().ctx.db.selectFrom('node_app_tokens').select('token_hash').where('node_id', '=', nodes[1]).executeTakeFirstOrThrow();
      expect(stored.token_hash).not.toContain(fresh);
    });
  });

  describe('cancel through POST /dispatch/{id}/cancel', () => {
    it('cancels an upcoming outage, withdrawing its orders, and refuses a second cancel with 409', async () => {
      const id = await create();
      await runOutageEngine(h().ctx, nowS());
      expect((await post(`/dispatch/${id}/cancel`)).statusCode).toBe(200);
      const d = (await get(`/grid-outage/${id}`)).json().data;
      expect(d.cancelledAt).not.toBeNull();
      expect(await commandsLeft(h(), outageSource(id))).toEqual([]);
      const again = await post(`/dispatch/${id}/cancel`);
      expect(again.statusCode).toBe(409);
      expect(again.json().data.message).toBe(OUTAGE_MESSAGES.notCancellable);
    });

    it('cancels an in-progress outage, and refuses a completed one with 409', async () => {
      const running = await create();
      const done = await create({ duration: 300 });
      await atTime(start() + 600, async () => {
        const hdrs = await h().bearer((await h().user(org)).username);
        expect((await get(`/grid-outage/${running}`, hdrs)).json().data.state).toBe('INPROGRESS');
        expect((await get(`/grid-outage/${done}`, hdrs)).json().data.state).toBe('COMPLETED');
        expect((await post(`/dispatch/${done}/cancel`, undefined, hdrs)).statusCode).toBe(409);
        expect((await post(`/dispatch/${running}/cancel`, undefined, hdrs)).statusCode).toBe(200);
      });
    });
  });

  describe('permissions and organisations', () => {
    it('lets a viewer see but not create or cancel; a dispatcher without the outage permission cannot cancel an outage', async () => {
      const id = await create();
      const viewer = await h().bearer((await h().user(org, { permissions: ['fleet.powerstations.gridOutages.any'] })).username);
      expect((await get('/grid-outages', viewer)).statusCode).toBe(200);
      expect((await get(`/grid-outage/${id}`, viewer)).statusCode).toBe(200);
      expect((await get(`/grid-outage/${id}/response`, viewer)).statusCode).toBe(200);
      expect((await post('/grid-outage', { powerstation: vpp, startTime: start() }, viewer)).statusCode).toBe(403);
      expect((await post(`/dispatch/${id}/cancel`, undefined, viewer)).statusCode).toBe(403);
      expect((await post(`/api/nodes/${nodes[0]}/customer-app-token`, undefined, viewer)).statusCode).toBe(403);
      const dispatcher = await h().bearer((await h().user(org, { permissions: ['fleet.dispatches.any', 'fleet.dispatches.edit'] })).username);
      expect((await get('/grid-outages', dispatcher)).statusCode).toBe(403);
      expect((await post(`/dispatch/${id}/cancel`, undefined, dispatcher)).statusCode).toBe(403);
      expect((await get(`/grid-outage/${id}`)).json().data.cancelledAt).toBeNull();
    });

    it("answers 404 for another organisation's outage and VPP, and changes nothing", async () => {
      const id = await create();
      const other = await h().org('RETAILER', 'Other Energy');
      await node(h(), [other]);
      const theirs = await h().bearer((await h().user(other)).username);
      expect((await get(`/grid-outage/${id}`, theirs)).statusCode).toBe(404);
      expect((await get(`/grid-outage/${id}/response`, theirs)).statusCode).toBe(404);
      expect((await post(`/dispatch/${id}/cancel`, undefined, theirs)).statusCode).toBe(404);
      expect((await post('/grid-outage', { powerstation: vpp, startTime: start() }, theirs)).statusCode).toBe(404);
      expect((await get('/grid-outages', theirs)).json().data.outages).toEqual([]);
      expect((await get(`/grid-outage/${id}`)).json().data.cancelledAt).toBeNull();
    });
  });
});
