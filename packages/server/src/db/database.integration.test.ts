import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { openDatabase } from './database.ts';

it('folds the SQLite write-ahead log into the database file from its worker, without being asked', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vpp-wal-'));
  const file = path.join(dataDir, 'console.db');
  const handle = await openDatabase({ dataDir });
  try {
    await sql`create table filler (id integer primary key, text text not null)`.execute(handle.db);
    const before = fs.statSync(file).size;
    // About 3 MB: far below the connection's own checkpoint threshold, so only the worker moves it.
    await handle.db.transaction().execute(async (trx) => {
      for (let i = 0; i < 30; i++) {
        await trx
          .insertInto('filler' as never)
          .values(Array.from({ length: 100 }, (_, k) => ({ id: i * 100 + k, text: 'x'.repeat(1000) })) as never)
          .execute();
      }
    });
    await expect.poll(() => fs.statSync(file).size, { timeout: 10_000, interval: 200 }).toBeGreaterThan(before + 2_000_000);
  } finally {
    await handle.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
