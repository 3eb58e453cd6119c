// Setup file of the server and crash projects (vitest.config.ts): each Vitest worker gets a PostgreSQL
// database of its own, the test database's name with `_w<worker>` (with the lane's name before it when
// TEST_DATABASE_LANE is set: scripts/test.mjs gives the crash lane `crash`, so `test_crash_w1`), created
// when missing. The one place a test database is created. Files run several at a time, and one file's
// DROP SCHEMA at its end, during another's migration in the same database, failed that migration with
// 'schema "t_…" does not exist' (Kysely's migrator reads the catalogue of every schema of its database).
// The crash lane's databases are apart from the units' for the same reason: a schema the units dropped
// while a crash test's server read the catalogue failed that start.
import pg from 'pg';

const base = process.env.TEST_DATABASE_URL_BASE ?? process.env.TEST_DATABASE_URL;
const worker = process.env.VITEST_POOL_ID;
if (base && worker) {
  process.env.TEST_DATABASE_URL_BASE = base;
  const url = new URL(base);
  const lane = process.env.TEST_DATABASE_LANE ? `_${process.env.TEST_DATABASE_LANE}` : '';
  const name = `${url.pathname.slice(1) || 'postgres'}${lane}_w${worker}`;
  url.pathname = `/${name}`;
  if (process.env.TEST_DATABASE_URL !== url.toString()) {
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    try {
      const { rowCount } = await admin.query('select 1 from pg_database where datname = $1', [name]);
      if (!rowCount) await admin.query(`create database "${name}"`);
    } finally {
      await admin.end();
    }
    process.env.TEST_DATABASE_URL = url.toString();
  }
}
