// `npm run bench:openadr` (BENCH_DATABASE_URL for PostgreSQL), issue 31's figures:
// - the events search of a VEN whose VPP holds 10,000 events (GET /openadr3/3.0.1/events, a page of 50
//   at a random offset, over HTTP with its bearer token): p50 and p95;
// - webhook fan-out: one dispatch's notification to 1,000 subscriptions' callbacks, from the scan that
//   finds it to the last callback received by a local receiver, by the job worker as the server runs it.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { DEMO_PASSWORD } from '@vpp/shared/demo';
import { OPENADR_BASE_PATH } from '@vpp/shared/openadr/schemas';
import { buildApp } from '../packages/server/src/app.ts';
import { FEATURES } from '../packages/server/src/features/index.ts';
import { insertSubscription } from '../packages/server/src/features/openadr/openadr.repo.ts';
import { scanChanges } from '../packages/server/src/features/openadr/openadr.service.ts';
import { createWorker } from '../packages/server/src/platform/jobs.ts';
import { openBench } from './setup.ts';
import { signIn } from './sign-in.ts';

const EVENTS = Number(process.env.BENCH_OADR_EVENTS ?? 10_000);
const SUBSCRIPTIONS = Number(process.env.BENCH_OADR_SUBSCRIPTIONS ?? 1_000);
const SEARCHES = 200;
const log = (s: string) => process.stderr.write(`${s}\n`);
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];
const round = (v: number) => Math.round(v * 10) / 10;

const { handle, ctx, org, close } = await openBench('openadr', { OPENADR_CALLBACK_ALLOW: '127.0.0.1' });
const app = await buildApp(ctx, { logger: false });
const base = await app.listen({ port: 0, host: '127.0.0.1' });
const vtn = `${base}${OPENADR_BASE_PATH}`;
const db = ctx.db;
const now = Math.floor(Date.now() / 1000);

// A VPP with EVENTS dispatches over the last year and the next month, each made a day before its start
// (or yesterday): none changed lately, so the fan-out's scan finds only its own dispatch.
const vpp = (
  await db
    .insertInto('powerstations')
    .values({ organisation_id: org, name: 'Bench VPP', type: 'STATIC', state: 'NSW', duid: null, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow()
).id;
/** Inserts dispatches of -100 kW, 30 minutes, on the VPP: (start, made at) each. */
async function insertDispatches(list: { start: number; createdAt: number }[]) {
  const rows = list.map((d) => ({
    organisation_id: org,
    powerstation_id: vpp,
    type: 'DISPATCH',
    start_time: d.start - (d.start % 300),
    duration: 1800,
    cancelled_at: null,
    created_at: d.createdAt,
  }));
  const ids = await db.insertInto('events').values(rows).returning('id').execute();
  const detail = { real_power_p: -100, power_factor: null, power_factor_lead_lag: null, strategy: 'EVEN', message_title: null, customer_message: null };
  await db
    .insertInto('dispatches')
    .values(ids.map((e) => ({ event_id: e.id, ...detail, created_by: null, orders_sent_at: null, checked_at: null, origin: null })))
    .execute();
}
log(`Seeding ${EVENTS} dispatches…`);
for (let i = 0; i < EVENTS; i += 500)
  await insertDispatches(
    Array.from({ length: Math.min(500, EVENTS - i) }, (_, k) => {
      const start = now - 365 * 86400 + (i + k) * Math.floor((395 * 86400) / EVENTS);
      return { start, createdAt: Math.min(start, now) - 86400 };
    }),
  );

// The VEN: an API key with OpenADR scopes, its token, its VEN, put in the VPP by the administrator.
const { headers } = await signIn(base, 'bench');
const key = (
  await (
    await fetch(`${base}/account/api-keys?password=${encodeURIComponent(Buffer.from(DEMO_PASSWORD).toString('base64'))}`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ keyName: 'Bench VEN', openadrScopes: ['read_all', 'write_vens', 'write_subscriptions', 'write_reports'] }),
    })
  ).json()
).data as { keyId: number; key: string };
const token = (
  await (
    await fetch(`${vtn}/auth/token`, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: String(key.keyId), client_secret: key.key }),
    })
  ).json()
).access_token as string;
const auth = { authorization: `Bearer ${token}` };
const ven = await (
  await fetch(`${vtn}/vens`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ venName: 'bench-ven' }) })
).json();
await fetch(`${base}/openadr/vens/${String(ven.id).slice(4)}/vpps`, {
  method: 'PUT',
  headers: { ...headers, 'content-type': 'application/json' },
  body: JSON.stringify({ vppIds: [vpp] }),
});

// The events search: a page of 50 at a random offset, of the VEN's program.
log(`Searching events ${SEARCHES} times…`);
const times: number[] = [];
let seen = 0;
for (let i = 0; i < SEARCHES; i++) {
  const skip = Math.floor(Math.random() * (EVENTS - 50));
  const t = performance.now();
  const res = await fetch(`${vtn}/events?programID=vpp-${vpp}&skip=${skip}&limit=50`, { headers: auth });
  const page = (await res.json()) as unknown[];
  times.push(performance.now() - t);
  if (res.status !== 200 || page.length !== 50) throw new Error(`events search answered ${res.status} with ${page.length} events`);
  seen += page.length;
}

log(`Fan-out to ${SUBSCRIPTIONS} subscriptions…`);
// Fan-out: SUBSCRIPTIONS subscriptions of the VEN's client to the VPP's events, each its own callback.
let received = 0;
let allReceived: () => void = () => {};
const done = new Promise<void>((r) => {
  allReceived = r;
});
const receiver = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(204).end();
    if (++received === SUBSCRIPTIONS) allReceived();
  });
});
await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
const port = (receiver.address() as AddressInfo).port;
for (let i = 0; i < SUBSCRIPTIONS; i++)
  await insertSubscription(db, {
    organisationId: org,
    clientKeyId: key.keyId,
    clientName: 'bench-ven',
    programId: `vpp-${vpp}`,
    objectOperations: [{ objects: ['EVENT'], operations: ['CREATE', 'UPDATE', 'DELETE'], callbackUrl: `http://127.0.0.1:${port}/cb/${i}` }],
    targets: [],
    now,
  });
const created = Math.floor(Date.now() / 1000);
await insertDispatches([{ start: created + 3600, createdAt: created }]);
// The worker as main.ts makes it (its default two lanes), started as the scan begins.
const worker = createWorker(
  ctx,
  FEATURES.flatMap((f) => f.jobs ?? []),
  { pollMs: 100 },
);
const t0 = performance.now();
await scanChanges(ctx);
const queuedS = (performance.now() - t0) / 1000;
worker.start();
await done;
const fanOutS = (performance.now() - t0) / 1000;
await worker.stop();
receiver.close();

// biome-ignore lint/suspicious/noConsole: the benchmark prints its figures as a table
console.table({
  dialect: handle.dialect,
  events: EVENTS,
  eventsSearchP50Ms: round(pct(times, 0.5)),
  eventsSearchP95Ms: round(pct(times, 0.95)),
  eventsSearched: seen,
  subscriptions: SUBSCRIPTIONS,
  fanOutQueuedS: round(queuedS),
  fanOutAllReceivedS: round(fanOutS),
  loadAverage1m: round(os.loadavg()[0]),
  cpus: os.cpus().length,
});
await app.close();
await close();
