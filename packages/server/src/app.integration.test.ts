// What the server tells the browser about itself: /meta.json and the content security policy,
// with and without analytics.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { APP_VERSION } from '@vpp/shared/constants';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';
import { createHarness, type Harness, PASSWORD } from './test/harness.ts';

describe('/meta.json', () => {
  let plain: Harness;
  let counted: Harness;
  beforeAll(async () => {
    [plain, counted] = await Promise.all([
      createHarness('sqlite'),
      createHarness('sqlite', { ANALYTICS_DOMAIN: 'console.example.com.au', ANALYTICS_URL: 'https://stats.example.com.au/api/event' }),
    ]);
  });
  afterAll(async () => Promise.all([plain?.close(), counted?.close()]));

  it('answers the version, uncached, with no analytics unless a domain is set', async () => {
    const res = await plain.app.inject({ method: 'GET', url: `/meta.json?${Date.now()}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json()).toEqual({ version: APP_VERSION, demo: false, mapTileUrl: null, basemap: null, analytics: null });
    expect(String(res.headers['content-security-policy']).split(';')).toContain("connect-src 'self'");
  });

  it('names the analytics endpoint and lets the browser reach it when ANALYTICS_DOMAIN is set', async () => {
    const res = await counted.app.inject({ method: 'GET', url: '/meta.json' });
    expect(res.json().analytics).toEqual({ domain: 'console.example.com.au', endpoint: 'https://stats.example.com.au/api/event' });
    expect(String(res.headers['content-security-policy']).split(';')).toContain("connect-src 'self' https://stats.example.com.au");
  });

  it("allows the built index.html's inline first-paint scripts by their hashes, and no other inline script", async () => {
    const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'vpp-web-'));
    fs.writeFileSync(
      path.join(dist, 'index.html'),
      '<html><head><script>window.a = 1;</script></head><body><script>b();</script><script type="module" src="/x.js"></script></body></html>',
    );
    const h = await createHarness('sqlite', { WEB_DIST: dist });
    try {
      const res = await h.app.inject({ method: 'GET', url: '/', headers: { accept: 'text/html' } });
      const scriptSrc = String(res.headers['content-security-policy'])
        .split(';')
        .find((d) => d.startsWith('script-src'));
      // sha256 of 'window.a = 1;' and of 'b();', as a browser computes them.
      expect(scriptSrc).toBe(
        "script-src 'self' 'wasm-unsafe-eval' 'sha256-ShPZs6SyOIfeOg7tsGkUC0BIIQiM/4HlSLumBwNEK6k=' 'sha256-9q75f4czX5pM1hYLoMI6KUdfzqgNRmejLvCSdtoLgS0='",
      );
    } finally {
      await h.close();
    }
  });

  it('says in the served index.html whether this is the demo, at /, by its name and at any page of the app', async () => {
    const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'vpp-web-'));
    fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html>\n<html lang="en-AU"><head><title>VPP</title></head><body></body></html>');
    const [demo, production] = await Promise.all([
      createHarness('sqlite', { WEB_DIST: dist, DEMO: 'true', SIMULATOR: 'false' }),
      createHarness('sqlite', { WEB_DIST: dist, DEMO: 'false' }),
    ]);
    try {
      for (const [h, flag] of [
        [demo, 'true'],
        [production, 'false'],
      ] as const) {
        for (const url of ['/', '/index.html', '/fleet-monitoring/nodes']) {
          const res = await h.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
          expect(res.statusCode).toBe(200);
          expect(res.headers['content-type']).toMatch(/^text\/html/);
          expect(res.headers['cache-control']).toBe('no-cache');
          expect(res.body).toBe(`<!doctype html>\n<html data-demo="${flag}" lang="en-AU"><head><title>VPP</title></head><body></body></html>`);
        }
      }
    } finally {
      await Promise.all([demo.close(), production.close()]);
      fs.rmSync(dist, { recursive: true, force: true });
    }
  });

  it('refuses to start with an analytics endpoint that is not a URL, naming the setting', () => {
    expect(() => loadConfig({ ANALYTICS_DOMAIN: 'x.example', ANALYTICS_URL: 'stats' })).toThrow(/ANALYTICS_URL/);
  });

  it("marks every API reply, a login's and a new key's included, as not to be stored, and refuses browser features the console never uses", async () => {
    const challenge = await plain.app.inject({ method: 'GET', url: '/auth/captcha/challenge' });
    const login = await plain.app.inject({ method: 'POST', url: '/auth/login/', payload: { username: 'nobody', password: 'x', captchaToken: 'x' } });
    const account = await plain.app.inject({ method: 'GET', url: '/account' });
    for (const res of [challenge, login, account]) {
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['permissions-policy']).toContain('camera=()');
    }
  });
});

describe('the OpenAPI document', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness('sqlite');
  });
  afterAll(async () => h?.close());

  it('documents the failures of every operation with the one error envelope', async () => {
    const doc = (await h.app.inject({ method: 'GET', url: '/api/openapi.json' })).json() as {
      paths: Record<
        string,
        Record<string, { security?: unknown[]; responses: Record<string, { content?: Record<string, { schema: { properties?: object } }> }> }>
      >;
    };
    // Every operation of the contract (the build's own /meta.json aside).
    const operations = Object.entries(doc.paths)
      .filter(([path]) => path !== '/meta.json')
      .flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => [`${method.toUpperCase()} ${path}`, op] as const));
    expect(operations.length).toBeGreaterThan(40);
    for (const [name, op] of operations) {
      for (const status of ['400', '404', '429']) {
        const schema = op.responses[status]?.content?.['application/json']?.schema;
        expect(schema?.properties, `${name} ${status}`).toHaveProperty('status');
        expect(schema?.properties, `${name} ${status}`).toHaveProperty('data');
      }
    }
    const guarded = operations.filter(([name]) => name === 'GET /v2/nodes');
    expect(Object.keys(guarded[0][1].responses)).toEqual(expect.arrayContaining(['200', '400', '401', '403', '404', '429']));
  });

  it('answers a body that is not JSON in the envelope, without quoting it', async () => {
    const res = await h.app.inject({
      method: 'POST',
      url: '/auth/login/',
      headers: { 'content-type': 'application/json' },
      payload: '{"password":"hunter2-secret",',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      status: 'ERROR',
      error: 'bad_request',
      message: 'The body is not valid JSON.',
      data: { message: 'The body is not valid JSON.' },
    });
  });

  it('refuses a control character in any input, naming the field, before it reaches the database', async () => {
    const res = await h.app.inject({ method: 'POST', url: '/auth/login/', payload: { username: 'ad\u0000min', password: 'x', captchaToken: 'y' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().data.message).toBe('username must not contain control characters.');
  });
});

// Issue 32, item 7: small leaks closed.
describe('source maps and Secure cookies', () => {
  const web = fs.mkdtempSync(path.join(os.tmpdir(), 'vpp-web-'));
  fs.mkdirSync(path.join(web, 'assets'));
  fs.writeFileSync(path.join(web, 'index.html'), '<!doctype html><title>VPP</title>');
  fs.writeFileSync(path.join(web, 'assets', 'app.js'), 'console.info(1);\n//# sourceMappingURL=app.js.map\n');
  fs.writeFileSync(path.join(web, 'assets', 'app.js.map'), '{"version":3,"sources":["src/secret.tsx"]}');
  const harnesses: Harness[] = [];
  const harness = async (env: Record<string, string>) => {
    const h = await createHarness('sqlite', { WEB_DIST: web, ...env });
    harnesses.push(h);
    return h;
  };
  afterAll(async () => {
    await Promise.all(harnesses.map((h) => h.close()));
    fs.rmSync(web, { recursive: true, force: true });
  });

  it("sends a script's precompressed file to a browser that accepts it, and compresses it otherwise", async () => {
    const script = 'console.info(1);\n'.repeat(100);
    fs.writeFileSync(path.join(web, 'assets', 'big.js'), script);
    fs.writeFileSync(path.join(web, 'assets', 'big.js.br'), zlib.brotliCompressSync(script));
    const h = await harness({});
    const br = await h.app.inject({ method: 'GET', url: '/assets/big.js', headers: { 'accept-encoding': 'br, gzip' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/^text\/javascript|^application\/javascript/);
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(script);
    // No .gz beside it: compressed as it is served.
    const gzip = await h.app.inject({ method: 'GET', url: '/assets/big.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gzip.rawPayload).toString()).toBe(script);
    const plain = await h.app.inject({ method: 'GET', url: '/assets/big.js' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
  });

  it('serves no source map in production mode, and serves them in the demo', async () => {
    const production = await harness({ DEMO: 'false' });
    expect((await production.app.inject({ method: 'GET', url: '/assets/app.js' })).statusCode).toBe(200);
    const map = await production.app.inject({ method: 'GET', url: '/assets/app.js.map' });
    expect(map.statusCode).toBe(404);
    expect(map.body).not.toContain('secret.tsx');
    const demo = await harness({ DEMO: 'true', SIMULATOR: 'false' });
    expect((await demo.app.inject({ method: 'GET', url: '/assets/app.js.map' })).body).toContain('secret.tsx');
  });

  /** The attributes of the refresh cookie a sign-in sets, reached with these headers. */
  const refreshCookie = async (h: Harness, headers: Record<string, string>) => {
    const { username } = await h.user(await h.org());
    const res = await h.app.inject({
      method: 'POST',
      url: '/auth/login/',
      headers,
      payload: { username, password: PASSWORD, captchaToken: await h.captcha() },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.cookies.find((c) => c.name === 'vpp_refresh');
  };

  it('marks cookies Secure behind a trusted proxy that reports HTTPS, and only then', async () => {
    const proxied = await harness({ TRUST_PROXY: 'true' });
    expect((await refreshCookie(proxied, { 'x-forwarded-proto': 'https' }))?.secure).toBe(true);
    expect((await refreshCookie(proxied, { 'x-forwarded-proto': 'http' }))?.secure).toBeFalsy();
    // Without TRUST_PROXY, anyone could send the header: it is not believed.
    const direct = await harness({});
    expect((await refreshCookie(direct, { 'x-forwarded-proto': 'https' }))?.secure).toBeFalsy();
    const configured = await harness({ COOKIE_SECURE: 'true' });
    expect((await refreshCookie(configured, {}))?.secure).toBe(true);
  });
});
