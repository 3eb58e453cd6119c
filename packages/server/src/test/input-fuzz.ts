import fs from 'node:fs';
import path from 'node:path';
import type { Endpoint } from '@vpp/shared/api/endpoint';
import { errorReplySchema } from '@vpp/shared/api/envelope';
import { beforeAll, describe, expect, it } from 'vitest';
import { FEATURES } from '../features/index.ts';
import { exampleFor, keysOf } from './examples.ts';
import { describeEachDatabase } from './harness.ts';

// Generated from the contracts: every route of every area receives wrong types, huge and
// out-of-range numbers, control characters, oversized lists and strings and malformed JSON. None
// may answer a 5xx, every failure answers the API's envelope, and none echoes a secret it was sent.
// The areas are dealt into SHARES files (features/input-fuzz.<k>.integration.test.ts), balanced by their number
// of requests, so that the lane runs them side by side (in one file it took four minutes).

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

/** How many files the areas are dealt into: features/input-fuzz.1.integration.test.ts to input-fuzz.<SHARES>.integration.test.ts. */
export const SHARES = 4;

let dealt: [string, Endpoint[]][][] | undefined;

/** The areas of share `k` (1 to SHARES): each area to the share with the fewest requests so far, the largest area first. */
export function areasOfShare(k: number): [string, Endpoint[]][] {
  if (!dealt) {
    const weighed = AREAS.map((area) => ({ area, weight: area[1].reduce((n, e) => n + probes(e).length, 0) }));
    weighed.sort((a, b) => b.weight - a.weight || a.area[0].localeCompare(b.area[0]));
    const shares = Array.from({ length: SHARES }, () => ({ weight: 0, areas: [] as [string, Endpoint[]][] }));
    for (const { area, weight } of weighed) {
      const lightest = shares.reduce((a, b) => (b.weight < a.weight ? b : a));
      lightest.areas.push(area);
      lightest.weight += weight;
    }
    dealt = shares.map((s) => s.areas);
  }
  return dealt[k - 1];
}

/** The malformed-input tests of share `k`'s areas, on both databases. */
export function fuzzShare(k: number): void {
  describeEachDatabase(`malformed input on every endpoint (share ${k} of ${SHARES})`, (h) => {
    let org: number;
    beforeAll(async () => {
      org = await h().org('RETAILER');
    });

    if (k === 1)
      it('deals every area with endpoints to exactly one share, each share with its file', () => {
        const names = Array.from({ length: SHARES }, (_, i) => areasOfShare(i + 1).map(([name]) => name)).flat();
        expect(names.sort()).toEqual(AREAS.map(([name]) => name).sort());
        const files = fs.readdirSync(path.join(import.meta.dirname, '../features')).filter((f) => /^input-fuzz\.\d+\.integration\.test\.ts$/.test(f));
        expect(files.sort()).toEqual(Array.from({ length: SHARES }, (_, i) => `input-fuzz.${i + 1}.integration.test.ts`).sort());
      });

    for (const [name, list] of areasOfShare(k)) {
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
}
