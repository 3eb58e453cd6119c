import fs from 'node:fs';
import path from 'node:path';
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { csvFields, marketTime, PriceFileError, parsePriceFile, parsePriceFileInWorker, UPLOAD_LIMITS, type UploadLimits } from './market.import.ts';

const SAMPLES = path.join(import.meta.dirname, 'samples');
const PD = 'PRICE_AND_DEMAND_202501_SA1.csv';
const MMS = 'PUBLIC_DISPATCHIS_202501151005_0000000445123456.CSV';
const sample = (name: string) => fs.readFileSync(path.join(SAMPLES, name));
const text = (name: string) => sample(name).toString('utf8');
/** 00:00 on 1 January 2025, market time (UTC+10). */
const NEW_YEAR = Date.UTC(2024, 11, 31, 14) / 1000;
/** 10:00 on 15 January 2025, market time. */
const TEN = Date.UTC(2025, 0, 15, 0) / 1000;

/** The refusal's message, or 'accepted'. */
function refusal(name: string, content: string | Uint8Array, limits?: UploadLimits): string {
  try {
    parsePriceFile(name, typeof content === 'string' ? strToU8(content) : content, limits);
    return 'accepted';
  } catch (err) {
    if (err instanceof PriceFileError) return err.message;
    throw err;
  }
}

describe('AEMO PRICE_AND_DEMAND files', () => {
  it('reads the sample: twelve 5-minute prices of SA1, each stamped by the end of its interval', () => {
    const file = parsePriceFile(PD, sample(PD));
    expect(file.format).toBe('PRICE_AND_DEMAND');
    expect(file.prices.map((p) => [p.region, p.intervalStart - NEW_YEAR, p.rrp])).toEqual([
      ['SA1', 0, 141.48],
      ['SA1', 300, 136.59],
      ['SA1', 600, 142.05],
      ['SA1', 900, 139.87],
      ['SA1', 1200, 135.12],
      ['SA1', 1500, 131.4],
      ['SA1', 1800, 128.93],
      ['SA1', 2100, 126.05],
      ['SA1', 2400, -12.5],
      ['SA1', 2700, 119.76],
      ['SA1', 3000, 117.2],
      ['SA1', 3300, 115.63],
    ]);
    // The file carries no publication time: the end of its last interval stands for it.
    expect(new Set(file.prices.map((p) => p.publishedAt))).toEqual(new Set([NEW_YEAR + 3600]));
  });

  it('spreads a 30-minute price of a file from before 5-minute settlement over its six intervals', () => {
    const file = parsePriceFile(
      'PRICE_AND_DEMAND_201908_NSW1.csv',
      strToU8(
        '"REGION","SETTLEMENTDATE","TOTALDEMAND","RRP","PERIODTYPE"\n"NSW1","2019/08/01 00:30:00",7898.91,59.88,"TRADE"\n"NSW1","2019/08/01 01:00",7832.33,55.05,"TRADE"\n',
      ),
    );
    const start = Date.UTC(2019, 6, 31, 14) / 1000;
    expect(file.prices.map((p) => [p.intervalStart - start, p.rrp])).toEqual([
      ...[0, 300, 600, 900, 1200, 1500].map((t) => [t, 59.88]),
      ...[1800, 2100, 2400, 2700, 3000, 3300].map((t) => [t, 55.05]),
    ]);
  });

  it('refuses a malformed file whole, naming the line', () => {
    const good = text(PD);
    const lines = good.split('\r\n');
    const withLine = (n: number, line: string) => lines.map((l, i) => (i === n - 1 ? line : l)).join('\r\n');
    expect(refusal(PD, withLine(5, 'SA1,2025/01/01 00:20:00,1371.32,abc,TRADE'))).toBe(`${PD}, line 5: RRP is not a number.`);
    expect(refusal(PD, withLine(3, 'SA1,2025/01/01 00:10:00,1367.61,136.59'))).toBe(`${PD}, line 3: the row has 4 fields where the header has 5.`);
    expect(refusal(PD, withLine(4, 'WEM,2025/01/01 00:15:00,1379.99,142.05,TRADE'))).toBe(
      `${PD}, line 4: REGION is not a NEM region (NSW1, QLD1, VIC1, SA1 or TAS1).`,
    );
    expect(refusal(PD, withLine(2, 'SA1,2025/02/30 00:05:00,1379.47,141.48,TRADE'))).toBe(
      `${PD}, line 2: SETTLEMENTDATE is not a date and time (YYYY/MM/DD HH:MM:SS).`,
    );
    expect(refusal(PD, withLine(2, 'SA1,2025/01/01 00:07:00,1379.47,141.48,TRADE'))).toBe(`${PD}, line 2: SETTLEMENTDATE is not on a 5-minute boundary.`);
    expect(refusal(PD, withLine(6, 'SA1,2025/01/01 00:25:00,1362.05,17500.01,TRADE'))).toBe(
      `${PD}, line 6: RRP is above the market price cap of 17500 $/MWh of FY 2024-25.`,
    );
    expect(refusal(PD, withLine(6, 'SA1,2025/01/01 00:25:00,1362.05,-1000.5,TRADE'))).toBe(
      `${PD}, line 6: RRP is below the market price floor of -1000 $/MWh of FY 2024-25.`,
    );
    expect(refusal(PD, withLine(1, 'REGION,SETTLEMENTDATE,RRP,PERIODTYPE'))).toBe(`${PD}, line 1: the header lacks the column TOTALDEMAND.`);
    expect(refusal(PD, withLine(7, 'SA1,"2025/01/01 00:30:00,1355.80,131.40,TRADE'))).toBe(`${PD}, line 7: a quoted field is not closed.`);
    expect(refusal(PD, 'REGION,SETTLEMENTDATE,TOTALDEMAND,RRP,PERIODTYPE\r\n')).toBe(`${PD}: the file holds no prices.`);
    expect(refusal('prices.csv', 'hello,world\n1,2\n')).toBe(
      'prices.csv, line 1: this is neither an AEMO PRICE_AND_DEMAND file (header REGION,SETTLEMENTDATE,TOTALDEMAND,RRP,PERIODTYPE) nor an MMS file (C, I and D rows: DISPATCHPRICE, P5MIN_REGIONSOLUTION or PREDISPATCHPRICE).',
    );
  });
});

describe('AEMO MMS files with the DISPATCHPRICE table', () => {
  it('reads the sample: the INTERVENTION=0 price of each region and interval, skipping other tables', () => {
    const file = parsePriceFile(MMS, sample(MMS));
    expect(file.format).toBe('DISPATCHPRICE');
    expect(file.prices.map((p) => [p.region, p.intervalStart - TEN, p.rrp, p.publishedAt - TEN])).toEqual([
      ['NSW1', -300, 94.17, -294],
      ['QLD1', -300, 88.45, -294],
      ['SA1', -300, -35.2, -294],
      ['TAS1', -300, 71.3, -294],
      ['VIC1', -300, -41.06, -294],
      ['NSW1', 0, 96.02, 6],
      ['QLD1', 0, 90.11, 6],
      ['SA1', 0, -18.74, 6],
      ['TAS1', 0, 72.05, 6],
      ['VIC1', 0, -22.91, 6],
    ]);
  });

  it('keeps the newest revision of an interval, wherever it comes in the file', () => {
    const lines = text(MMS).split('\r\n');
    const nsw = lines.find((l) => l.includes(',NSW1,') && l.includes('"2025/01/15 10:05:00"')) as string;
    const revised = nsw.replace(',96.02,0,96.02,', ',101.5,0,101.5,').replace('"2025/01/15 10:00:06"', '"2025/01/15 10:20:00"');
    const older = nsw.replace(',96.02,0,96.02,', ',12,0,12,').replace('"2025/01/15 10:00:06"', '"2025/01/15 09:59:00"');
    const at = lines.indexOf(nsw);
    const content = [...lines.slice(0, at), revised, nsw, older, ...lines.slice(at + 1)].join('\r\n');
    const price = parsePriceFile(MMS, strToU8(content)).prices.find((p) => p.region === 'NSW1' && p.intervalStart === TEN);
    expect(price?.rrp).toBe(101.5);
  });

  it('reads zipped files, and zips inside zips as AEMO archives them', () => {
    const inner = zipSync({ [MMS]: sample(MMS) });
    const outer = zipSync({ 'PUBLIC_DISPATCHIS_20250115.zip': inner, 'readme.txt': strToU8('not a price file') });
    const direct = parsePriceFile(MMS, sample(MMS)).prices;
    expect(parsePriceFile('PUBLIC_DISPATCHIS.zip', inner).prices).toEqual(direct);
    expect(parsePriceFile('PUBLIC_DISPATCHIS_20250115.zip', outer).prices).toEqual(direct);
    expect(refusal('broken.zip', inner.slice(0, 40))).toBe('broken.zip: the zip file is damaged or not a zip file.');
    expect(refusal('empty.zip', zipSync({ 'a.txt': strToU8('x') }))).toBe('empty.zip: the zip file holds no CSV file.');
    const bad = text(MMS).replace(',NSW1,', ',NSW9,');
    expect(refusal('day.zip', zipSync({ [MMS]: strToU8(bad) }))).toBe(`day.zip/${MMS}, line 5: REGIONID is not a NEM region (NSW1, QLD1, VIC1, SA1 or TAS1).`);
  });

  it('refuses a malformed MMS file whole, naming the line', () => {
    const lines = text(MMS).split('\r\n');
    const withLine = (n: number, line: string) => lines.map((l, i) => (i === n - 1 ? line : l)).join('\r\n');
    const d5 = lines[4];
    expect(refusal(MMS, withLine(5, d5.replace(',94.17,0,94.17,', ',x,0,94.17,')))).toBe(`${MMS}, line 5: RRP is not a number.`);
    expect(refusal(MMS, withLine(5, d5.replace(',0,94.17,', ',2,94.17,')))).toBe(`${MMS}, line 5: INTERVENTION is not 0 or 1.`);
    expect(refusal(MMS, withLine(5, `${d5},extra`))).toBe(`${MMS}, line 5: the row has 61 fields where its I row has 60.`);
    expect(refusal(MMS, withLine(5, d5.replace('D,DISPATCH,PRICE', 'X,DISPATCH,PRICE')))).toBe(
      `${MMS}, line 5: a row of an MMS file must start with C, I or D.`,
    );
    expect(refusal(MMS, withLine(5, d5.replace('D,DISPATCH,PRICE', 'D,DISPATCH,REGIONSUM')))).toBe(
      `${MMS}, line 5: the D row is of another table than the I row before it.`,
    );
    expect(refusal(MMS, withLine(4, lines[3].replace(',RRP,', ',PRICE,')))).toBe(`${MMS}, line 4: the DISPATCHPRICE table lacks the column RRP.`);
    expect(refusal(MMS, lines.filter((l) => !l.includes('DISPATCH,PRICE')).join('\r\n'))).toBe(
      `${MMS}: the file has no DISPATCHPRICE, P5MIN_REGIONSOLUTION or PREDISPATCHPRICE table (I,DISPATCH,PRICE, I,P5MIN,REGIONSOLUTION or I,PREDISPATCH,REGION_PRICES rows).`,
    );
  });
});

// Issue 32, item 2: the limits hold for the whole upload, whatever its zips declare or how they nest.
describe('bounded decompression of an upload', () => {
  // The same rules as the defaults at a sixteenth of the size, so that the archives build quickly.
  const SMALL: UploadLimits = { bytes: 16 * 2 ** 20, entries: 600, depth: UPLOAD_LIMITS.depth };

  it('has the limits the API documents', () => {
    expect(UPLOAD_LIMITS).toEqual({ bytes: 256 * 2 ** 20, entries: 10_000, depth: 3 });
  });

  it('stops an upload of inner zips that together unpack beyond the limit, though each stays under it', () => {
    // 6 MB of one repeated CSV line packs to a few KB; three of them make 18 MB.
    const row = strToU8('D,DREGION,,3,2025/01/15 10:05:00,1,NSW1,0,101.5\n');
    const big = new Uint8Array(6 * 2 ** 20);
    for (let i = 0; i + row.length <= big.length; i += row.length) big.set(row, i);
    const inner = zipSync({ 'a.csv': big }, { level: 1 });
    expect(inner.length).toBeLessThan(SMALL.bytes / 100);
    const upload = zipSync({ 'day1.zip': inner, 'day2.zip': inner, 'day3.zip': inner }, { level: 0 });
    expect(refusal('bomb.zip', upload, SMALL)).toBe('bomb.zip/day3.zip: the upload unpacks to more than 16 MB.');
    // The same upload is refused already as the bytes come out, before any CSV is read.
    expect(refusal('bomb.zip', zipSync({ 'day1.zip': inner, 'x.zip': zipSync({ 'b.csv': new Uint8Array(11 * 2 ** 20) }) }), SMALL)).toBe(
      'bomb.zip/x.zip: the upload unpacks to more than 16 MB.',
    );
  });

  it('refuses zips nested deeper than AEMO nests them', () => {
    let nested = zipSync({ [MMS]: sample(MMS) });
    for (let level = 1; level < UPLOAD_LIMITS.depth; level++) nested = zipSync({ [`level${level}.zip`]: nested });
    expect(parsePriceFile('deep.zip', nested).prices).toEqual(parsePriceFile(MMS, sample(MMS)).prices);
    expect(refusal('deeper.zip', zipSync({ 'too-deep.zip': nested }))).toBe(
      `deeper.zip/too-deep.zip/level2.zip/level1.zip: zip files are nested more than ${UPLOAD_LIMITS.depth} deep.`,
    );
  });

  it('counts the entries of every zip of the upload against one limit', () => {
    const half = Object.fromEntries(Array.from({ length: SMALL.entries / 2 }, (_, i) => [`note${i}.txt`, new Uint8Array(0)]));
    const ok = zipSync({ 'a.zip': zipSync(half), [MMS]: sample(MMS) });
    expect(parsePriceFile('ok.zip', ok, SMALL).prices.length).toBeGreaterThan(0);
    const many = zipSync({ 'a.zip': zipSync(half), 'b.zip': zipSync(half) });
    expect(refusal('many.zip', many, SMALL)).toBe(`many.zip/b.zip: the upload holds more than ${SMALL.entries} files.`);
    // At the full limit too: 10,001 empty files in one zip.
    const full = Object.fromEntries(Array.from({ length: UPLOAD_LIMITS.entries + 1 }, (_, i) => [`n${i}.txt`, new Uint8Array(0)]));
    expect(refusal('full.zip', zipSync(full))).toBe(`full.zip: the upload holds more than ${UPLOAD_LIMITS.entries} files.`);
  });

  it('reads a file in a worker whose memory is capped: one that needs more fails its import, not the process', async () => {
    const direct = parsePriceFile(MMS, sample(MMS)).prices;
    expect((await parsePriceFileInWorker(MMS, sample(MMS))).prices).toEqual(direct);
    await expect(parsePriceFileInWorker('day.zip', zipSync({ [MMS]: strToU8(text(MMS).replace(',NSW1,', ',NSW9,')) }))).rejects.toThrow(
      `day.zip/${MMS}, line 5: REGIONID is not a NEM region (NSW1, QLD1, VIC1, SA1 or TAS1).`,
    );
    // Three million short rows: their strings need far more than a 48 MB heap.
    const rows = strToU8(`${text(MMS).split('\r\n').slice(0, 4).join('\n')}\n${'D,DREGION,,3\n'.repeat(3_000_000)}`);
    const err = await parsePriceFileInWorker('huge.csv', rows, 48).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PriceFileError);
    expect((err as Error).message).toBe('huge.csv: reading it needs more than the 48 MB of memory an import may use.');
    // The process that asked carries on: the next file reads as before.
    expect((await parsePriceFileInWorker(MMS, sample(MMS))).prices).toEqual(direct);
  }, 120_000);
});

describe('CSV fields and AEMO times', () => {
  it('splits quoted and plain fields', () => {
    expect(csvFields('D,"2025/01/15 10:05:00",1,"a ""b"", c",')).toEqual(['D', '2025/01/15 10:05:00', '1', 'a "b", c', '']);
    expect(csvFields('"open,1')).toBeNull();
  });
  it('reads market time as UTC+10 all year', () => {
    expect(marketTime('2025/01/01 00:05:00')).toBe(Date.UTC(2024, 11, 31, 14, 5) / 1000);
    expect(marketTime('2025/07/01 00:05:00')).toBe(Date.UTC(2025, 5, 30, 14, 5) / 1000);
    expect(marketTime('2025/01/01 24:00:00')).toBeNull();
  });
});
