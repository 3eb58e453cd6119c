import { sql } from 'kysely';
import type { Database, DialectName } from '../db/database.ts';

/**
 * Columns that a read rightly changes: the time an API key was last used is the key's own record
 * of its use, written by every call it makes.
 */
const BOOKKEEPING: Record<string, readonly string[]> = { api_keys: ['last_used_at'] };

/**
 * Rows that a read rightly writes: the seeded price model's days are written when first read, a
 * cache of what the model computes, the same whoever reads it first.
 */
const CACHED: Record<string, (row: Record<string, unknown>) => boolean> = {
  market_model_days: () => true,
  market_prices: (row) => row.source === 'MODEL',
};

/**
 * Every row of every table of the database, each table's rows in a stable order, for comparing the
 * whole database before and after something that should change nothing.
 */
export async function databaseSnapshot(db: Database, dialect: DialectName): Promise<Record<string, string[]>> {
  const schema = dialect === 'postgres' ? (await sql<{ s: string }>`select current_schema() as s`.execute(db)).rows[0]?.s : undefined;
  const tables = (await db.introspection.getTables({ withInternalKyselyTables: false }))
    .filter((t) => !t.isView && (dialect === 'sqlite' || t.schema === schema))
    .map((t) => t.name)
    .sort();
  const snapshot: Record<string, string[]> = {};
  for (const table of tables) {
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
