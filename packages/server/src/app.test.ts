// What the server tells the browser about itself: /meta.json and the content security policy,
// with and without analytics.
import { APP_VERSION } from '@vpp/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';
import { createHarness, type Harness } from './test/harness.ts';

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
    expect(res.json()).toEqual({ version: APP_VERSION, demo: false, mapTileUrl: null, analytics: null });
    expect(String(res.headers['content-security-policy']).split(';')).toContain("connect-src 'self'");
  });

  it('names the analytics endpoint and lets the browser reach it when ANALYTICS_DOMAIN is set', async () => {
    const res = await counted.app.inject({ method: 'GET', url: '/meta.json' });
    expect(res.json().analytics).toEqual({ domain: 'console.example.com.au', endpoint: 'https://stats.example.com.au/api/event' });
    expect(String(res.headers['content-security-policy']).split(';')).toContain("connect-src 'self' https://stats.example.com.au");
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
