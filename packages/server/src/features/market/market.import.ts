// The market's rules alone, not the whole contract: the import worker loads this module afresh.
import { isNemRegion, MARKET_TIME_OFFSET_S, type NemRegion } from '@vpp/shared/market/rules';
import type { PRICE_FILE_FORMATS } from '@vpp/shared/market/schemas';
import { financialYearOf, MARKET_SETTINGS, marketSettingsAt } from '@vpp/shared/market/settings';
import { Unzip, UnzipInflate, UnzipPassThrough } from 'fflate';
import { runInWorker } from '../../platform/run-in-worker.ts';

// Reads AEMO's public price files, with no database: the PRICE_AND_DEMAND monthly CSV and the MMS
// multi-table CSV (C, I and D rows) holding the DISPATCHPRICE table, plain or zipped (and zips of
// zips, as AEMO's daily archives are). A file is read whole before anything is stored, so a
// malformed one is refused with its line number and nothing of it is written.

/** One 5-minute price read from a file; `publishedAt` orders revisions of the same interval. */
export interface ImportedPrice {
  region: NemRegion;
  /** Start of the interval, epoch seconds (AEMO stamps the end). */
  intervalStart: number;
  rrp: number;
  publishedAt: number;
}

/** Where a forecast comes from: AEMO's 5-minute predispatch (an hour ahead, 5-minute periods) or its predispatch (30-minute periods, to the end of the next trading day). */
export type ForecastSource = 'P5MIN' | 'PREDISPATCH';

/** One forecast price of a run: the price of the period [intervalStart, intervalEnd) as the run issued at `issuedAt` saw it. */
export interface ImportedForecast {
  region: NemRegion;
  source: ForecastSource;
  issuedAt: number;
  intervalStart: number;
  /** 5 minutes after the start for P5MIN, 30 for PREDISPATCH. */
  intervalEnd: number;
  rrp: number;
}

export interface ParsedPriceFile {
  fileName: string;
  format: (typeof PRICE_FILE_FORMATS)[number];
  /** Actual prices (PRICE_AND_DEMAND, DISPATCHPRICE): one per region and interval, the newest in the file. */
  prices: ImportedPrice[];
  /** Forecast prices (P5MIN, PREDISPATCH): one per region, run and period; empty for an actual price file. */
  forecasts: ImportedForecast[];
}

/** Why a file was refused: the file (and zip entry), the line, and what is wrong, never the line's text. */
export class PriceFileError extends Error {
  constructor(
    readonly fileName: string,
    readonly line: number | null,
    readonly problem: string,
  ) {
    super(line === null ? `${fileName}: ${problem}` : `${fileName}, line ${line}: ${problem}`);
  }
}

/**
 * What a whole upload may unpack to, counted over every zip inside it as the bytes come out (issue
 * 32, item 2): a zip bomb is stopped at `bytes`, however its sizes are declared or nested.
 */
export interface UploadLimits {
  /** Bytes unpacked, over all its zips: a month of AEMO's DISPATCHPRICE for every region is about 30 MB. */
  bytes: number;
  /** Entries, over all its zips: a month of AEMO's 5-minute archives is about 9,000. */
  entries: number;
  /** Zips within zips: AEMO's monthly archives of daily zips of 5-minute zips are 3 deep. */
  depth: number;
}

export const UPLOAD_LIMITS: UploadLimits = { bytes: 256 * 2 ** 20, entries: 10_000, depth: 3 };

const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];

const isZip = (bytes: Uint8Array) => ZIP_MAGIC.every((b, i) => bytes[i] === b);

/**
 * Parses one price file (its name is only for messages): the format is recognised from the
 * content. Each price is checked against the market settings of its own interval's financial year
 * (marketSettingsAt): above that year's cap, or below its floor, the file is refused.
 */
export function parsePriceFile(fileName: string, bytes: Uint8Array, limits: UploadLimits = UPLOAD_LIMITS): ParsedPriceFile {
  const texts = csvTexts(fileName, bytes, 1, { bytes: 0, entries: 0, limits });
  if (!texts.length) throw new PriceFileError(fileName, null, 'the zip file holds no CSV file.');
  const parsed = texts.map(([name, text]) => parseCsvText(name, text));
  const formats = new Set(parsed.map((p) => p.format));
  if (formats.size > 1) throw new PriceFileError(fileName, null, `the zip file mixes ${[...formats].sort().join(' and ')} files: import them apart.`);
  const newest = new Map<string, ImportedPrice>();
  for (const p of parsed) for (const price of p.prices) keepNewest(newest, price);
  const forecasts = new Map<string, ImportedForecast>();
  for (const p of parsed) for (const f of p.forecasts) forecasts.set(forecastKey(f), f);
  return {
    fileName,
    format: parsed[0].format,
    prices: [...newest.values()].sort((a, b) => a.intervalStart - b.intervalStart || a.region.localeCompare(b.region)),
    forecasts: [...forecasts.values()].sort((a, b) => a.issuedAt - b.issuedAt || a.intervalStart - b.intervalStart || a.region.localeCompare(b.region)),
  };
}

const forecastKey = (f: ImportedForecast) => `${f.region}:${f.source}:${f.issuedAt}:${f.intervalStart}`;

/** A later (or equally new, later in the file) revision of an interval replaces the one kept. */
function keepNewest(kept: Map<string, ImportedPrice>, price: ImportedPrice) {
  const key = `${price.region}:${price.intervalStart}`;
  const old = kept.get(key);
  if (!old || price.publishedAt >= old.publishedAt) kept.set(key, price);
}

const PUSH_BYTES = 4096;

/** What an upload has unpacked so far, over all its zips. */
interface Unpacked {
  bytes: number;
  entries: number;
  limits: UploadLimits;
}

/**
 * The CSV texts of a file: itself, or the .csv entries of a zip (and of zips inside it, down to
 * the depth limit). Entries are inflated as a stream and every byte that comes out is counted against
 * the whole upload's budget, so a refusal comes before the bytes are held, not after.
 */
function csvTexts(name: string, bytes: Uint8Array, depth: number, unpacked: Unpacked): [string, string][] {
  if (!isZip(bytes)) return [[name, new TextDecoder('utf-8').decode(bytes)]];
  const { limits } = unpacked;
  if (depth > limits.depth) throw new PriceFileError(name, null, `zip files are nested more than ${limits.depth} deep.`);
  const entries: { entry: string; chunks: Uint8Array[]; done: boolean }[] = [];
  let seen = 0;
  const unzip = new Unzip((file) => {
    seen++;
    if (++unpacked.entries > limits.entries) throw new PriceFileError(name, null, `the upload holds more than ${limits.entries} files.`);
    if (!/\.(csv|zip)$/i.test(file.name)) return;
    const held = { entry: file.name, chunks: [] as Uint8Array[], done: false };
    entries.push(held);
    file.ondata = (err, chunk, final) => {
      if (err) throw err;
      held.done = final;
      unpacked.bytes += chunk.length;
      if (unpacked.bytes > limits.bytes) throw new PriceFileError(name, null, `the upload unpacks to more than ${limits.bytes / 2 ** 20} MB.`);
      held.chunks.push(chunk);
    };
    file.start();
  });
  unzip.register(UnzipInflate);
  unzip.register(UnzipPassThrough);
  try {
    // In slices: the streaming reader recurses once per entry within one push, and an archive of
    // thousands of tiny entries would otherwise overflow the stack.
    for (let at = 0; at < bytes.length; at += PUSH_BYTES) unzip.push(bytes.subarray(at, at + PUSH_BYTES), at + PUSH_BYTES >= bytes.length);
  } catch (err) {
    if (err instanceof PriceFileError) throw err;
    throw new PriceFileError(name, null, 'the zip file is damaged or not a zip file.');
  }
  // A stream that stops before its first entry, or inside one, is a cut-off file.
  if (!seen || entries.some((e) => !e.done)) throw new PriceFileError(name, null, 'the zip file is damaged or not a zip file.');
  return entries
    .sort((a, b) => (a.entry < b.entry ? -1 : a.entry > b.entry ? 1 : 0))
    .flatMap(({ entry, chunks }) => csvTexts(`${name}/${entry}`, Buffer.concat(chunks), depth + 1, unpacked));
}

/**
 * The fields of one CSV line: comma-separated, a field may be in double quotes (a doubled quote
 * inside stands for one). AEMO's files hold no line breaks inside fields. Null when a quote is
 * not closed.
 */
export function csvFields(line: string): string[] | null {
  const out: string[] = [];
  let i = 0;
  for (;;) {
    let field = '';
    if (line[i] === '"') {
      i++;
      for (;;) {
        const q = line.indexOf('"', i);
        if (q < 0) return null;
        field += line.slice(i, q);
        i = q + 1;
        if (line[i] === '"') {
          field += '"';
          i++;
        } else break;
      }
      if (i < line.length && line[i] !== ',') return null;
    } else {
      const c = line.indexOf(',', i);
      field = c < 0 ? line.slice(i) : line.slice(i, c);
      i = c < 0 ? line.length : c;
    }
    out.push(field.trim());
    if (i >= line.length) return out;
    i++;
  }
}

/**
 * Epoch seconds of an AEMO timestamp, `YYYY/MM/DD HH:MM:SS` (or with dashes) in market time
 * (UTC+10, no daylight saving); null when it is not a real date and time.
 */
export function marketTime(text: string): number | null {
  const m = /^(\d{4})[/-](\d{2})[/-](\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?$/.exec(text);
  if (!m) return null;
  const [y, mo, d, h, mi, s] = m.slice(1).map((v) => Number(v ?? 0));
  const ms = Date.UTC(y, mo - 1, d, h, mi, s);
  const back = new Date(ms);
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d || h > 23 || mi > 59 || s > 59) return null;
  return ms / 1000 - MARKET_TIME_OFFSET_S;
}

const NUMBER = /^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

function parseCsvText(name: string, text: string): ParsedPriceFile {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const first = lines.findIndex((l) => l.trim() !== '');
  if (first < 0) throw new PriceFileError(name, null, 'the file is empty.');
  const head = csvFields(lines[first]);
  if (head?.[0] === 'C') return parseMms(name, lines);
  if (head?.map((f) => f.toUpperCase()).includes('SETTLEMENTDATE')) return parsePriceAndDemand(name, lines);
  throw new PriceFileError(
    name,
    first + 1,
    'this is neither an AEMO PRICE_AND_DEMAND file (header REGION,SETTLEMENTDATE,TOTALDEMAND,RRP,PERIODTYPE) nor an MMS file (C, I and D rows: DISPATCHPRICE, P5MIN_REGIONSOLUTION or PREDISPATCHPRICE).',
  );
}

/** Checks one price of the interval starting at `start` against its financial year's settings; answers the refusal, or null. */
function priceProblem(rrp: string, start: number): string | null {
  if (!NUMBER.test(rrp)) return 'RRP is not a number.';
  const v = Number(rrp);
  const s = marketSettingsAt(start);
  if (!s)
    return `the interval is in FY ${financialYearOf(start)}, for which this console has no market settings (it has them for FY ${MARKET_SETTINGS[0].financialYear} to ${MARKET_SETTINGS[MARKET_SETTINGS.length - 1].financialYear}).`;
  if (v < s.marketPriceFloor) return `RRP is below the market price floor of ${s.marketPriceFloor} $/MWh of FY ${s.financialYear}.`;
  if (v > s.marketPriceCap) return `RRP is above the market price cap of ${s.marketPriceCap} $/MWh of FY ${s.financialYear}.`;
  return null;
}

/** The interval ending at an AEMO settlement date, or the refusal. */
function intervalEnd(text: string, column: string, step = 300): number | string {
  const end = marketTime(text);
  if (end === null) return `${column} is not a date and time (YYYY/MM/DD HH:MM:SS).`;
  if ((end + MARKET_TIME_OFFSET_S) % step !== 0) return `${column} is not on a ${step / 60}-minute boundary.`;
  return end;
}

const PRICE_AND_DEMAND_COLUMNS = ['REGION', 'SETTLEMENTDATE', 'TOTALDEMAND', 'RRP', 'PERIODTYPE'];

/**
 * PRICE_AND_DEMAND_YYYYMM_REGION1.csv: one row per interval. Since 5-minute settlement (October
 * 2021) the rows are 5 minutes apart; older files have a row per 30 minutes, whose price then
 * holds for each of its six 5-minute intervals. The files carry no publication time: their prices
 * count as published at the end of their last interval.
 */
function parsePriceAndDemand(name: string, lines: string[]): ParsedPriceFile {
  let headerAt = lines.findIndex((l) => l.trim() !== '');
  const header = (csvFields(lines[headerAt]) ?? []).map((f) => f.toUpperCase());
  headerAt++;
  const missing = PRICE_AND_DEMAND_COLUMNS.filter((c) => !header.includes(c));
  if (missing.length) throw new PriceFileError(name, headerAt, `the header lacks the column${missing.length > 1 ? 's' : ''} ${missing.join(', ')}.`);
  const [iRegion, iDate, iRrp] = ['REGION', 'SETTLEMENTDATE', 'RRP'].map((c) => header.indexOf(c));
  const rows: { region: NemRegion; end: number; rrp: number; line: number }[] = [];
  for (let i = headerAt; i < lines.length; i++) {
    if (lines[i].trim() === '') continue;
    const line = i + 1;
    const f = csvFields(lines[i]);
    if (!f) throw new PriceFileError(name, line, 'a quoted field is not closed.');
    if (f.length !== header.length) throw new PriceFileError(name, line, `the row has ${f.length} fields where the header has ${header.length}.`);
    if (!isNemRegion(f[iRegion])) throw new PriceFileError(name, line, 'REGION is not a NEM region (NSW1, QLD1, VIC1, SA1 or TAS1).');
    const end = intervalEnd(f[iDate], 'SETTLEMENTDATE');
    if (typeof end === 'string') throw new PriceFileError(name, line, end);
    // A 30-minute row's first 5-minute interval is in the same financial year as its others.
    const problem = priceProblem(f[iRrp], end - 300);
    if (problem) throw new PriceFileError(name, line, problem);
    rows.push({ region: f[iRegion] as NemRegion, end, rrp: Number(f[iRrp]), line });
  }
  if (!rows.length) throw new PriceFileError(name, null, 'the file holds no prices.');
  const published = Math.max(...rows.map((r) => r.end));
  // The step of each region's rows: 300 s since 5-minute settlement, 1800 s before it.
  const step = new Map<NemRegion, number>();
  const sorted = [...rows].sort((a, b) => a.end - b.end);
  const last = new Map<NemRegion, number>();
  for (const r of sorted) {
    const before = last.get(r.region);
    if (before !== undefined && r.end > before) step.set(r.region, Math.min(step.get(r.region) ?? Infinity, r.end - before));
    last.set(r.region, r.end);
  }
  const kept = new Map<string, ImportedPrice>();
  for (const r of rows) {
    const width = step.get(r.region) === 1800 ? 1800 : 300;
    if (width === 1800 && r.end % 1800 !== 0)
      throw new PriceFileError(name, r.line, 'SETTLEMENTDATE is not on a 30-minute boundary, as the rest of this 30-minute file is.');
    for (let t = r.end - width; t < r.end; t += 300) keepNewest(kept, { region: r.region, intervalStart: t, rrp: r.rrp, publishedAt: published });
  }
  return { fileName: name, format: 'PRICE_AND_DEMAND', prices: [...kept.values()], forecasts: [] };
}

/** The MMS tables this console reads, by `REPORT.TABLE` of their I rows, with the columns each needs. */
const MMS_TABLES = {
  'DISPATCH.PRICE': { format: 'DISPATCHPRICE', name: 'DISPATCHPRICE', needs: ['SETTLEMENTDATE', 'REGIONID', 'RRP', 'INTERVENTION'] },
  'P5MIN.REGIONSOLUTION': { format: 'P5MIN', name: 'P5MIN_REGIONSOLUTION', needs: ['RUN_DATETIME', 'INTERVAL_DATETIME', 'REGIONID', 'RRP'] },
  'PREDISPATCH.REGION_PRICES': {
    format: 'PREDISPATCH',
    name: 'PREDISPATCHPRICE',
    needs: ['PREDISPATCHSEQNO', 'REGIONID', 'RRP', 'INTERVENTION', 'DATETIME'],
  },
} as const;
type MmsTable = keyof typeof MMS_TABLES;
const isMmsTable = (t: string): t is MmsTable => t in MMS_TABLES;

/**
 * When a PREDISPATCH run was issued, from its PREDISPATCHSEQNO `YYYYMMDDPP`: the run of trading
 * period PP of the trading day YYYYMMDD (which begins at 04:00 market time; period 01 ends at 04:30)
 * is issued at that period's start. Null when it is not such a number.
 */
export function predispatchIssuedAt(seqno: string): number | null {
  const m = /^(\d{4})(\d{2})(\d{2})(\d{2})$/.exec(seqno);
  if (!m) return null;
  const period = Number(m[4]);
  if (period < 1 || period > 48) return null;
  const dayStart = marketTime(`${m[1]}/${m[2]}/${m[3]} 04:00:00`);
  return dayStart === null ? null : dayStart + (period - 1) * 1800;
}

/**
 * An MMS file: C rows (the header and the end of the report), I rows naming a table's columns
 * (`I,DISPATCH,PRICE,<version>,SETTLEMENTDATE,…`) and D rows of that table. It gives actual prices
 * from DISPATCHPRICE or forecasts from P5MIN_REGIONSOLUTION or PREDISPATCHPRICE (one kind per file),
 * always from the INTERVENTION = 0 rows (intervention pricing is for compensation, not the market
 * price):
 * - DISPATCHPRICE: SETTLEMENTDATE ends the interval; a revision (a later LASTCHANGED) replaces the earlier one.
 * - P5MIN_REGIONSOLUTION: the run of RUN_DATETIME forecasts the 5-minute intervals ending at
 *   INTERVAL_DATETIME (the first ends at RUN_DATETIME); it is issued 5 minutes before RUN_DATETIME,
 *   at the start of its first interval.
 * - PREDISPATCHPRICE: DATETIME ends a 30-minute period; the run is issued as PREDISPATCHSEQNO says
 *   (`predispatchIssuedAt`); of two runs of one sequence number (RUNNO), the higher is kept.
 */
function parseMms(name: string, lines: string[]): ParsedPriceFile {
  let columns: string[] | null = null;
  let table = '';
  let found: MmsTable | null = null;
  let fileTime = 0;
  const kept = new Map<string, ImportedPrice>();
  const forecasts = new Map<string, ImportedForecast & { runNo: number }>();
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].trim() === '') continue;
    const line = i + 1;
    const f = csvFields(lines[i]);
    if (!f) throw new PriceFileError(name, line, 'a quoted field is not closed.');
    if (f[0] === 'C') {
      // The report header: C,<from>,<report>,<by>,<audience>,YYYY/MM/DD,HH:MM:SS,…
      if (!fileTime && f.length > 6) fileTime = marketTime(`${f[5]} ${f[6]}`) ?? 0;
      continue;
    }
    if (f[0] === 'I') {
      if (f.length < 5) throw new PriceFileError(name, line, 'an I row must name its report, table, version and columns.');
      table = `${f[1]}.${f[2]}`.toUpperCase();
      columns = f.map((c) => c.toUpperCase());
      if (isMmsTable(table)) {
        const spec = MMS_TABLES[table];
        if (found && found !== table)
          throw new PriceFileError(name, line, `the file holds both ${MMS_TABLES[found].name} and ${spec.name} tables: import them apart.`);
        const missing = spec.needs.filter((c) => !columns?.includes(c));
        if (missing.length)
          throw new PriceFileError(name, line, `the ${spec.name} table lacks the column${missing.length > 1 ? 's' : ''} ${missing.join(', ')}.`);
        found = table;
      }
      continue;
    }
    if (f[0] !== 'D') throw new PriceFileError(name, line, 'a row of an MMS file must start with C, I or D.');
    if (!columns) throw new PriceFileError(name, line, 'a D row comes before any I row naming its columns.');
    if (`${f[1]}.${f[2]}`.toUpperCase() !== table) throw new PriceFileError(name, line, 'the D row is of another table than the I row before it.');
    if (f.length !== columns.length) throw new PriceFileError(name, line, `the row has ${f.length} fields where its I row has ${columns.length}.`);
    if (!isMmsTable(table)) continue;
    const cols = columns;
    const at = (c: string) => f[cols.indexOf(c)];
    const intervention = cols.includes('INTERVENTION') ? at('INTERVENTION') : '0';
    if (!/^[01]$/.test(intervention)) throw new PriceFileError(name, line, 'INTERVENTION is not 0 or 1.');
    if (!isNemRegion(at('REGIONID'))) throw new PriceFileError(name, line, 'REGIONID is not a NEM region (NSW1, QLD1, VIC1, SA1 or TAS1).');
    const region = at('REGIONID') as NemRegion;
    if (table === 'DISPATCH.PRICE') {
      const end = intervalEnd(at('SETTLEMENTDATE'), 'SETTLEMENTDATE');
      if (typeof end === 'string') throw new PriceFileError(name, line, end);
      const problem = priceProblem(at('RRP'), end - 300);
      if (problem) throw new PriceFileError(name, line, problem);
      const changed = cols.includes('LASTCHANGED') && at('LASTCHANGED') !== '' ? marketTime(at('LASTCHANGED')) : fileTime;
      if (changed === null) throw new PriceFileError(name, line, 'LASTCHANGED is not a date and time (YYYY/MM/DD HH:MM:SS).');
      if (intervention !== '0') continue;
      keepNewest(kept, { region, intervalStart: end - 300, rrp: Number(at('RRP')), publishedAt: changed });
      continue;
    }
    let forecast: ImportedForecast & { runNo: number };
    if (table === 'P5MIN.REGIONSOLUTION') {
      const run = intervalEnd(at('RUN_DATETIME'), 'RUN_DATETIME');
      if (typeof run === 'string') throw new PriceFileError(name, line, run);
      const end = intervalEnd(at('INTERVAL_DATETIME'), 'INTERVAL_DATETIME');
      if (typeof end === 'string') throw new PriceFileError(name, line, end);
      if (end < run) throw new PriceFileError(name, line, 'INTERVAL_DATETIME is before RUN_DATETIME: a run forecasts only the intervals after it.');
      const problem = priceProblem(at('RRP'), end - 300);
      if (problem) throw new PriceFileError(name, line, problem);
      forecast = { region, source: 'P5MIN', issuedAt: run - 300, intervalStart: end - 300, intervalEnd: end, rrp: Number(at('RRP')), runNo: 0 };
    } else {
      const issuedAt = predispatchIssuedAt(at('PREDISPATCHSEQNO'));
      if (issuedAt === null) throw new PriceFileError(name, line, 'PREDISPATCHSEQNO is not a trading day and period (YYYYMMDDPP, PP from 01 to 48).');
      const end = intervalEnd(at('DATETIME'), 'DATETIME', 1800);
      if (typeof end === 'string') throw new PriceFileError(name, line, end);
      if (end - 1800 < issuedAt) throw new PriceFileError(name, line, 'DATETIME ends a period that began before the run (PREDISPATCHSEQNO) was issued.');
      const problem = priceProblem(at('RRP'), end - 1800);
      if (problem) throw new PriceFileError(name, line, problem);
      const runNo = cols.includes('RUNNO') && at('RUNNO') !== '' ? Number(at('RUNNO')) : 0;
      if (!Number.isInteger(runNo)) throw new PriceFileError(name, line, 'RUNNO is not a whole number.');
      forecast = { region, source: 'PREDISPATCH', issuedAt, intervalStart: end - 1800, intervalEnd: end, rrp: Number(at('RRP')), runNo };
    }
    if (intervention !== '0') continue;
    const key = forecastKey(forecast);
    const old = forecasts.get(key);
    if (!old || forecast.runNo >= old.runNo) forecasts.set(key, forecast);
  }
  if (!found)
    throw new PriceFileError(
      name,
      null,
      'the file has no DISPATCHPRICE, P5MIN_REGIONSOLUTION or PREDISPATCHPRICE table (I,DISPATCH,PRICE, I,P5MIN,REGIONSOLUTION or I,PREDISPATCH,REGION_PRICES rows).',
    );
  const spec = MMS_TABLES[found];
  return {
    fileName: name,
    format: spec.format,
    prices: [...kept.values()],
    forecasts: [...forecasts.values()].map(({ runNo: _, ...f }) => f),
  };
}

/** The heap a price file's reading may use: a month of every region's DISPATCHPRICE needs about a fifth of it. */
export const IMPORT_HEAP_MB = 768;

type PriceFileReading = { parsed: ParsedPriceFile } | { refused: { fileName: string; line: number | null; problem: string } };

/** A price file's reading in its worker thread (runInWorker calls it by name): the file's refusal is an answer, not a failure. */
export function parsePriceFileTask(data: { fileName: string; bytes: Uint8Array }): PriceFileReading {
  try {
    return { parsed: parsePriceFile(data.fileName, data.bytes) };
  } catch (err) {
    if (!(err instanceof PriceFileError)) throw err;
    return { refused: { fileName: err.fileName, line: err.line, problem: err.problem } };
  }
}

/**
 * Reads a price file in a worker thread whose heap is capped (`heapMb`): a file that needs more
 * memory than that fails its own import (PriceFileError) and the server carries on, and the
 * reading, however long, never holds the server's event loop.
 */
export async function parsePriceFileInWorker(fileName: string, bytes: Uint8Array, heapMb = IMPORT_HEAP_MB): Promise<ParsedPriceFile> {
  const reading = await runInWorker<PriceFileReading>(
    { module: import.meta.url, run: 'parsePriceFileTask' },
    { fileName, bytes },
    { name: 'The price file reader', heapMb },
  ).catch((err: Error & { code?: string }) => {
    throw err.code === 'ERR_WORKER_OUT_OF_MEMORY'
      ? new PriceFileError(fileName, null, `reading it needs more than the ${heapMb} MB of memory an import may use.`)
      : err;
  });
  if ('parsed' in reading) return reading.parsed;
  throw new PriceFileError(reading.refused.fileName, reading.refused.line, reading.refused.problem);
}
