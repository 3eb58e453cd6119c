import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/database.ts';

const run = promisify(execFile);
const CLI = path.join(import.meta.dirname, 'prices-import.ts');
const SAMPLES = path.join(import.meta.dirname, '../features/market/samples');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vpp-prices-cli-'));

/** Runs `npm run prices:import -- …` as an operator would: its exit code and what it printed. */
async function importFiles(...files: string[]): Promise<{ code: number; out: string; err: string }> {
  const env = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', DEMO: 'false', LOG_LEVEL: 'silent' };
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', CLI, ...files], { env });
    return { code: 0, out: stdout, err: stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, out: err.stdout, err: err.stderr };
  }
}

async function storedPrices(): Promise<number> {
  const handle = await openDatabase({ dataDir });
  try {
    const row = await handle.db
      .selectFrom('market_prices')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  } finally {
    await handle.close();
  }
}

describe('npm run prices:import', () => {
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('refuses every file when one is malformed, naming its line, and writes nothing', async () => {
    const bad = path.join(dataDir, 'PRICE_AND_DEMAND_202502_SA1.csv');
    fs.writeFileSync(
      bad,
      'REGION,SETTLEMENTDATE,TOTALDEMAND,RRP,PERIODTYPE\nSA1,2025/02/01 00:05:00,1379.47,141.48,TRADE\nSA1,2025/02/01 00:10:00,1367.61,,TRADE\n',
    );
    const res = await importFiles(path.join(SAMPLES, 'PRICE_AND_DEMAND_202501_SA1.csv'), bad);
    expect(res.code).toBe(1);
    expect(res.err.trim()).toBe('Nothing was imported. PRICE_AND_DEMAND_202502_SA1.csv, line 3: RRP is not a number.');
    expect(await storedPrices()).toBe(0);
  });

  it('imports the sample files and says what it wrote', async () => {
    const res = await importFiles(
      path.join(SAMPLES, 'PRICE_AND_DEMAND_202501_SA1.csv'),
      path.join(SAMPLES, 'PUBLIC_DISPATCHIS_202501151005_0000000445123456.CSV'),
    );
    expect(res.err).toBe('');
    expect(res.code).toBe(0);
    expect(res.out.trim().split('\n')).toEqual([
      'PRICE_AND_DEMAND_202501_SA1.csv: PRICE_AND_DEMAND, 12 prices of SA1 from 2025-01-01 00:00 to 2025-01-01 01:00 market time; 12 written, 0 left as they were (a newer price was already stored).',
      'PUBLIC_DISPATCHIS_202501151005_0000000445123456.CSV: DISPATCHPRICE, 10 prices of NSW1, QLD1, SA1, TAS1, VIC1 from 2025-01-15 09:55 to 2025-01-15 10:05 market time; 10 written, 0 left as they were (a newer price was already stored).',
    ]);
    expect(await storedPrices()).toBe(22);
  });
});
