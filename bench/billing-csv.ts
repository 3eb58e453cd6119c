// `npm run bench:billing` (BENCH_DATABASE_URL for PostgreSQL): the billing figures of `npm run bench`
// alone, without building a fleet, and the events CSV's time split into the database's part (the
// stream read in process) and the whole (over HTTP): what to look at when the CSV is slow.

import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEMO_PASSWORD, epochToLocalDate, PERMISSIONS } from '@vpp/shared';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import pg from 'pg';
import { buildApp } from '../packages/server/src/app.ts';
import { loadConfig } from '../packages/server/src/config.ts';
import { openDatabase } from '../packages/server/src/db/database.ts';
import { eventsCsv } from '../packages/server/src/features/billing/billing.csv.ts';
import { createOrganisation, createUser } from '../packages/server/src/features/users/index.ts';
import { createContext } from '../packages/server/src/platform/context.ts';
import { hashPassword } from '../packages/server/src/platform/passwords.ts';
import { benchBilling } from './billing.ts';

const pgUrl = process.env.BENCH_DATABASE_URL;
const customers = Number(process.env.BENCH_CUSTOMERS ?? 50_000);
const schema = `bench_${randomBytes(4).toString('hex')}`;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vpp-bench-billing-'));
const config = loadConfig({ DATA_DIR: dataDir, DEMO: 'false', LOG_LEVEL: 'silent', CAPTCHA_COST: '500' });
const handle = await openDatabase({ url: pgUrl, dataDir, schema: pgUrl ? schema : undefined });
const ctx = await createContext(config, handle.db, handle.dialect);
const org = await createOrganisation(handle.db, 'Bench Energy', 'RETAILER');
await createUser(handle.db, {
  organisationId: org,
  username: 'bench',
  email: 'bench@example.test',
  givenName: 'Bench',
  surname: 'User',
  passwordHash: await hashPassword(DEMO_PASSWORD),
  permissions: PERMISSIONS.map((p) => p.name),
  timezone: 'Australia/Sydney',
});
const app = await buildApp(ctx, { logger: false });
const base = await app.listen({ port: 0, host: '127.0.0.1' });
const challenge = await (await fetch(`${base}/auth/captcha/challenge`)).json();
const solution = await solveChallenge({ challenge, deriveKey });
const login = await fetch(`${base}/auth/login/`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ username: 'bench', password: DEMO_PASSWORD, captchaToken: Buffer.from(JSON.stringify({ challenge, solution })).toString('base64') }),
});
const { access_token } = (await login.json()) as { access_token: string };
const results = await benchBilling(ctx, base, { authorization: `Bearer ${access_token}` }, org, customers);

// The same file read in process, no HTTP: the database's and the formatter's share of the time.
const now = Math.floor(Date.now() / 1000);
const first = epochToLocalDate(now - 30 * 86400, 'Australia/Sydney');
const last = epochToLocalDate(now - 86400, 'Australia/Sydney');
const t = performance.now();
let bytes = 0;
for await (const chunk of eventsCsv(ctx.db, org, first, last)) bytes += (chunk as string).length;
const inProcessS = (performance.now() - t) / 1000;
const inProcess = { billingEventsCsvInProcessLinesPerS: Math.round(results.billingCsvLines / inProcessS), billingEventsCsvMiB: Math.round(bytes / 2 ** 20) };
// biome-ignore lint/suspicious/noConsole: the benchmark prints its figures as a table
console.table({ ...results, ...inProcess, dialect: handle.dialect });

await app.close();
await handle.close();
if (pgUrl) {
  const c = new pg.Client({ connectionString: pgUrl });
  await c.connect();
  await c.query(`drop schema if exists "${schema}" cascade`);
  await c.end();
}
fs.rmSync(dataDir, { recursive: true, force: true });
