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
