import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEMO_PASSWORD } from '@vpp/shared/demo';
import { PERMISSIONS } from '@vpp/shared/permissions/registry';
import pg from 'pg';
import { loadConfig } from '../packages/server/src/config.ts';
import { type Database, openDatabase } from '../packages/server/src/db/database.ts';
import { createOrganisation, createUser } from '../packages/server/src/features/users/index.ts';
import { createContext } from '../packages/server/src/platform/context.ts';
import { hashPassword } from '../packages/server/src/platform/passwords.ts';

/**
 * A retailer of the bench's own, with one user (every permission, the demo password): each part of
 * the bench that counts what it wrote works in an organisation of its own, so that another part's
 * real records (a settled dispatch's credits) do not add to its figures.
 */
export async function benchOrganisation(db: Database, name: string, username: string): Promise<number> {
  const org = await createOrganisation(db, name, 'RETAILER');
  await createUser(db, {
    organisationId: org,
    username,
    email: `${username}@example.test`,
    givenName: 'Bench',
    surname: 'User',
    passwordHash: await hashPassword(DEMO_PASSWORD),
    permissions: PERMISSIONS.map((p) => p.name),
    timezone: 'Australia/Sydney',
  });
  return org;
}

/**
 * A benchmark's own database (SQLite in a fresh data directory, or a fresh schema of
 * BENCH_DATABASE_URL), its context, and a retailer 'Bench Energy' with the user `bench` (every
 * permission, the demo password); `close()` drops the schema and the directory.
 */
export async function openBench(name: string, env: Record<string, string> = {}) {
  const pgUrl = process.env.BENCH_DATABASE_URL;
  const schema = `bench_${randomBytes(4).toString('hex')}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `vpp-bench-${name}-`));
  const config = loadConfig({ DATA_DIR: dataDir, DEMO: 'false', LOG_LEVEL: 'silent', CAPTCHA_COST: '500', ...env });
  const handle = await openDatabase({ url: pgUrl, dataDir, schema: pgUrl ? schema : undefined });
  const ctx = await createContext(config, handle.db, handle.dialect);
  const org = await benchOrganisation(handle.db, 'Bench Energy', 'bench');
  const close = async () => {
    await handle.close();
    if (pgUrl) {
      const c = new pg.Client({ connectionString: pgUrl });
      await c.connect();
      await c.query(`drop schema if exists "${schema}" cascade`);
      await c.end();
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  return { handle, ctx, org, schema, dataDir, close };
}
