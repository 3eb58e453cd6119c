import { sql } from 'kysely';
import type { Database, DialectName } from '../db/database.ts';

/**
 * Columns that a read rightly changes: the time an API key was last used is the key's own record
 * of its use, written by every call it makes; a VPP's stored nameplate sums, summed again by the
 * first list after a change to its members (a cache, the same whoever reads first; its `version`,
 * which only a change bumps, is still compared).
 */
const BOOKKEEPING: Record<string, readonly string[]> = {
  api_keys: ['last_used_at'],
  powerstation_nameplates: ['nodes', 'battery_kwh', 'inverter_kw', 'battery_kw', 'summed_version'],
};

/**
 * Rows that a read rightly writes: the seeded price model's days are written when first read, a
 * cache of what the model computes, the same whoever reads it first.
 */
const CACHED: Record<string, (row: Record<string, unknown>) => boolean> = {
  market_model_days: () => true,
  market_prices: (row) => row.source === 'MODEL',
};

/** The tables of a database, read once per database: only a migration adds one. */
const tableLists = new WeakMap<Database, Promise<string[]>>();
function tablesOf(db: Database, dialect: DialectName): Promise<string[]> {
  let tables = tableLists.get(db);
  if (!tables) {
    tables = (async () => {
      const schema = dialect === 'postgres' ? (await sql<{ s: string }>`select current_schema() as s`.execute(db)).rows[0]?.s : undefined;
      return (await db.introspection.getTables({ withInternalKyselyTables: false }))
        .filter((t) => !t.isView && (dialect === 'sqlite' || t.schema === schema))
        .map((t) => t.name)
        .sort();
    })();
    tableLists.set(db, tables);
  }
  return tables;
}

export type DatabaseSnapshot = Record<string, string[]>;

/**
 * Every row of every table of the database, each table's rows in a stable order, for comparing the
 * whole database before and after something that should change nothing.
 */
export async function databaseSnapshot(db: Database, dialect: DialectName): Promise<DatabaseSnapshot> {
  const snapshot: DatabaseSnapshot = {};
  for (const table of await tablesOf(db, dialect)) {
    const rows = (await db.selectFrom(sql.table(table).as('t')).selectAll().execute()) as Record<string, unknown>[];
    const skip = BOOKKEEPING[table] ?? [];
    const cached = CACHED[table];
    snapshot[table] = rows
      .filter((row) => !cached?.(row))
      .map((row) =>
        JSON.stringify(
          Object.keys(row)
            .filter((k) => !skip.includes(k))
            .sort()
            .map((k) => [k, row[k] instanceof Uint8Array ? Buffer.from(row[k] as Uint8Array).toString('base64') : row[k]]),
        ),
      )
      .sort();
  }
  return snapshot;
}

/**
 * For a run of calls that should each change nothing: `before()` is the snapshot a call starts
 * from, `after()` the one it must equal. A call that left the database as it was hands its after
 * on as the next call's before (the same rows, read once instead of twice); any other outcome
 * (a failed assertion, a call that threw) makes the next call read its own.
 */
export function unchangedRun(db: Database, dialect: DialectName) {
  let kept: DatabaseSnapshot | undefined;
  return {
    async before(): Promise<DatabaseSnapshot> {
      const snapshot = kept ?? (await databaseSnapshot(db, dialect));
      kept = undefined;
      return snapshot;
    },
    async after(): Promise<DatabaseSnapshot> {
      return databaseSnapshot(db, dialect);
    },
    /** Called once the call's after-snapshot has been found equal to its before. */
    unchanged(snapshot: DatabaseSnapshot) {
      kept = snapshot;
    },
  };
}
