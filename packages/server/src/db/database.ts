import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { DatabaseSync, type SQLInputValue } from 'node:sqlite';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { CompiledQuery, type DatabaseConnection, Kysely, type Migration, Migrator, PostgresDialect, SqliteDialect, sql, type Transaction } from 'kysely';
import pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import type { DB } from './schema.ts';

export type Database = Kysely<DB>;
export type DialectName = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  db: Database;
  dialect: DialectName;
  close(): Promise<void>;
}

// int8 (counts, epoch seconds) and numeric come back as numbers, as they do from SQLite.
pg.types.setTypeParser(20, (v) => Number(v));
pg.types.setTypeParser(1700, (v) => Number(v));

const bindable = (v: unknown): SQLInputValue => (typeof v === 'boolean' ? (v ? 1 : 0) : (v as SQLInputValue));

/** Runs one write statement straight on the SQLite connection (see `bulkWriter`). */
export type BulkWriter = (text: string, params: readonly number[]) => void;

const bulkWriters = new WeakMap<Database, BulkWriter>();

/** Runs one read statement (`?` placeholders) straight on the driver, its rows as arrays (see `arrayReader`). */
export type ArrayReader = (text: string, params: readonly (string | number)[]) => Promise<unknown[][]>;
const arrayReaders = new WeakMap<Database, ArrayReader>();

/**
 * A reader that answers rows as arrays straight from the driver (SQLite: a cached statement on the
 * connection; PostgreSQL: the pool with pg's array rows), for reads of many rows written straight
 * out (the billing CSV): no object per row, no copy of the rows through Kysely.
 */
/** Streams the output of a `COPY … TO STDOUT` statement, as the server sends it (see `copyReader`). */
export type CopyReader = (text: string) => AsyncGenerator<Buffer>;
const copyReaders = new WeakMap<Database, CopyReader>();

/**
 * On PostgreSQL, a reader of `COPY (query) TO STDOUT`: the server streams the rows with no page
 * queries, and the pool's connection is held only while the copy runs (backpressure through the
 * stream). A copy abandoned half-way leaves its connection mid-protocol: that one is discarded.
 * Undefined on SQLite. COPY takes no parameters: the caller inlines only values it has validated.
 */
export const copyReader = (db: Database): CopyReader | undefined => copyReaders.get(db);

/** The pg client beneath each of Kysely's PostgreSQL connections, for what Kysely cannot send. */
const pgClients = new WeakMap<DatabaseConnection, pg.PoolClient>();

/**
 * On PostgreSQL, runs `COPY … FROM STDIN` with `data` (the bytes in COPY's format, in chunks) on the
 * connection of the transaction `trx`, so that what it copies commits or rolls back with the
 * transaction. Nothing else runs on the transaction meanwhile.
 */
export async function copyIn(trx: Transaction<DB>, text: string, data: Iterable<Buffer>): Promise<void> {
  // Outside a transaction each statement could take another connection of the pool.
  if (!trx.isTransaction) throw new Error('COPY FROM STDIN runs inside a transaction');
  await trx.getExecutor().provideConnection(async (connection) => {
    const client = pgClients.get(connection);
    if (!client) throw new Error('COPY FROM STDIN needs a PostgreSQL connection');
    await pipeline(Readable.from(data), client.query(copyFrom(text)));
  });
}

export const arrayReader = (db: Database): ArrayReader => {
  const read = arrayReaders.get(db);
  if (!read) throw new Error('No array reader for this database');
  return read;
};

/**
 * On SQLite, a writer that binds numbers straight to a cached statement on the connection, for the
 * telemetry ingest's large multi-row upserts: it skips Kysely's freezing and copying of thousands of
 * parameters. Called inside a Kysely transaction it is part of that transaction (one connection).
 * Undefined on PostgreSQL.
 */
export const bulkWriter = (db: Database): BulkWriter | undefined => bulkWriters.get(db);

/**
 * Checkpoints the write-ahead log from a worker thread with its own connection, so that copying
 * pages into the database file never stalls the server's event loop. PASSIVE checkpoints do not
 * block the writer. The script is plain CommonJS, evaluated, so it runs the same under any loader.
 */
const CHECKPOINTER = `
const { DatabaseSync } = require('node:sqlite');
const { parentPort, workerData } = require('node:worker_threads');
let db = null;
try {
  db = new DatabaseSync(workerData.file);
  db.exec('PRAGMA busy_timeout = 1000');
} catch {
  // The database was closed (and its file removed) before this thread started: nothing to do.
  db = null;
}
if (db === null) parentPort.close();
else {
  const timer = setInterval(() => {
    try { db.exec('PRAGMA wal_checkpoint(PASSIVE)'); } catch {}
  }, workerData.everyMs);
  parentPort.on('message', () => { clearInterval(timer); db.close(); parentPort.close(); });
}
`;

/**
 * The checkpointers told to close and not yet ended. Kysely does not wait for a connection's close, so
 * `openDatabase`'s close waits for these: until its checkpointer has ended, a database is not closed
 * (a checkpointer starting late opens the file, creating it anew; CI met a data folder that could not
 * be removed after its database was closed).
 */
const closingCheckpointers = new Set<Promise<unknown>>();

/**
 * Kysely's SqliteDialect over the built-in node:sqlite, with prepared statements cached by SQL text.
 * `readOnly`: a reader's connection (see `openReader`), which neither sets up the file nor checkpoints.
 */
function nodeSqliteDialect(file: string, onOpen: (bulk: BulkWriter, read: ArrayReader) => void, readOnly = false): SqliteDialect {
  return new SqliteDialect({
    database: async () => {
      const conn = new DatabaseSync(file, { readOnly });
      // The connection itself checkpoints only if the worker falls far behind (65,536 pages); after a
      // checkpoint the log file is cut back to 64 MiB rather than kept at its largest.
      conn.exec(
        readOnly
          ? 'PRAGMA busy_timeout = 5000; PRAGMA cache_size = -65536; PRAGMA temp_store = MEMORY; PRAGMA mmap_size = 1073741824;'
          : 'PRAGMA page_size = 16384; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000; PRAGMA cache_size = -262144; PRAGMA temp_store = MEMORY; PRAGMA mmap_size = 1073741824; PRAGMA wal_autocheckpoint = 65536; PRAGMA journal_size_limit = 67108864;',
      );
      const checkpointer = readOnly ? null : new Worker(CHECKPOINTER, { eval: true, workerData: { file, everyMs: 1000 } });
      checkpointer?.unref();
      // Checkpointing is housekeeping: a thread that cannot do it must never take the process down.
      checkpointer?.on('error', () => undefined);
      const ended = checkpointer ? once(checkpointer, 'exit') : null;
      const cache = new Map<string, ReturnType<DatabaseSync['prepare']>>();
      const prepared = (text: string) => {
        let stmt = cache.get(text);
        if (!stmt) {
          stmt = conn.prepare(text);
          if (cache.size > 500) cache.clear();
          cache.set(text, stmt);
        }
        return stmt;
      };
      // Statements that answer arrays are kept apart: the setting belongs to the statement.
      const arrays = new Map<string, ReturnType<DatabaseSync['prepare']>>();
      const readArrays: ArrayReader = (text, params) => {
        let stmt = arrays.get(text);
        if (!stmt) {
          stmt = conn.prepare(text);
          stmt.setReturnArrays(true);
          if (arrays.size > 50) arrays.clear();
          arrays.set(text, stmt);
        }
        return Promise.resolve(stmt.all(...params) as unknown as unknown[][]);
      };
      onOpen((text, params) => prepared(text).run(...params), readArrays);
      return {
        close: () => {
          // The worker closes its own connection; whichever closes last folds the log into the file. It is
          // held (ref) until it ends: a close awaited last, with nothing else to wait for, would otherwise
          // leave the event loop empty and end the process with its await unsettled (exit code 13).
          checkpointer?.ref();
          checkpointer?.postMessage('close');
          conn.close();
          if (ended) {
            closingCheckpointers.add(ended);
            void ended.finally(() => closingCheckpointers.delete(ended));
          }
        },
        prepare: (text: string) => {
          const s = prepared(text);
          return {
            reader: s.columns().length > 0,
            all: (params: readonly unknown[]) => s.all(...params.map(bindable)),
            run: (params: readonly unknown[]) => {
              const r = s.run(...params.map(bindable));
              return { changes: r.changes, lastInsertRowid: r.lastInsertRowid };
            },
            iterate: (params: readonly unknown[]) => s.iterate(...params.map(bindable)),
          };
        },
      };
    },
  });
}

/** Where a database lives, for another thread to open it too: the SQLite file, or PostgreSQL's URL and schema. */
export type DatabaseSource = { dialect: 'sqlite'; file: string } | { dialect: 'postgres'; url: string; schema?: string };
const sources = new WeakMap<Database, DatabaseSource>();

/** The source `db` was opened from (see `readerOf`). */
export function databaseSource(db: Database): DatabaseSource {
  const source = sources.get(db);
  if (!source) throw new Error('This database was not opened by openDatabase');
  return source;
}

/** Kysely over the source, with its array reader (and on PostgreSQL its COPY reader; on SQLite, unless a reader, its bulk writer). */
function connect(source: DatabaseSource, readOnly: boolean): Database {
  let db: Database;
  if (source.dialect === 'postgres') {
    const pool = new pg.Pool({
      connectionString: source.url,
      max: readOnly ? 2 : 10,
      options: source.schema ? `-c search_path="${source.schema}"` : undefined,
    });
    // Kysely hides the pg client of its connections: each new one is matched to its client by the
    // server's process id, which pg learns as it connects, before the pool hands the client out.
    const byPid = new Map<number, pg.PoolClient>();
    const pidOf = (client: pg.PoolClient) => (client as unknown as { processID: number }).processID;
    pool.on('connect', (client) => byPid.set(pidOf(client), client));
    pool.on('remove', (client) => byPid.delete(pidOf(client)));
    const onCreateConnection = async (connection: DatabaseConnection) => {
      const { rows } = await connection.executeQuery<{ pid: number }>(CompiledQuery.raw('select pg_backend_pid() as pid'));
      const client = byPid.get(rows[0].pid);
      if (client) pgClients.set(connection, client);
    };
    db = new Kysely<DB>({ dialect: new PostgresDialect({ pool, onCreateConnection }) });
    copyReaders.set(db, async function* (text) {
      const client = await pool.connect();
      let finished = false;
      try {
        for await (const chunk of client.query(copyTo(text))) yield chunk as Buffer;
        finished = true;
      } finally {
        client.release(finished ? undefined : true);
      }
    });
    const numbered = new Map<string, string>();
    arrayReaders.set(db, async (text, params) => {
      let pgText = numbered.get(text);
      if (pgText === undefined) {
        let n = 0;
        pgText = text.replace(/\?/g, () => `$${++n}`);
        if (numbered.size > 50) numbered.clear();
        numbered.set(text, pgText);
      }
      return (await pool.query({ text: pgText, values: params as (string | number)[], rowMode: 'array' })).rows;
    });
  } else {
    const sqlite: Database = new Kysely<DB>({
      dialect: nodeSqliteDialect(
        source.file,
        (bulk, read) => {
          if (!readOnly) bulkWriters.set(sqlite, bulk);
          arrayReaders.set(sqlite, read);
        },
        readOnly,
      ),
    });
    db = sqlite;
  }
  sources.set(db, source);
  return db;
}

/**
 * Opens the database: PostgreSQL when a URL is given, otherwise the SQLite file `console.db` in
 * the data directory. `schema` (PostgreSQL only) puts every table in that schema, for tests.
 */
export async function openDatabase(opts: { url?: string; dataDir: string; schema?: string; migrateTo?: string }): Promise<DatabaseHandle> {
  let source: DatabaseSource;
  if (opts.url) {
    source = { dialect: 'postgres', url: opts.url, ...(opts.schema && { schema: opts.schema }) };
    if (opts.schema) {
      const admin = new pg.Client({ connectionString: opts.url });
      await admin.connect();
      await admin.query(`CREATE SCHEMA IF NOT EXISTS "${opts.schema}"`);
      await admin.end();
    }
  } else {
    fs.mkdirSync(opts.dataDir, { recursive: true });
    source = { dialect: 'sqlite', file: path.join(opts.dataDir, 'console.db') };
  }
  const db = connect(source, false);
  await migrate(db, opts.url ? opts.schema : undefined, opts.migrateTo);
  const close = async () => {
    await db.destroy();
    await Promise.all(closingCheckpointers);
  };
  return { db, dialect: source.dialect, close };
}

/** Readers kept open in this thread, by source, the most recently used last. */
const readers = new Map<string, Promise<Database>>();
const READERS_KEPT = 4;

/**
 * A reader of the database at `source` for a worker thread (platform/run-in-worker.ts): on SQLite a
 * read-only connection of its own (in write-ahead-log mode readers and the server's writer never
 * wait for each other), on PostgreSQL a pool of two connections; no migrations run. Answered once
 * connected, and kept open for the thread's next task (the last few sources).
 */
export function readerOf(source: DatabaseSource): Promise<Database> {
  const key = JSON.stringify(source);
  let reader = readers.get(key);
  if (reader) readers.delete(key);
  else {
    const db = connect(source, true);
    reader = ping(db).then(() => db);
    reader.catch(() => readers.delete(key));
    for (const [k, old] of readers) {
      if (readers.size < READERS_KEPT) break;
      readers.delete(k);
      void old.then((o) => o.destroy()).catch(() => undefined);
    }
  }
  readers.set(key, reader);
  return reader;
}

const MIGRATIONS_DIR = path.join(import.meta.dirname, 'migrations');
const MIGRATION_FILE = /^(\d{3}-[a-z0-9-]+)\.ts$/;

/**
 * Every migration of `db/migrations/`, by name (its file's name, `NNN-name`; names sort as they
 * run): a new one is found by being there, with no list to edit. Each file exports one Migration.
 */
export async function migrations(): Promise<Record<string, Migration>> {
  const out: Record<string, Migration> = {};
  for (const file of fs.readdirSync(MIGRATIONS_DIR).sort()) {
    const name = MIGRATION_FILE.exec(file)?.[1];
    if (!name) continue;
    const exported = Object.values(await import(pathToFileURL(path.join(MIGRATIONS_DIR, file)).href)).filter(
      (v): v is Migration => typeof (v as Migration | null)?.up === 'function',
    );
    if (exported.length !== 1) throw new Error(`Migration ${file} must export exactly one migration, not ${exported.length}`);
    out[name] = exported[0];
  }
  return out;
}

/**
 * Brings the schema up to date (or to the migration `to`: the upgrade tests build a database as an
 * earlier release left it); fails loudly, naming the migration, if one cannot run.
 */
export async function migrate(db: Database, schema?: string, to?: string): Promise<void> {
  // With a schema named, the migration tables are looked for there only: another schema of the same
  // database (a parallel test run, a benchmark) must not be mistaken for ours.
  const migrator = new Migrator({ db, provider: { getMigrations: migrations }, ...(schema ? { migrationTableSchema: schema } : {}) });
  const { error, results } = await (to ? migrator.migrateTo(to) : migrator.migrateToLatest());
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
}

/** Whether the database answers: the health check. */
export async function ping(db: Database): Promise<boolean> {
  await sql`select 1`.execute(db);
  return true;
}

// The clock. Real time, unless a test runs it fast (CLOCK_RATE): the crash tests play a whole
// dispatch, from its orders to its settlement, in seconds, across a kill and a restart.
let clockRate = 1;
let clockAnchor = 0;

/**
 * Runs the clock `rate` times faster than real time from `anchorS` (epoch seconds) on: every
 * process given the same anchor and rate reads the same time. Rate 1 is real time.
 */
export function setClock(rate: number, anchorS: number): void {
  clockRate = rate;
  clockAnchor = anchorS;
}

/**
 * Whether PostgreSQL refused a transaction for another one's concurrent writes: a serialization
 * failure (40001, a repeatable-read transaction whose rows another committed meanwhile) or a
 * deadlock (40P01). Such a transaction is safe to run again from its start.
 */
export const isSerializationConflict = (err: unknown) => ['40P01', '40001'].includes(String((err as { code?: unknown })?.code));

/** Current time in epoch seconds. */
export const nowS = () => {
  const t = Date.now() / 1000;
  return Math.floor(clockRate === 1 ? t : clockAnchor + (t - clockAnchor) * clockRate);
};

/** Real milliseconds that `s` seconds of the clock take: for timers that wait on the clock. */
export const clockMs = (s: number) => (s * 1000) / clockRate;

/**
 * Reads rows in pages of ascending id (keyset, never OFFSET), the event loop free between pages:
 * SQLite answers synchronously, so one read of a whole large fleet would hold every other request.
 */
export async function readInIdPages<R extends { id: number }>(page: (afterId: number, size: number) => Promise<R[]>, size = 5000): Promise<R[]> {
  const out: R[] = [];
  for (let after = 0; ; ) {
    const rows = await page(after, size);
    for (const r of rows) out.push(r);
    if (rows.length < size) return out;
    after = rows[rows.length - 1].id;
    await yieldToLoop();
  }
}

/** The longest a long read computes before it lets the event loop run (ms). */
export const SLICE_MS = 5;

/**
 * A long computation's checkpoint: `await pause()` lets the event loop run (the requests waiting, a
 * /healthz, another user's list) once `ms` have passed since the last time it did, and returns at
 * once otherwise. SQLite answers synchronously, so a long read holds every other request for as long
 * as it computes without one.
 */
export function timeSlices(ms = SLICE_MS): () => Promise<void> | undefined {
  let since = performance.now();
  return () => {
    if (performance.now() - since < ms) return undefined;
    return yieldToLoop().then(() => {
      since = performance.now();
    });
  };
}

/** [start, end) cut into windows of `width` seconds, the event loop free between them. */
export async function* timeWindows(start: number, end: number, width: number): AsyncGenerator<[number, number]> {
  for (let from = start; from < end; from += width) {
    if (from > start) await yieldToLoop();
    yield [from, Math.min(from + width, end)];
  }
}
