import type { AddressInfo } from 'node:net';
import { OPENADR_BASE_PATH, openadrOverviewReply, report } from '@vpp/shared/openadr/schemas';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { setClock } from '../../db/database.ts';
import { toControl } from '../../devices/index.ts';
import { createWorker, type Worker } from '../../platform/jobs.ts';
import { node } from '../../test/factories.ts';
import { describeEachDatabase, PASSWORD } from '../../test/harness.ts';
import { type Headers, serverProcess, waitFor } from '../../test/server-process.ts';
import { runCurtailmentEngine } from '../curtailments/index.ts';
import { venSyncJob } from './openadr.jobs.ts';
import { syncWithVtn } from './openadr.ven.service.ts';

// Issue 31 item 4: the console as a VEN of a network's VTN. The network's VTN is a second console
// process (a small demo, its network organisation's curtailments published as EXPORT_CAPACITY_LIMIT
// events); the console under test (on SQLite, and on PostgreSQL with TEST_DATABASE_URL) registers,
// subscribes, turns the limit into a curtailment of its VPP covering the event's postcode, reports its
// measured response back, and cancels the curtailment when the network cancels its own. The second
// test does the same with an IMPORT_CAPACITY_LIMIT: it becomes an import curtailment whose orders
// (opModImpLimW) go to the VPP's homes with a battery only.

const B = OPENADR_BASE_PATH;
const b64 = (s: string) => encodeURIComponent(Buffer.from(s, 'utf8').toString('base64'));
const vtn = serverProcess('sqlite', 'openadr-vtn', {
  SIM_NODES: '40',
  SIM_HISTORY_DAYS: '0',
  SIM_DEMO_DISPATCHES: 'false',
  MQTT_PORT: '0',
  OPENADR_CALLBACK_ALLOW: '127.0.0.1',
});
let url = '';
let network: Headers = {};
/** A postcode with curtailable nodes in the network's fleet. */
let postcode = '';

beforeAll(async () => {
  url = (await vtn.start()).url;
  network = await vtn.signIn(url, 'network');
  const [row] = await vtn.query<{ postcode: string }>(
    `select n.postcode from nodes n join fleet_members fm on fm.node_id = n.id join organisations o on o.id = fm.organisation_id
     where o.name = 'Coastal Grid Networks' and n.unit_state = 'COMMISSIONED' and n.solar_kw > 0 and n.inverter_kw > 0
     group by n.postcode order by count(*) desc, n.postcode limit 1`,
  );
  postcode = row.postcode;
}, 300_000);
afterAll(() => vtn.cleanup());

/** A call to the network's console as its administrator: the JSON's data. */
async function onVtn<T>(method: 'GET' | 'POST' | 'PUT', path: string, body?: object): Promise<T> {
  const res = await fetch(`${url}${path}`, { method, headers: network, body: body ? JSON.stringify(body) : undefined });
  const text = await res.text();
  expect(res.status, `${path}: ${text}`).toBe(200);
  return (JSON.parse(text) as { data: T }).data;
}

describeEachDatabase('the console as a VEN of a network VTN', (h) => {
  let worker: Worker | undefined;
  afterAll(async () => {
    await worker?.stop();
    setClock(1, 0);
  });

  it('registers and subscribes, makes a curtailment of a capacity limit, reports its response and cancels it with the VTN', async () => {
    const dialect = h().dialect;
    const venName = `retailer-${dialect}`;
    // The network's side: an OpenADR client (an API key with scopes) and a VPP of the postcode.
    const key = await onVtn<{ keyId: number; key: string }>('POST', `/account/api-keys?password=${b64(PASSWORD)}`, {
      keyName: `VEN ${dialect}`,
      openadrScopes: ['read_all', 'write_reports', 'write_subscriptions', 'write_vens'],
    });
    const feeder = (
      await onVtn<{ id: number }>('POST', '/api/powerstations', { type: 'DYNAMIC', name: `Feeder ${dialect}`, filters: { postcodes: [postcode], state: null } })
    ).id;

    // The console's side: a VPP with a node at that postcode, and one elsewhere.
    const org = await h().org('RETAILER', `Retailer ${dialect}`);
    const admin = await h().user(org, { permissions: ['fleet.administrator', 'fleet.curtailments.any', 'fleet.powerstations.view'] });
    const auth = await h().bearer(admin.username);
    const there = await node(h(), [org], { postcode });
    const elsewhere = await node(h(), [org], { postcode: postcode === '0800' ? '0810' : '0800', state: 'NT' });
    const vpp = async (name: string, id: number) =>
      (await h().app.inject({ method: 'POST', url: '/api/powerstations', headers: auth, payload: { type: 'STATIC', name, nodes: [id] } })).json().data
        .id as number;
    await vpp('Inner West', there.id);
    await vpp('Top End', elsewhere.id);

    // The console listens, so that the VTN can notify it; its settings name the VTN and the client.
    await h().app.listen({ port: 0, host: '127.0.0.1' });
    const self = `http://127.0.0.1:${(h().app.server.address() as AddressInfo).port}`;
    const config = h().ctx.config;
    config.PUBLIC_URL = self;
    config.publicUrl = self;
    config.openadrVtn = { url: `${url}${B}`, clientId: String(key.keyId), clientSecret: key.key, organisation: `Retailer ${dialect}`, venName, pollS: 60 };

    // A notification without the token the console gave its subscriptions wakes nothing.
    const forged = await h().app.inject({ method: 'POST', url: '/openadr/ven/notifications', headers: { authorization: 'Bearer forged' }, payload: {} });
    expect(forged.statusCode).toBe(401);
    expect(forged.json().detail).toBe('The bearer token is not the one this console gave its subscriptions.');

    // The first poll registers the VEN; the network's administrator puts it in the feeder's VPP.
    await syncWithVtn(h().ctx);
    const overview = async () => openadrOverviewReply.parse((await h().app.inject({ method: 'GET', url: '/openadr/overview', headers: auth })).json()).data.ven;
    const registered = await overview();
    expect(registered).toMatchObject({ vtnUrl: `${url}${B}`, venName, subscribed: true, lastError: null, events: [] });
    const venId = Number(registered?.venID?.replace('ven-', ''));
    await onVtn('PUT', `/openadr/vens/${venId}/vpps`, { vppIds: [feeder] });
    // The next poll subscribes to the feeder's program, which the VEN now sees.
    await syncWithVtn(h().ctx);
    worker = createWorker(h().ctx, [venSyncJob], { pollMs: 200 });
    worker.start();

    // The network limits the feeder's export to 1.5 kW from the next 5 minutes, for half an hour.
    const now = Math.floor(Date.now() / 1000);
    const start = now - (now % 300) + 300;
    const limited = (
      await onVtn<{ id: number }>('POST', '/api/curtailments', { powerstation: feeder, startTime: start, duration: 1800, realPowerP: -1.5, component: 'grid' })
    ).id;

    // Its VTN notifies the console, whose poll makes the curtailment of the VPP covering the postcode.
    type Listed = {
      id: number;
      triggered: boolean;
      reason: string | null;
      powerstation: { name: string } | null;
      cancelledAt: number | null;
      request: Record<string, number>;
    };
    const curtailments = async () =>
      (await h().app.inject({ method: 'GET', url: '/api/curtailments?limit=50&offset=0', headers: auth })).json().data.curtailments as Listed[];
    const made = await waitFor('the curtailment made of the VTN event', async () => (await curtailments())[0], 120_000);
    const host = new URL(url).host;
    expect(made).toMatchObject({
      triggered: true,
      reason: `Export limit on Feeder ${dialect} (OpenADR event-${limited} from ${host})`,
      powerstation: { name: 'Inner West' },
      cancelledAt: null,
      request: { startTime: start, duration: 1800, realPowerP: -1.5, deploymentsRequested: 1 },
    });
    expect(await curtailments()).toHaveLength(1);
    const seen = await overview();
    expect(seen?.events).toEqual([
      expect.objectContaining({
        eventID: `event-${limited}`,
        payloadType: 'EXPORT_CAPACITY_LIMIT',
        status: 'APPLIED',
        curtailmentIds: [made.id],
        detail: null,
      }),
    ]);

    // Ten minutes on (the console's clock moved on), its node's meter measured: the report goes back.
    await h().ctx.telemetry.ingest([
      { nodeId: there.id, ts: start, dt: 300, meter_p: -1.4, solar_p: 3 },
      { nodeId: there.id, ts: start + 300, dt: 300, meter_p: -1.2, solar_p: 3 },
    ]);
    const t0 = Date.now() / 1000;
    setClock(2, t0 - (start + 605 - t0));
    await worker.stop();
    await syncWithVtn(h().ctx);
    setClock(1, 0);
    const token = (await (
      await fetch(`${url}${B}/auth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'client_credentials', client_id: String(key.keyId), client_secret: key.key }).toString(),
      })
    ).json()) as { access_token: string };
    const reports = (await (
      await fetch(`${url}${B}/reports?eventID=event-${limited}`, { headers: { authorization: `Bearer ${token.access_token}` } })
    ).json()) as unknown[];
    const mine = reports.map((r) => report.parse(r)).filter((r) => r.clientName === venName);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({
      programID: `vpp-${feeder}`,
      reportName: 'Curtailment response, 0 of 1 nodes accepted the limit',
      payloadDescriptors: [{ payloadType: 'DEMAND', readingType: 'DIRECT_READ', units: 'KW' }],
      resources: [
        {
          resourceName: 'Inner West',
          intervals: [
            {
              id: 0,
              intervalPeriod: { start: new Date(start * 1000).toISOString().replace('.000Z', 'Z'), duration: 'PT5M' },
              payloads: [{ type: 'DEMAND', values: [-1.4] }],
            },
            {
              id: 1,
              intervalPeriod: { start: new Date((start + 300) * 1000).toISOString().replace('.000Z', 'Z'), duration: 'PT5M' },
              payloads: [{ type: 'DEMAND', values: [-1.2] }],
            },
          ],
        },
      ],
    });

    // The network cancels its curtailment: the VTN deletes the event and the console cancels its own.
    worker = createWorker(h().ctx, [venSyncJob], { pollMs: 200 });
    worker.start();
    await onVtn('POST', `/api/curtailments/${limited}/cancel`, {});
    const cancelled = await waitFor(
      'the curtailment cancelled with the VTN event',
      async () => (await curtailments()).find((c) => c.cancelledAt !== null),
      120_000,
    );
    expect(cancelled.id).toBe(made.id);
    expect((await overview())?.events[0]).toMatchObject({ eventID: `event-${limited}`, status: 'DELETED' });
  }, 300_000);

  it("makes an import curtailment of an IMPORT_CAPACITY_LIMIT, orders only the VPP's batteries, and cancels it with the VTN", async () => {
    // The first test's poller is stopped: each poll below is this test's own.
    await worker?.stop();
    worker = undefined;
    const dialect = h().dialect;
    const venName = `importer-${dialect}`;
    const key = await onVtn<{ keyId: number; key: string }>('POST', `/account/api-keys?password=${b64(PASSWORD)}`, {
      keyName: `Importer ${dialect}`,
      openadrScopes: ['read_all', 'write_reports', 'write_subscriptions', 'write_vens'],
    });
    const feeder = (
      await onVtn<{ id: number }>('POST', '/api/powerstations', {
        type: 'DYNAMIC',
        name: `Import feeder ${dialect}`,
        filters: { postcodes: [postcode], state: null },
      })
    ).id;

    // The console's side: a VPP at that postcode of a home with a battery and one without.
    const org = await h().org('RETAILER', `Importer ${dialect}`);
    const admin = await h().user(org, { permissions: ['fleet.administrator', 'fleet.curtailments.any', 'fleet.powerstations.view'] });
    const auth = await h().bearer(admin.username);
    const battery = await node(h(), [org], { postcode });
    const bare = await node(h(), [org], { postcode, batteryKwh: 0 });
    const vpp = await h().app.inject({
      method: 'POST',
      url: '/api/powerstations',
      headers: auth,
      payload: { type: 'STATIC', name: 'Hills', nodes: [battery.id, bare.id] },
    });
    expect(vpp.statusCode, vpp.body).toBe(200);
    const now = Math.floor(Date.now() / 1000);
    await h().ctx.telemetry.ingest([battery.id, bare.id].map((nodeId) => ({ nodeId, ts: now - (now % 30) - 30, dt: 30, meter_p: 1 })));
    // This console is now another organisation's VEN of the same VTN: it starts afresh (a console is one VEN per VTN).
    await h().ctx.db.deleteFrom('oadr_vtn_events').where('vtn_url', '=', `${url}${B}`).execute();
    await h().ctx.db.deleteFrom('oadr_vtn_state').where('vtn_url', '=', `${url}${B}`).execute();
    const config = h().ctx.config;
    config.openadrVtn = { url: `${url}${B}`, clientId: String(key.keyId), clientSecret: key.key, organisation: `Importer ${dialect}`, venName, pollS: 60 };
    await syncWithVtn(h().ctx);
    const venId = Number(
      openadrOverviewReply
        .parse((await h().app.inject({ method: 'GET', url: '/openadr/overview', headers: auth })).json())
        .data.ven?.venID?.replace('ven-', ''),
    );
    await onVtn('PUT', `/openadr/vens/${venId}/vpps`, { vppIds: [feeder] });

    // The network's console holds an import limit of 2 kW on its feeder (made, as on this console, by
    // its own VEN from its transmission network's VTN: written here as that VEN writes it), and
    // publishes it as an IMPORT_CAPACITY_LIMIT event.
    const start = now - (now % 300) + 300;
    const [event] = await vtn.query<{ id: number }>(
      `insert into events (organisation_id, powerstation_id, type, start_time, duration, created_at)
       select id, ${feeder}, 'CURTAILMENT', ${start}, 1800, ${now} from organisations where name = 'Coastal Grid Networks' returning id`,
    );
    await vtn.query(
      `insert into curtailments (event_id, component, real_power_p, triggered, reason, created_by) values (${event.id}, 'import', 2, 1, 'Transmission import limit', null) returning event_id`,
    );
    await syncWithVtn(h().ctx);
    const listed = (await h().app.inject({ method: 'GET', url: '/api/curtailments?limit=50&offset=0', headers: auth })).json().data.curtailments as {
      id: number;
      component: string;
      reason: string;
      cancelledAt: number | null;
      request: Record<string, number>;
    }[];
    expect(listed).toHaveLength(1);
    const made = listed[0];
    expect(made).toMatchObject({
      component: 'import',
      reason: `Import limit on Import feeder ${dialect} (OpenADR event-${event.id} from ${new URL(url).host})`,
      cancelledAt: null,
      request: { startTime: start, duration: 1800, realPowerP: 2, deploymentsRequested: 1 },
    });
    const ven = openadrOverviewReply.parse((await h().app.inject({ method: 'GET', url: '/openadr/overview', headers: auth })).json()).data.ven;
    expect(ven?.events).toEqual([
      expect.objectContaining({
        eventID: `event-${event.id}`,
        payloadType: 'IMPORT_CAPACITY_LIMIT',
        status: 'APPLIED',
        curtailmentIds: [made.id],
        detail: null,
      }),
    ]);

    // The engine orders the home with a battery only: the whole 2 kW, as CSIP-AUS opModImpLimW.
    expect((await runCurtailmentEngine(h().ctx)).sent).toContain(made.id);
    const orders = await h()
      .ctx.db.selectFrom('node_commands')
      .select(['node_id', 'params', 'status'])
      .where('source', '=', `curtailment:${made.id}`)
      .execute();
    expect(orders.map((o) => [o.node_id, toControl(JSON.parse(o.params))])).toEqual([[battery.id, { type: 'opModImpLimW', w: 2000 }]]);

    // The network cancels it: the VTN deletes the event and the console cancels its own, with its order.
    const cancel = await fetch(`${url}/api/curtailments/${event.id}/cancel`, { method: 'POST', headers: network, body: '{}' });
    expect(cancel.status).toBe(200);
    await syncWithVtn(h().ctx);
    const after = (await h().app.inject({ method: 'GET', url: `/api/curtailments/${made.id}`, headers: auth })).json().data;
    expect(after.cancelledAt).not.toBeNull();
    const withdrawn = await h().ctx.db.selectFrom('node_commands').select('status').where('source', '=', `curtailment:${made.id}`).execute();
    expect(withdrawn.map((o) => o.status)).toEqual(['CANCELLED']);
  }, 300_000);
});
