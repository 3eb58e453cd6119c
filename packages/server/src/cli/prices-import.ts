// Imports AEMO price files into the market prices:
//   npm run prices:import -- PRICE_AND_DEMAND_202501_NSW1.csv PUBLIC_DISPATCHIS_202501151005_0000000445123456.zip …
// Actual prices: PRICE_AND_DEMAND CSV files and MMS files holding the DISPATCHPRICE table; forecasts
// (stored apart, with each run's issue time): MMS files holding P5MIN_REGIONSOLUTION or
// PREDISPATCHPRICE; plain or zipped. Every
// file is read before anything is stored: one malformed file (its line is named) stops the import
// and nothing is written.
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/database.ts';
import { importPrices, PriceFileError, parsePriceFile } from '../features/market/index.ts';

const { positionals } = parseArgs({ allowPositionals: true });

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

if (!positionals.length) fail('Give the price files to import: npm run prices:import -- FILE…');
const config = loadConfig();
const parsed = positionals.map((file) => {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
  } catch {
    fail(`${file}: cannot be read.`);
  }
  try {
    return parsePriceFile(path.basename(file), bytes);
  } catch (err) {
    if (err instanceof PriceFileError) fail(`Nothing was imported. ${err.message}`);
    throw err;
  }
});

const handle = await openDatabase({ url: config.DATABASE_URL, dataDir: config.dataDir, schema: config.DATABASE_SCHEMA });
const when = (t: number) => new Date((t + 36_000) * 1000).toISOString().slice(0, 16).replace('T', ' ');
for (const file of parsed) {
  const s = await importPrices(handle, file, null);
  console.info(
    `${s.fileName}: ${s.format}, ${s.prices} ${s.forecast ? 'forecast prices (stored apart from the actual prices)' : 'prices'} of ${s.regions.join(', ')} from ${when(s.from)} to ${when(s.to)} market time; ${s.written} written, ${s.kept} left as they were (a newer price was already stored).`,
  );
}
await handle.close();
