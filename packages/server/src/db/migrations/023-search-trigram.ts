import { type Kysely, type Migration, PostgresAdapter, sql } from 'kysely';

const isPg = (db: Kysely<unknown>) => db.getExecutor().adapter instanceof PostgresAdapter;

/**
 * Issue 19: on PostgreSQL, trigram indexes for the fleet search (`like '%…%'`): on the search text
 * of every node and on each organisation's site labels, as the search compares them. SQLite has no
 * such index: nothing there.
 */
export const searchTrigram: Migration = {
  async up(db: Kysely<unknown>) {
    if (!isPg(db)) return;
    // The extension is the database's, not the schema's: in `public`, so that dropping a schema
    // (a test's, a benchmark's) never drops it under the others. Two schemas migrating at once
    // would both try to create it: the lock holds the second until the first commits.
    await sql`select pg_advisory_xact_lock(hashtext('vpp pg_trgm'))`.execute(db);
    await sql`create extension if not exists pg_trgm with schema public`.execute(db);
    const { rows } = await sql<{ schema: string }>`select extnamespace::regnamespace::text as schema from pg_extension where extname = 'pg_trgm'`.execute(db);
    const ops = sql.raw(`${rows[0].schema}.gin_trgm_ops`);
    // Written straight into (fastupdate off), not through GIN's list of pending entries: a fleet
    // enrolled in bulk would leave it long, to be scanned by every search until a vacuum, and the
    // planner would turn to reading the whole table instead. Nodes join and change rarely.
    await sql`create index node_search_trgm on node_search using gin (search_text ${ops}) with (fastupdate = off)`.execute(db);
    await sql`create index fleet_members_label_trgm on fleet_members using gin ((replace(lower(site_label), ',', ' ')) ${ops}) with (fastupdate = off) where site_label is not null`.execute(
      db,
    );
  },
  async down(db: Kysely<unknown>) {
    if (!isPg(db)) return;
    await sql`drop index fleet_members_label_trgm`.execute(db);
    await sql`drop index node_search_trgm`.execute(db);
  },
};
