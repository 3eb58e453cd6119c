// `npm run bench:billing` (BENCH_DATABASE_URL for PostgreSQL): the billing figures of `npm run bench`
// alone, without building a fleet, and the events CSV's time split into the database's part (the
// stream read in process) and the whole (over HTTP): what to look at when the CSV is slow.

import { epochToLocalDate } from '@vpp/shared/time';
import { buildApp } from '../packages/server/src/app.ts';
import { eventsCsv } from '../packages/server/src/features/billing/billing.csv.service.ts';
import { benchBilling } from './billing.ts';
import { openBench } from './setup.ts';

const customers = Number(process.env.BENCH_CUSTOMERS ?? 50_000);
const { handle, ctx, close } = await openBench('billing');
const app = await buildApp(ctx, { logger: false });
const base = await app.listen({ port: 0, host: '127.0.0.1' });
const { org, figures: results } = await benchBilling(ctx, base, customers);

// The same file read in process on this thread, no HTTP: the database's and the formatter's share of the time.
const now = Math.floor(Date.now() / 1000);
const first = epochToLocalDate(now - 30 * 86400, 'Australia/Sydney');
const last = epochToLocalDate(now - 86400, 'Australia/Sydney');
const t = performance.now();
let bytes = 0;
for await (const chunk of eventsCsv(ctx.db, org, first, last, { thread: 'request' })) bytes += (chunk as string).length;
const inProcessS = (performance.now() - t) / 1000;
const inProcess = { billingEventsCsvInProcessLinesPerS: Math.round(results.billingCsvLines / inProcessS), billingEventsCsvMiB: Math.round(bytes / 2 ** 20) };
// biome-ignore lint/suspicious/noConsole: the benchmark prints its figures as a table
console.table({ ...results, ...inProcess, dialect: handle.dialect });

await app.close();
await close();
