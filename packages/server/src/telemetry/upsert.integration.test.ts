import { sql } from 'kysely';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../test/harness.ts';
import { TelemetryIngest } from './ingest.ts';
import type { UpsertMode } from './pg-write.ts';

const N = Number.NaN;
const ROW_COLS = ['node_id', 'ts', 'cov', 'a', 'b'];
const LATEST_COLS = ['node_id', 'ts', 'a', 'b'];

// The write path every telemetry table is upserted through, on tables of the same shape: the
// rollups' (key, ts, covered seconds, values) and the latest values' (node, ts, values). Values are
// exact in float32, so both databases give the very same numbers.
describeEachDatabase('telemetry upserts', (h) => {
  let ingest: TelemetryIngest;
  const db = () => h().ctx.db;
  const write = (table: string, cols: string[], flat: number[], mode: UpsertMode) =>
    db()
      .transaction()
      .execute((trx) => ingest.write(trx, table, cols, flat, mode));
  const rows = async (table: string) =>
    (await sql<Record<string, number | null>>`select * from ${sql.table(table)} order by 1, 2`.execute(db())).rows.map((r) => ({ ...r }));

  beforeAll(async () => {
    ingest = new TelemetryIngest(db(), h().dialect, 86400);
    for (const name of ['kept', 'summed', 'fallback', 'repeated', 'undone'])
      await sql`create table ${sql.table(name)} (node_id integer not null, ts bigint not null, cov real not null, a real, b real, primary key (node_id, ts))`.execute(
        db(),
      );
    await sql`create table newest (node_id integer primary key, ts bigint not null, a real, b real)`.execute(db());
  });

  it('keeps the rows first stored when told to ignore', async () => {
    await write('kept', ROW_COLS, [1, 0, 30, 1.5, N, 1, 30, 30, 2, 3], 'ignore');
    await write('kept', ROW_COLS, [1, 30, 30, 9, 9, 1, 60, 30, 4, N], 'ignore');
    expect(await rows('kept')).toEqual([
      { node_id: 1, ts: 0, cov: 30, a: 1.5, b: null },
      { node_id: 1, ts: 30, cov: 30, a: 2, b: 3 },
      { node_id: 1, ts: 60, cov: 30, a: 4, b: null },
    ]);
  });

  it('adds to the rows there, a missing value counting as none (null + x = x, null + null = null)', async () => {
    await write('summed', ROW_COLS, [2, 0, 30, 1, N, 2, 300, 30, 0.5, N], 'add');
    await write('summed', ROW_COLS, [2, 0, 30, 2, 5, 2, 300, 30, N, N, 3, 0, 60, 0.25, 0.75], 'add');
    expect(await rows('summed')).toEqual([
      { node_id: 2, ts: 0, cov: 60, a: 3, b: 5 },
      { node_id: 2, ts: 300, cov: 60, a: 0.5, b: null },
      { node_id: 3, ts: 0, cov: 60, a: 0.25, b: 0.75 },
    ]);
  });

  it('replaces the latest values by newer ones only, nulls included', async () => {
    await write('newest', LATEST_COLS, [1, 100, 1, 2, 2, 100, 3, 4], 'latest');
    await write('newest', LATEST_COLS, [1, 50, 9, 9, 2, 200, N, 8, 3, 10, 5, N], 'latest');
    expect(await rows('newest')).toEqual([
      { node_id: 1, ts: 100, a: 1, b: 2 },
      { node_id: 2, ts: 200, a: null, b: 8 },
      { node_id: 3, ts: 10, a: 5, b: null },
    ]);
  });

  it('adds to a row already there among many new ones', async () => {
    // On PostgreSQL the rows look new (the check before a plain copy does not look at the second),
    // so the copy meets the stored row, is undone, and the rows are upserted instead.
    await write('fallback', ROW_COLS, [7, 300, 30, 1, 1], 'add');
    const flat: number[] = [];
    for (let i = 0; i < 100; i++) flat.push(7, i * 300, 30, i, N);
    await write('fallback', ROW_COLS, flat, 'add');
    const stored = await rows('fallback');
    expect(stored).toHaveLength(100);
    expect(stored[0]).toEqual({ node_id: 7, ts: 0, cov: 30, a: 0, b: null });
    expect(stored[1]).toEqual({ node_id: 7, ts: 300, cov: 60, a: 2, b: 1 });
    expect(stored[99]).toEqual({ node_id: 7, ts: 99 * 300, cov: 30, a: 99, b: null });
  });

  it('adds every write of one transaction, and nothing of one rolled back', async () => {
    const batch = [4, 0, 30, 1, N, 4, 300, 30, 2, 0.5];
    await db()
      .transaction()
      .execute(async (trx) => {
        for (let i = 0; i < 3; i++) await ingest.write(trx, 'repeated', ROW_COLS, batch, 'add');
      });
    expect(await rows('repeated')).toEqual([
      { node_id: 4, ts: 0, cov: 90, a: 3, b: null },
      { node_id: 4, ts: 300, cov: 90, a: 6, b: 1.5 },
    ]);

    await write('undone', ROW_COLS, batch, 'add');
    const rollback = db()
      .transaction()
      .execute(async (trx) => {
        await ingest.write(trx, 'undone', ROW_COLS, batch, 'add');
        throw new Error('given up');
      });
    await expect(rollback).rejects.toThrow('given up');
    // The next transaction writes as if the one rolled back had never been.
    await write('undone', ROW_COLS, batch, 'add');
    expect(await rows('undone')).toEqual([
      { node_id: 4, ts: 0, cov: 60, a: 2, b: null },
      { node_id: 4, ts: 300, cov: 60, a: 4, b: 1 },
    ]);
  });
});
