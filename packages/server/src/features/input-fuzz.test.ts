import type { Endpoint } from '@vpp/shared/api/endpoint';
import { errorReplySchema } from '@vpp/shared/api/envelope';
import { beforeAll, describe, expect, it } from 'vitest';
import { exampleFor, keysOf } from '../test/examples.ts';
import { describeEachDatabase } from '../test/harness.ts';
import { FEATURES } from './index.ts';

// Generated from the contracts: every route of every area receives wrong types, huge and
// out-of-range numbers, control characters, oversized lists and strings and malformed JSON. None
// may answer a 5xx, every failure answers the API's envelope, and none echoes a secret it was sent.

// Areas without endpoints (the telemetry store's) have nothing to fuzz.
const AREAS: [string, Endpoint[]][] = FEATURES.map((f): [string, Endpoint[]] => [f.name, (f.endpoints ?? []).flatMap((map) => Object.values(map))]).filter(
  ([, list]) => list.length > 0,
);

/** A value no reply may ever contain: it travels as a `password` in every query. */
const SECRET = 'Fuzz-Secret-7f3a9c';

const BAD_IDS = ['abc', '-1', '0', '1.5', '1e3', '2147483648', '99999999999999999999', 'NaN', '%00', '%E2%80', 'x'.repeat(2000)];
const BAD_QUERY_VALUES = ['', 'abc', '-1', '9e12', '2147483648', '1e400', '\u0000', '\u0007bell', 'x'.repeat(5000), 'true'];
const BAD_FIELD_VALUES: unknown[] = [
  1e308,
  -1,
  2147483648,
  'a\u0000b',
  'x'.repeat(200_000),
  Array.from({ length: 20_000 }, () => 1e10),
  { a: { b: { c: { d: [{ e: 'deep' }] } } } },
  true,
  null,
  [null],
];
const RAW_BODIES: [string, string][] = [
  ['application/json', '{"not json'],
  ['application/json', '[]'],
  ['application/json', 'null'],
  ['application/json', '123'],
  ['application/json', `{"password":"${SECRET}",}`],
  ['application/json', '{"\u0000":1}'],
  ['text/plain', `password=${SECRET}`],
  ['application/x-www-form-urlencoded', `password=${SECRET}`],
];

const fill = (path: string, id: string) => path.replace(/:([A-Za-z_]+)/g, id);

interface Probe {
  url: string;
  payload?: string;
  contentType?: string;
}

/** Every malformed request of one endpoint. */
function probes(e: Endpoint): Probe[] {
  const out: Probe[] = [];
  const base = fill(e.path, '1');
  const secret = `password=${SECRET}`;
  if (e.path.includes(':')) for (const id of BAD_IDS) out.push({ url: `${fill(e.path, id)}?${secret}` });
  // Each field wrong in turn, first alone, then among valid values of the others (so that the
  // call gets past the fields it needs to the code behind them).
  const queryKeys = [...new Set([...keysOf(e.query), 'limit', 'offset', 'start', 'end', 'id'])];
  const valid = Object.fromEntries(Object.entries(exampleFor(e.query)).map(([k, v]) => [k, String(v)]));
  for (const key of queryKeys)
    for (const v of BAD_QUERY_VALUES)
      for (const others of [{}, valid]) {
        const q = new URLSearchParams({ password: SECRET, ...others, [key]: v });
        out.push({ url: `${base}?${q}` });
      }
  if (e.method !== 'GET') {
    for (const [contentType, payload] of RAW_BODIES) out.push({ url: `${base}?${secret}`, payload, contentType });
    const validBody = exampleFor(e.body);
    for (const key of keysOf(e.body))
      for (const v of BAD_FIELD_VALUES)
        for (const others of [{}, validBody])
          out.push({ url: `${base}?${secret}`, payload: JSON.stringify({ ...others, [key]: v }), contentType: 'application/json' });
  }
  return out;
}

describeEachDatabase('malformed input on every endpoint', (h) => {
  let org: number;
  beforeAll(async () => {
    org = await h().org('RETAILER');
  });

  for (const [name, list] of AREAS) {
    describe(name, () => {
      it.each(list.map((e) => [`${e.method} ${e.path}`, e] as const))('%s never answers 5xx, and fails in the envelope', async (_, e) => {
        // A user of its own per endpoint: a fuzzed logout or password check must not end the next one's session.
        const headers = e.auth === 'public' ? {} : await h().bearer((await h().user(org)).username);
        const all = probes(e);
        expect(all.length).toBeGreaterThan(10);
        for (const p of all) {
          const res = await h().app.inject({
            method: e.method,
            url: p.url,
            headers: { ...headers, ...(p.contentType ? { 'content-type': p.contentType } : {}) },
            ...(p.payload !== undefined ? { payload: p.payload } : {}),
          });
          const what = `${e.method} ${p.url.slice(0, 120)} ${p.payload?.slice(0, 60) ?? ''} -> ${res.statusCode} ${res.body.slice(0, 200)}`;
          expect(res.statusCode, what).toBeLessThan(500);
          if (res.statusCode >= 400) {
            expect(res.body, what).not.toContain(SECRET);
            // Pages (hidden from the API document) fail as pages; every API call fails in the envelope.
            if (e.hidden && res.headers['content-type']?.startsWith('text/html')) continue;
            expect(errorReplySchema.safeParse(res.json()).success, what).toBe(true);
          }
        }
      });
    });
  }
});
