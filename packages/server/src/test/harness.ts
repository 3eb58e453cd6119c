import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { SuborgType } from '@vpp/shared/constants';
import { DEMO_PASSWORD } from '@vpp/shared/demo';
import { PERMISSIONS } from '@vpp/shared/permissions/registry';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import pg from 'pg';
import { afterAll, beforeAll, describe } from 'vitest';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { type DialectName, openDatabase } from '../db/database.ts';
import { createOrganisation, createUser } from '../features/users/index.ts';
import { type AppContext, createContext } from '../platform/context.ts';
import type { App } from '../platform/http.ts';
import { hashPassword } from '../platform/passwords.ts';

export const PASSWORD = DEMO_PASSWORD;
const pgUrl = process.env.TEST_DATABASE_URL;

/** A server on a fresh database, reached through `app.inject`, with factories for test data. */
export interface Harness {
  app: App;
  ctx: AppContext;
  dialect: DialectName;
  /** Solves a real captcha challenge from the server, as the browser widget would (one asked for a login when given). */
  captcha(login?: string): Promise<string>;
  /** Signs in (no two-factor) and returns the bearer header. */
  bearer(username: string): Promise<{ authorization: string }>;
  org(suborgType?: SuborgType, name?: string): Promise<number>;
  user(
    orgId: number,
    opts?: { username?: string; permissions?: string[]; mfaSecret?: string | null; mfa?: boolean },
  ): Promise<{ id: number; username: string }>;
  close(): Promise<void>;
}

let hashed: Promise<string> | undefined;

export async function createHarness(dialect: DialectName, env: Record<string, string> = {}): Promise<Harness> {
  const id = `t_${randomBytes(6).toString('hex')}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vpp-test-'));
  const config = loadConfig({ DATA_DIR: dataDir, DEMO: 'false', LOG_LEVEL: 'silent', CAPTCHA_COST: '200', ...env });
  const handle = await openDatabase({ url: dialect === 'postgres' ? pgUrl : undefined, dataDir, schema: dialect === 'postgres' ? id : undefined });
  const ctx = await createContext(config, handle.db, handle.dialect);
  const app = await buildApp(ctx, { logger: false });
  await app.ready();
  // A cheap scrypt cost for the fixtures' users: hundreds of sign-ins per suite, each verified at the
  // hash's own cost (the product's hashes keep theirs; passwords.test.ts covers that cost).
  hashed ??= hashPassword(PASSWORD, { N: 1024 });
  let n = 0;

  const h: Harness = {
    app,
    ctx,
    dialect,
    async captcha(login) {
      const url = login === undefined ? '/auth/captcha/challenge' : `/auth/captcha/challenge?login=${encodeURIComponent(login)}`;
      const challenge = (await app.inject({ method: 'GET', url })).json();
      const solution = await solveChallenge({ challenge, deriveKey });
      return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
    },
    async bearer(username) {
      const res = await app.inject({ method: 'POST', url: '/auth/login/', payload: { username, password: PASSWORD, captchaToken: await h.captcha() } });
      if (res.statusCode !== 200) throw new Error(`login ${username}: ${res.statusCode} ${res.body}`);
      return { authorization: `Bearer ${res.json().access_token}` };
    },
    org: (suborgType = 'RETAILER', name = `Org ${++n}`) => createOrganisation(handle.db, name, suborgType),
    async user(orgId, opts = {}) {
      const username = opts.username ?? `user${++n}`;
      const uid = await createUser(handle.db, {
        organisationId: orgId,
        username,
        email: `${username}@example.test`,
        givenName: 'Test',
        surname: username,
        passwordHash: await hashed!,
        permissions: opts.permissions ?? PERMISSIONS.map((p) => p.name),
        mfa: opts.mfa || opts.mfaSecret !== undefined ? { secret: opts.mfaSecret ?? null } : null,
      });
      return { id: uid, username };
    },
    async close() {
      await app.close();
      await handle.close();
      if (dialect === 'postgres') {
        const c = new pg.Client({ connectionString: pgUrl });
        await c.connect();
        await c.query(`DROP SCHEMA IF EXISTS "${id}" CASCADE`);
        await c.end();
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return h;
}

/**
 * Runs a suite once per database: always on SQLite, and on PostgreSQL when TEST_DATABASE_URL is
 * set (skipped otherwise, and counted as skipped by the runner).
 */
export function describeEachDatabase(name: string, suite: (h: () => Harness) => void, env: Record<string, string> = {}) {
  for (const dialect of ['sqlite', 'postgres'] as const) {
    describe.skipIf(dialect === 'postgres' && !pgUrl)(`${name} [${dialect}]`, () => {
      let harness: Harness;
      beforeAll(async () => {
        harness = await createHarness(dialect, env);
      });
      afterAll(async () => harness?.close());
      suite(() => harness);
    });
  }
}
