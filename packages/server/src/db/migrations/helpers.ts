import { type CreateTableBuilder, type Kysely, PostgresAdapter } from 'kysely';

// What migrations share. A migration imports only Kysely and this file: it must mean the same thing
// forever, whatever the application's constants become.

/** An auto-incrementing integer primary key on either database. */
export function withId<T extends string>(db: Kysely<unknown>, table: CreateTableBuilder<T, never>) {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  return pg
    ? table.addColumn('id', 'integer', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}
