import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  OPENADR_BASE_PATH,
  oadrEvent,
  oadrNotification,
  oadrTokenReply,
  problem,
  program,
  report,
  resource,
  subscription,
  ven,
} from '@vpp/shared/openadr/schemas';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { z } from 'zod';
import { createWorker, enqueue } from '../../platform/jobs.ts';
import { node } from '../../test/factories.ts';
import { describeEachDatabase, type Harness, PASSWORD } from '../../test/harness.ts';
import { withinOneDay } from '../../test/local-day.ts';
import { settleDispatch } from '../dispatches/index.ts';
import { deliverNotificationJob, scanChangesJob } from './openadr.jobs.ts';
import { scanChanges } from './openadr.service.ts';
import { postCallback, publicAddress } from './openadr.webhooks.service.ts';

const B = OPENADR_BASE_PATH;
const b64 = (s: string) => encodeURIComponent(Buffer.from(s, 'utf8').toString('base64'));

/** A local webhook receiver: what it was sent, with the authorization header. */
const received: { auth: string | undefined; body: unknown; path?: string }[] = [];
const receiver = http.createServer((req, res) => {
  let body = '';
  req.on('data', (c) => {
    body += c;
  });
  req.on('end', () => {
    received.push({ auth: req.headers.authorization, body: JSON.parse(body), path: req.url });
    // A callback at /fail answers 500 (a VEN that is down).
    res.writeHead(req.url === '/fail' ? 500 : 200).end('ok');
  });
});
let callbackUrl = '';
beforeAll(async () => {
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  callbackUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/callback`;
});
afterAll(() => new Promise<void>((r) => receiver.close(() => r())));

/** Checks a reply against a schema written from the OpenADR 3.0.1 document, naming what differs. */
function valid<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const r = schema.safeParse(body);
  if (!r.success) throw new Error(`${JSON.stringify(body).slice(0, 400)}\n${r.error.message}`);
  return r.data;
}

async function setup(h: Harness, opts: { scopes?: string[] } = {}) {
  const org = await h.org();
  const admin = await h.user(org, { permissions: ['fleet.administrator'] });
  const auth = await h.bearer(admin.username);
  const n = await node(h, [org]);
  const vpp = (
    await h.app.inject({ method: 'POST', url: '/api/powerstations', headers: auth, payload: { type: 'STATIC', name: `VPP ${org}`, nodes: [n.id] } })
  ).json().data.id as number;
  const key = async (scopes = opts.scopes ?? ['read_all', 'write_reports', 'write_subscriptions', 'write_vens']) => {
    const res = await h.app.inject({
      method: 'POST',
      url: `/account/api-keys?password=${b64(PASSWORD)}`,
      headers: auth,
      payload: { keyName: 'VEN key', openadrScopes: scopes },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as { keyId: number; key: string };
  };
  const token = async (k: { keyId: number; key: string }, scope?: string) => {
    const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: String(k.keyId), client_secret: k.key, ...(scope ? { scope } : {}) });
    const res = await h.app.inject({
      method: 'POST',
      url: `${B}/auth/token`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: form.toString(),
    });
    expect(res.statusCode, res.body).toBe(200);
    return { authorization: `Bearer ${valid(oadrTokenReply, res.json()).access_token}` };
  };
  const dispatch = async (offsetH = 2) => {
    const now = Math.floor(Date.now() / 1000);
    await h.ctx.telemetry.ingest([{ nodeId: n.id, ts: now - (now % 30) - 30, dt: 30, remaining: 10, soc: null }]);
    const res = await h.app.inject({
      method: 'POST',
      url: '/dispatch',
      headers: auth,
      payload: { powerstation: vpp, startTime: now - (now % 3600) + offsetH * 3600, duration: 1800, realPowerP: -1, customerMessage: 'Evening peak' },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.id as number;
  };
  return { org, admin, auth, node: n, vpp, key, token, dispatch };
}

const get = (h: Harness, url: string, headers: Record<string, string>) => h.app.inject({ method: 'GET', url: `${B}${url}`, headers });
const send = (h: Harness, method: 'POST' | 'PUT' | 'DELETE', url: string, headers: Record<string, string>, payload?: unknown) =>
  h.app.inject({ method, url: `${B}${url}`, headers, payload: payload as object });

function isProblem(res: { statusCode: number; headers: Record<string, unknown>; json(): unknown }, status: number) {
  expect(res.statusCode).toBe(status);
  expect(String(res.headers['content-type'])).toContain('application/problem+json');
  return valid(problem.required({ status: true, detail: true }), res.json());
}

describeEachDatabase(
  'OpenADR 3.0.1 VTN',
  (h) => {
    it('issues tokens for API keys with OpenADR scopes, and refuses bad clients, grants, scopes and tokens', async () => {
      const s = await setup(h());
      const k = await s.key(['read_all', 'write_reports']);
      const t = await s.token(k);
      expect((await get(h(), '/programs', t)).statusCode).toBe(200);
      const tok = (form: Record<string, string>) =>
        h().app.inject({
          method: 'POST',
          url: `${B}/auth/token`,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload: new URLSearchParams(form).toString(),
        });
      for (const [form, status, error] of [
        [{ grant_type: 'client_credentials', client_id: String(k.keyId), client_secret: 'vppk_wrong' }, 401, 'invalid_client'],
        [{ grant_type: 'client_credentials', client_id: String(k.keyId + 1000), client_secret: k.key }, 401, 'invalid_client'],
        [{ grant_type: 'password', client_id: String(k.keyId), client_secret: k.key }, 400, 'unsupported_grant_type'],
        [{ client_id: String(k.keyId), client_secret: k.key }, 400, 'invalid_request'],
        [{ grant_type: 'client_credentials', client_id: String(k.keyId), client_secret: k.key, scope: 'write_vens' }, 400, 'invalid_scope'],
      ] as const) {
        const res = await tok(form);
        expect(res.statusCode, JSON.stringify(form)).toBe(status);
        expect(res.json().error).toBe(error);
      }
      // A key without OpenADR scopes is no client; only an administrator gives them.
      const plain = (
        await h().app.inject({ method: 'POST', url: `/account/api-keys?password=${b64(PASSWORD)}`, headers: s.auth, payload: { keyName: 'plain' } })
      ).json().data;
      expect((await tok({ grant_type: 'client_credentials', client_id: String(plain.keyId), client_secret: plain.key })).json().error).toBe(
        'unauthorized_client',
      );
      const viewer = await h().user(s.org, { permissions: ['fleet.powerstations.view'] });
      const refused = await h().app.inject({
        method: 'POST',
        url: `/account/api-keys?password=${b64(PASSWORD)}`,
        headers: await h().bearer(viewer.username),
        payload: { keyName: 'k', openadrScopes: ['read_all'] },
      });
      expect(refused.statusCode).toBe(403);
      expect(refused.json().data.message).toBe('Only an administrator can give a key OpenADR scopes.');
      // No token, a console session token, a tampered or expired token, a revoked key's token: 401.
      isProblem(await get(h(), '/programs', {}), 401);
      isProblem(await get(h(), '/programs', s.auth), 401);
      isProblem(await get(h(), '/programs', { authorization: `${t.authorization.slice(0, -2)}xx` }), 401);
      const key = createHmac('sha256', h().ctx.keys.access).update('openadr-vtn-token').digest();
      const expired = await new SignJWT({ scope: 'read_all', org: s.org })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(String(k.keyId))
        .setAudience('openadr3')
        .setExpirationTime(Math.floor(Date.now() / 1000) - 10)
        .sign(key);
      isProblem(await get(h(), '/programs', { authorization: `Bearer ${expired}` }), 401);
      await h().app.inject({ method: 'DELETE', url: `/account/api-keys/${k.keyId}?password=${b64(PASSWORD)}`, headers: s.auth });
      isProblem(await get(h(), '/programs', t), 401);
    });

    it('answers programs and events generated from the console, in step with its dispatches, each valid against the document', async () => {
      const s = await setup(h());
      const t = await s.token(await s.key());
      const programs = valid(z.array(program), (await get(h(), '/programs', t)).json());
      expect(programs.map((p) => p.id)).toEqual(['price-NSW1', 'price-QLD1', 'price-VIC1', 'price-SA1', 'price-TAS1', `vpp-${s.vpp}`]);
      expect(programs.find((p) => p.id === 'price-NSW1')?.payloadDescriptors).toEqual([
        { objectType: 'EVENT_PAYLOAD_DESCRIPTOR', payloadType: 'PRICE', units: 'MWH', currency: 'AUD' },
      ]);
      valid(program, (await get(h(), `/programs/vpp-${s.vpp}`, t)).json());
      const prices = valid(oadrEvent, (await get(h(), '/events/prices-NSW1', t)).json());
      expect(prices.intervals).toHaveLength(48);
      expect(prices.intervalPeriod?.duration).toBe('PT30M');
      expect(typeof prices.intervals[0].payloads[0].values[0]).toBe('number');

      const id = await s.dispatch();
      const list = valid(z.array(oadrEvent), (await get(h(), `/events?programID=vpp-${s.vpp}`, t)).json());
      expect(list.map((e) => e.id)).toEqual([`event-${id}`]);
      const e = valid(oadrEvent, (await get(h(), `/events/event-${id}`, t)).json());
      expect(e).toMatchObject({ objectType: 'EVENT', programID: `vpp-${s.vpp}`, intervalPeriod: { duration: 'PT30M' } });
      expect(e.intervals[0].payloads).toEqual([{ type: 'DISPATCH_SETPOINT', values: [-1] }]);
      // Paging: the five price events come first.
      expect(valid(z.array(oadrEvent), (await get(h(), '/events?skip=5&limit=1', t)).json()).map((x) => x.id)).toEqual([`event-${id}`]);
      expect(valid(z.array(oadrEvent), (await get(h(), '/events?limit=2', t)).json())).toHaveLength(2);
      // The console's own report of the dispatch.
      valid(z.array(report), (await get(h(), `/reports?eventID=event-${id}`, t)).json());

      // Cancelled in the console: gone from the VTN.
      expect((await h().app.inject({ method: 'POST', url: `/dispatch/${id}/cancel`, headers: s.auth })).statusCode).toBe(200);
      isProblem(await get(h(), `/events/event-${id}`, t), 404);
      expect((await get(h(), `/events?programID=vpp-${s.vpp}`, t)).json()).toEqual([]);
    });

    it('refuses bad input with a problem naming the field, and never a 500', async () => {
      const s = await setup(h());
      const t = await s.token(await s.key(['read_all', 'write_programs', 'write_events', 'write_reports', 'write_subscriptions', 'write_vens']));
      expect(isProblem(await get(h(), '/events?limit=51', t), 400).detail).toBe('query.limit: limit must be a whole number from 0 to 50.');
      expect(isProblem(await get(h(), '/events?skip=-1', t), 400).detail).toContain('query.skip');
      isProblem(await get(h(), '/events/bad%20id', t), 400);
      // Programs and events are the console's to write, whatever the scopes.
      expect(isProblem(await send(h(), 'POST', '/events', t, { programID: 'x', intervals: [] }), 403).detail).toContain('written by the console');
      isProblem(await send(h(), 'POST', '/programs', t, { programName: 'x' }), 403);
      const id = await s.dispatch();
      const body = (duration: string) => ({
        programID: `vpp-${s.vpp}`,
        eventID: `event-${id}`,
        clientName: 'client',
        resources: [{ resourceName: 'r', intervals: [{ id: 0, intervalPeriod: { start: new Date().toISOString(), duration }, payloads: [] }] }],
      });
      expect(isProblem(await send(h(), 'POST', '/reports', t, body('one hour')), 400).detail).toBe(
        'body.resources.0.intervals.0.intervalPeriod.duration: is not an ISO 8601 duration',
      );
      expect(isProblem(await send(h(), 'POST', '/reports', t, { ...body('PT5M'), eventID: 'event-999999' }), 400).detail).toBe(
        'eventID names no event this client can see.',
      );
      const past = body('PT5M');
      past.resources[0].intervals[0].intervalPeriod.start = '2020-01-01T00:00:00Z';
      expect(isProblem(await send(h(), 'POST', '/reports', t, past), 400).detail).toContain("is before the event's start");
      expect(
        isProblem(
          await send(h(), 'POST', '/subscriptions', t, {
            clientName: 'c',
            programID: `vpp-${s.vpp}`,
            objectOperations: [{ objects: ['EVENT'], operations: ['CREATE'], callbackUrl: 'http://example.com/cb' }],
          }),
          400,
        ).detail,
      ).toContain('https');
      const big = await h().app.inject({
        method: 'POST',
        url: `${B}/vens`,
        headers: { ...t, 'content-type': 'application/json' },
        payload: `{"venName":"${'x'.repeat(10 * 1024 * 1024)}"}`,
      });
      isProblem(big, 413);
      isProblem(await h().app.inject({ method: 'POST', url: `${B}/vens`, headers: { ...t, 'content-type': 'application/json' }, payload: '{"venName":' }), 400);
      expect(isProblem(await send(h(), 'POST', '/vens', t, { venName: 'a\u0000b' }), 400).detail).toContain('body.venName');
    });

    it('keeps VENs, resources and subscriptions to their client; another organisation finds nothing (404)', async () => {
      const s = await setup(h());
      const mine = await s.token(await s.key());
      const created = valid(ven, (await send(h(), 'POST', '/vens', mine, { venName: `VEN-${s.org}`, resources: [{ resourceName: 'battery-1' }] })).json());
      expect(created.resources?.map((r) => r.resourceName)).toEqual(['battery-1']);
      isProblem(await send(h(), 'POST', '/vens', mine, { venName: `VEN-${s.org}` }), 409);
      valid(resource, (await send(h(), 'POST', `/vens/${created.id}/resources`, mine, { resourceName: 'battery-2' })).json());
      valid(z.array(resource), (await get(h(), `/vens/${created.id}/resources`, mine)).json());
      // A VEN's client sees an event only once an administrator has put its VEN in the event's VPP.
      const id = await s.dispatch();
      isProblem(await get(h(), `/events/event-${id}`, mine), 404);
      const venId = Number(created.id.slice(4));
      const put = await h().app.inject({ method: 'PUT', url: `/openadr/vens/${venId}/vpps`, headers: s.auth, payload: { vppIds: [s.vpp] } });
      expect(put.statusCode, put.body).toBe(200);
      const e = valid(oadrEvent, (await get(h(), `/events/event-${id}`, mine)).json());
      expect(e.targets).toEqual([{ type: 'VEN_NAME', values: [`VEN-${s.org}`] }]);
      expect(valid(z.array(oadrEvent), (await get(h(), `/events?targetType=VEN_NAME&targetValues=VEN-${s.org}`, mine)).json()).map((x) => x.id)).toContain(
        `event-${id}`,
      );
      const overview = (await h().app.inject({ method: 'GET', url: '/openadr/overview', headers: s.auth })).json().data;
      expect(overview.vens).toMatchObject([
        { venName: `VEN-${s.org}`, keyName: 'VEN key', vppIds: [s.vpp], resources: [{ resourceName: 'battery-1' }, { resourceName: 'battery-2' }] },
      ]);
      expect(overview.baseUrl).toMatch(/\/openadr3\/3\.0\.1$/);

      const other = await setup(h());
      const theirs = await other.token(await other.key());
      for (const url of [`/events/event-${id}`, `/vens/${created.id}`, `/vens/${created.id}/resources`, `/programs/vpp-${s.vpp}`])
        isProblem(await get(h(), url, theirs), 404);
      isProblem(await send(h(), 'DELETE', `/vens/${created.id}`, theirs), 404);
      expect((await h().app.inject({ method: 'PUT', url: `/openadr/vens/${venId}/vpps`, headers: other.auth, payload: { vppIds: [] } })).statusCode).toBe(404);
      // A key without write_vens may not write VENs.
      const reader = await s.token(await s.key(['read_all']));
      expect(isProblem(await send(h(), 'POST', '/vens', reader, { venName: 'x' }), 403).detail).toBe('This call needs the scope write_vens.');
    });

    it('an end-to-end VEN: token, VEN, subscription, a dispatch by webhook, and its report', async () => {
      const s = await setup(h());
      const t = await s.token(await s.key());
      const v = valid(ven, (await send(h(), 'POST', '/vens', t, { venName: `Aggregator-${s.org}` })).json());
      await h().app.inject({ method: 'PUT', url: `/openadr/vens/${v.id.slice(4)}/vpps`, headers: s.auth, payload: { vppIds: [s.vpp] } });
      const sub = valid(
        subscription,
        (
          await send(h(), 'POST', '/subscriptions', t, {
            clientName: v.venName,
            programID: `vpp-${s.vpp}`,
            objectOperations: [{ objects: ['EVENT'], operations: ['CREATE', 'UPDATE', 'DELETE'], callbackUrl, bearerToken: 'ven-secret' }],
          })
        ).json(),
      );
      valid(z.array(subscription), (await get(h(), '/subscriptions', t)).json());
      const before = received.length;
      const id = await s.dispatch(3);
      await scanChanges(h().ctx);
      await createWorker(h().ctx, [deliverNotificationJob]).runUntilIdle();
      const got = received.slice(before);
      expect(got).toHaveLength(1);
      expect(got[0].auth).toBe('Bearer ven-secret');
      const note = valid(oadrNotification, got[0].body);
      expect(note).toMatchObject({ objectType: 'EVENT', operation: 'POST', object: { id: `event-${id}` } });
      // The same change scanned again is not sent again.
      await scanChanges(h().ctx);
      await createWorker(h().ctx, [deliverNotificationJob]).runUntilIdle();
      expect(received.length).toBe(before + 1);

      const start = (note.object as { intervalPeriod: { start: string } }).intervalPeriod.start;
      const posted = await send(h(), 'POST', '/reports', t, {
        programID: `vpp-${s.vpp}`,
        eventID: `event-${id}`,
        clientName: v.venName,
        reportName: 'delivered',
        payloadDescriptors: [{ payloadType: 'DEMAND', units: 'KW', readingType: 'DIRECT_READ' }],
        resources: [
          {
            resourceName: 'AGGREGATED_REPORT',
            intervals: [{ id: 0, intervalPeriod: { start, duration: 'PT30M' }, payloads: [{ type: 'DEMAND', values: [-0.9] }] }],
          },
        ],
      });
      expect(posted.statusCode, posted.body).toBe(201);
      const r = valid(report, posted.json());
      expect(valid(z.array(report), (await get(h(), `/reports?eventID=event-${id}&clientName=${v.venName}`, t)).json()).map((x) => x.id)).toEqual([r.id]);
      const overview = (await h().app.inject({ method: 'GET', url: '/openadr/overview', headers: s.auth })).json().data;
      expect(overview.subscriptions).toMatchObject([
        { id: Number(sub.id.slice(13)), status: 'ACTIVE', lastDeliveryResult: 'HTTP 200', callbackUrls: [callbackUrl] },
      ]);

      // Cancelled in the console: the VEN hears DELETE.
      await h().app.inject({ method: 'POST', url: `/dispatch/${id}/cancel`, headers: s.auth });
      await scanChanges(h().ctx);
      await createWorker(h().ctx, [deliverNotificationJob]).runUntilIdle();
      expect(valid(oadrNotification, received.at(-1)?.body)).toMatchObject({ operation: 'DELETE', object: { id: `event-${id}` } });
    });

    it('fans a change out in batches: one job posts each callback once, and a failed callback gets a retry job of its own', async () => {
      const s = await setup(h());
      const t = await s.token(await s.key(['read_all', 'write_subscriptions']));
      const subscribe = async (url: string) =>
        expect(
          (
            await send(h(), 'POST', '/subscriptions', t, {
              clientName: 'back office',
              programID: `vpp-${s.vpp}`,
              objectOperations: [{ objects: ['EVENT'], operations: ['CREATE'], callbackUrl: url }],
            })
          ).statusCode,
        ).toBe(201);
      await subscribe(callbackUrl);
      await subscribe(callbackUrl.replace('/callback', '/fail'));
      await subscribe(callbackUrl);
      const before = received.length;
      const id = await s.dispatch(4);
      await scanChanges(h().ctx);
      const queued = () =>
        h()
          .ctx.db.selectFrom('jobs')
          .select(['payload', 'status', 'run_at'])
          .where('kind', '=', 'openadr.deliver')
          .where('payload', 'like', `%event-${id}"%`)
          .orderBy('id')
          .execute();
      // One job for the three callbacks.
      expect((await queued()).map((j) => (JSON.parse(j.payload) as { targets: unknown[] }).targets.length)).toEqual([3]);
      const ran = Math.floor(Date.now() / 1000);
      await createWorker(h().ctx, [deliverNotificationJob]).runUntilIdle();
      expect(received.slice(before).map((r) => r.path)).toEqual(expect.arrayContaining(['/callback', '/callback', '/fail']));
      expect(received.length).toBe(before + 3);
      // The batch is done; the failed callback waits in a job of its own, with the queue's first backoff.
      const jobs = await queued();
      expect(jobs.map((j) => j.status)).toEqual(['done', 'pending']);
      expect((JSON.parse(jobs[1].payload) as { targets: unknown[] }).targets).toHaveLength(1);
      expect(Number(jobs[1].run_at)).toBeGreaterThanOrEqual(ran + 30);
      const overview = (await h().app.inject({ method: 'GET', url: '/openadr/overview', headers: s.auth })).json().data as {
        subscriptions: { callbackUrls: string[]; lastDeliveryResult: string | null }[];
      };
      expect(overview.subscriptions.map((x) => x.lastDeliveryResult)).toEqual(['HTTP 200', 'HTTP 500', 'HTTP 200']);
    });

    it('notifies subscriptions of program, VEN and resource changes; the scan chains itself and keeps few job rows', async () => {
      const s = await setup(h());
      // A business client (no VEN of its own) hears of every VEN; a VEN's client only of its own.
      const business = await s.token(await s.key(['read_all', 'write_subscriptions']));
      const venClient = await s.token(await s.key());
      const other = await s.token(await s.key());
      const sub = await send(h(), 'POST', '/subscriptions', business, {
        clientName: 'back office',
        programID: `vpp-${s.vpp}`,
        objectOperations: [{ objects: ['PROGRAM', 'VEN', 'RESOURCE'], operations: ['CREATE', 'UPDATE', 'DELETE'], callbackUrl }],
      });
      expect(sub.statusCode, sub.body).toBe(201);
      const before = received.length;
      const run = () => createWorker(h().ctx, [deliverNotificationJob]).runUntilIdle();
      const v = valid(ven, (await send(h(), 'POST', '/vens', venClient, { venName: `Fleet-${s.org}` })).json());
      const r = valid(resource, (await send(h(), 'POST', `/vens/${v.id}/resources`, venClient, { resourceName: 'battery-9' })).json());
      await send(h(), 'PUT', `/vens/${v.id}`, venClient, { venName: `Fleet-${s.org}-2` });
      // The other VEN client subscribes to VENs too: it hears of its own VEN, not of this one.
      const otherVen = valid(ven, (await send(h(), 'POST', '/vens', other, { venName: `Other-${s.org}` })).json());
      await run();
      // The worker delivers two at a time: the order of arrival is not the order of the changes.
      const got = received.slice(before).map((x) => valid(oadrNotification, x.body));
      expect(got.map((n) => `${n.objectType} ${n.operation} ${n.object.id}`).sort()).toEqual(
        [`VEN POST ${v.id}`, `RESOURCE POST ${r.id}`, `VEN PUT ${v.id}`, `VEN POST ${otherVen.id}`].sort(),
      );
      expect(got.find((n) => n.operation === 'PUT')?.object).toMatchObject({ venName: `Fleet-${s.org}-2` });

      // A VPP renamed in the console: the program's UPDATE, found by the scan.
      const mark = received.length;
      await h()
        .ctx.db.updateTable('powerstations')
        .set({ created_at: Math.floor(Date.now() / 1000) - 600 })
        .where('id', '=', s.vpp)
        .execute();
      const renamed = await h().app.inject({ method: 'PATCH', url: `/v2/powerstations/${s.vpp}`, headers: s.auth, payload: { name: `Renamed ${s.org}` } });
      expect(renamed.statusCode, renamed.body).toBe(200);
      await scanChanges(h().ctx);
      await run();
      const program = received.slice(mark).map((x) => valid(oadrNotification, x.body));
      expect(program.map((n) => [n.objectType, n.operation, n.object.id])).toEqual([['PROGRAM', 'PUT', `vpp-${s.vpp}`]]);
      expect((program[0].object as { programName: string }).programName).toBe(`Renamed ${s.org}`);

      // The scan job: with a subscription active it queues its next run 5 s on, and deletes its run of ten minutes before.
      const at = Math.ceil(Date.now() / 1000 / 5) * 5 + 3600;
      const db = h().ctx.db;
      const old = await enqueue(db, 'openadr.scan', { at: at - 600 }, { uniqueKey: `openadr.scan@${at - 600}` });
      await db
        .updateTable('jobs')
        .set({ status: 'done', finished_at: at - 600 })
        .where('id', '=', old as number)
        .execute();
      await scanChangesJob.handler(h().ctx, { at }, {} as never);
      const keys = (await db.selectFrom('jobs').select('unique_key').where('kind', '=', 'openadr.scan').execute()).map((j) => j.unique_key);
      expect(keys).toContain(`openadr.scan@${at + 5}`);
      expect(keys).not.toContain(`openadr.scan@${at - 600}`);
    });

    it("counts a VEN's reported deliveries in the dispatch's response, settlement and grid credits", async () => {
      const s = await setup(h());
      // A second node of the organisation's fleet, outside the VPP: the VEN's resource home-2 names its NMI.
      const home = await node(h(), [s.org]);
      const { nmi } = await h().ctx.db.selectFrom('nodes').select('nmi').where('id', '=', home.id).executeTakeFirstOrThrow();
      const t = await s.token(await s.key());
      const v = valid(
        ven,
        (
          await send(h(), 'POST', '/vens', t, {
            venName: `Aggregator-${s.org}`,
            resources: [{ resourceName: 'home-2', attributes: [{ type: 'NMI', values: [nmi] }] }, { resourceName: 'ems-1' }],
          })
        ).json(),
      );
      await h().app.inject({ method: 'PUT', url: `/openadr/vens/${v.id.slice(4)}/vpps`, headers: s.auth, payload: { vppIds: [s.vpp] } });
      const id = await s.dispatch(3);
      // The dispatch ran about three hours ago (its orders sent), 30 minutes at 100 $/MWh, within one
      // Sydney day (the settlement's node values and grid credits are per local day).
      const now = Math.floor(Date.now() / 1000);
      const start = withinOneDay(now - (now % 300) - 3 * 3600, 1800, { earlier: true });
      await h().ctx.db.updateTable('events').set({ start_time: start }).where('id', '=', id).execute();
      await h().ctx.db.updateTable('dispatches').set({ orders_sent_at: start }).where('event_id', '=', id).execute();
      await h()
        .ctx.db.insertInto('market_prices')
        .values(
          Array.from({ length: 6 }, (_, k) => ({ region: 'NSW1', interval_start: start + k * 300, rrp: 100, source: 'AEMO' as const, published_at: start })),
        )
        .execute();
      const at = (k: number) => new Date((start + k) * 1000).toISOString();
      // home-2: −1.2 kW over the half-hour (DEMAND); ems-1: −0.3 kWh in each quarter-hour (USAGE, so −1.2 kW).
      const posted = await send(h(), 'POST', '/reports', t, {
        programID: `vpp-${s.vpp}`,
        eventID: `event-${id}`,
        clientName: v.venName,
        payloadDescriptors: [{ payloadType: 'DEMAND', units: 'KW', readingType: 'DIRECT_READ' }],
        resources: [
          {
            resourceName: 'home-2',
            intervals: [{ id: 0, intervalPeriod: { start: at(0), duration: 'PT30M' }, payloads: [{ type: 'DEMAND', values: [-1.2] }] }],
          },
          {
            resourceName: 'ems-1',
            intervalPeriod: { start: at(0), duration: 'PT15M' },
            intervals: [
              { id: 0, payloads: [{ type: 'USAGE', values: [-0.3] }] },
              { id: 1, payloads: [{ type: 'USAGE', values: [-0.3] }] },
            ],
          },
        ],
      });
      expect(posted.statusCode, posted.body).toBe(201);

      const res = (await h().app.inject({ method: 'GET', url: `/api/dispatches/${id}/response`, headers: s.auth })).json().data;
      // Each 5-minute bucket: −1.2 − 1.2 = −2.4 kW, −2.4 × 300 ÷ 3600 = −0.2 kWh; six buckets −1.2 kWh.
      expect(Object.keys(res.series)).toHaveLength(6);
      expect(res.series[start]).toEqual({ realPowerP: -2.4, rejectedRealPowerP: 1.4, deliveredKwh: -0.2 });
      expect(res.total).toMatchObject({ deliveredKwh: -1.2, deploymentsResponded: 2 });
      expect(res.venResponses).toEqual([
        {
          source: v.venName,
          resource: 'home-2',
          nodeId: home.id,
          deliveredKwh: -0.6,
          series: Object.fromEntries([0, 1, 2, 3, 4, 5].map((k) => [start + k * 300, -1.2])),
        },
        {
          source: v.venName,
          resource: 'ems-1',
          nodeId: null,
          deliveredKwh: -0.6,
          series: Object.fromEntries([0, 1, 2, 3, 4, 5].map((k) => [start + k * 300, -1.2])),
        },
      ]);

      // Settled: home-2, enrolled as the node, −0.6 kWh × 100 $/MWh = −0.06 AUD; its customer (no plan) is credited 0.06.
      expect(await settleDispatch(h().ctx, id)).toBe(true);
      const nodes = await h().ctx.db.selectFrom('dispatch_settlement_nodes').selectAll().where('event_id', '=', id).execute();
      expect(nodes.map((n) => [n.node_id, Math.round(n.delivered_kwh * 1000) / 1000, Math.round(Number(n.value) * 10000) / 10000])).toEqual([
        [home.id, -0.6, -0.06],
      ]);
      const credits = await h().ctx.db.selectFrom('billing_items').select(['nmi', 'amount', 'cost_cents']).where('event_id', '=', id).execute();
      expect(credits.map((c) => [c.nmi, Math.round(c.amount * 1000) / 1000, c.cost_cents])).toEqual([[nmi, 0.6, 6]]);
    });
  },
  { OPENADR_CALLBACK_ALLOW: '127.0.0.1' },
);

it('never calls back a private, loopback or link-local address unless its host is allowed', async () => {
  for (const a of ['127.0.0.1', '10.1.2.3', '192.168.1.1', '169.254.169.254', '::1', 'fe80::1', '::ffff:10.0.0.1', '100.64.0.1', '0.0.0.0'])
    expect(publicAddress(a), a).toBe(false);
  expect(publicAddress('203.0.114.7')).toBe(true);
  expect((await postCallback(`https://127.0.0.1:1/cb`, null, {}, [])).result).toBe('The callback host resolves to a private, loopback or link-local address.');
  expect((await postCallback(`http://example.com/cb`, null, {}, [])).result).toContain('https');
  expect((await postCallback(`https://user:pw@example.com/cb`, null, {}, [])).result).toBe('callbackUrl must not carry credentials.');
});
