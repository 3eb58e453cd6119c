import { NEM_REGIONS } from '@vpp/shared/market/rules';
import { strToU8, zipSync } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeEachDatabase, type Harness } from '../../test/harness.ts';
import { actualPrices, latestForecast, settlementPrices } from './index.ts';
import { parsePriceFile, predispatchIssuedAt } from './market.import.ts';
import { forecastSigma, modelForecast, modelPrice } from './market.model.ts';

// Issue 33 item 2: forecast prices apart from actual ones, each with its issue time.

const HOUR = 3600;
const DAY = 86_400;
/** Market time (UTC+10) of a date: epoch seconds. */
const market = (y: number, mo: number, d: number, h = 0, mi = 0) => Date.UTC(y, mo - 1, d, h, mi) / 1000 - 10 * HOUR;
const pad = (n: number) => String(n).padStart(2, '0');
/** AEMO's stamp of an epoch second, in market time. */
function stamp(t: number): string {
  const d = new Date((t + 10 * HOUR) * 1000);
  return `"${d.getUTCFullYear()}/${pad(d.getUTCMonth() + 1)}/${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:00"`;
}

/** The test's actual price of the interval starting at t: 40 to 136 $/MWh, and 21,000 at 18:00 on 2 July 2026 (over FY 2025-26's cap of 20,300, under FY 2026-27's). */
const SPIKE = market(2026, 7, 2, 18);
const actual = (t: number) => (t === SPIKE ? 21_000 : 40 + ((t / 300) % 97));
/** What the test's imported runs forecast: P5MIN 7 $/MWh above the actual, PREDISPATCH 20 above its period's first interval. */
const P5 = 7;
const PD = 20;

/** A day's DISPATCHPRICE file (the MMS format, the columns the console reads and one it does not). */
function dispatchFile(day: number): string {
  const rows = ['C,NEMP.WORLD,DISPATCHIS,AEMO,PUBLIC,2026/01/01,00:00:00,1,DISPATCHIS,0'];
  rows.push('I,DISPATCH,PRICE,5,SETTLEMENTDATE,RUNNO,REGIONID,DISPATCHINTERVAL,INTERVENTION,RRP,EEP,LASTCHANGED');
  for (let t = day; t < day + DAY; t += 300) rows.push(`D,DISPATCH,PRICE,5,${stamp(t + 300)},1,NSW1,1,0,${actual(t)},0,${stamp(t + 300)}`);
  rows.push('C,"END OF REPORT",1');
  return rows.join('\r\n');
}

/** A day's P5MIN runs, one an hour at HH:05 (issued at HH:00), each of the 12 intervals ending HH:05 to HH+1:00. */
function p5minFile(day: number): string {
  const rows = ['C,NEMP.WORLD,P5MIN,AEMO,PUBLIC,2026/01/01,00:00:00,1,P5MIN,0'];
  rows.push('I,P5MIN,REGIONSOLUTION,9,RUN_DATETIME,INTERVENTION,INTERVAL_DATETIME,REGIONID,RRP,ROP,LASTCHANGED');
  for (let run = day + 300; run < day + DAY; run += HOUR)
    for (let k = 0; k < 12; k++) {
      const end = run + k * 300;
      rows.push(`D,P5MIN,REGIONSOLUTION,9,${stamp(run)},0,${stamp(end)},NSW1,${actual(end - 300) + P5},0,${stamp(run)}`);
    }
  return rows.join('\r\n');
}

/** A trading day's (from 04:00) PREDISPATCH runs of periods 01, 13, 25 and 37 (04:00, 10:00, 16:00, 22:00), each of the 48 half hours after it. */
function predispatchFile(tradingDay: number): string {
  const d = new Date((tradingDay + 10 * HOUR) * 1000);
  const ymd = `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}`;
  const rows = ['C,NEMP.WORLD,PREDISPATCHIS,AEMO,PUBLIC,2026/01/01,00:00:00,1,PREDISPATCHIS,0'];
  rows.push('I,PREDISPATCH,REGION_PRICES,1,PREDISPATCHSEQNO,RUNNO,REGIONID,PERIODID,INTERVENTION,RRP,EEP,LASTCHANGED,DATETIME');
  for (const period of [1, 13, 25, 37]) {
    const issued = tradingDay + (period - 1) * 1800;
    for (let k = 1; k <= 48; k++) {
      const end = issued + k * 1800;
      rows.push(`D,PREDISPATCH,REGION_PRICES,1,${ymd}${pad(period)},1,NSW1,${k},0,${actual(end - 1800) + PD},0,${stamp(issued)},${stamp(end)}`);
    }
  }
  return rows.join('\r\n');
}

describe('the model forecast', () => {
  const start = market(2026, 3, 2);
  it('is the same forecast every time, and its error grows with the horizon', () => {
    expect(modelForecast(42, 'NSW1', start + 18 * HOUR, start)).toBe(modelForecast(42, 'NSW1', start + 18 * HOUR, start));
    const horizons = [0, HOUR, 6 * HOUR, 24 * HOUR];
    const mae = horizons.map((h) => {
      let sum = 0;
      let n = 0;
      for (const region of NEM_REGIONS)
        for (let t = start + 2 * DAY; t < start + 32 * DAY; t += 1500) {
          sum += Math.abs(modelForecast(42, region, t, t - h) - modelPrice(42, region, t));
          n++;
        }
      return sum / n;
    });
    for (let i = 1; i < mae.length; i++) expect(mae[i]).toBeGreaterThan(mae[i - 1]);
    // The spread is 4 % of a region's level at the interval itself and 34 % at 40 hours.
    expect(forecastSigma(0)).toBe(0.04);
    expect(forecastSigma(40)).toBeCloseTo(0.34, 10);
    expect(forecastSigma(100)).toBeCloseTo(0.34, 10);
  });

  it('sees a spike at the interval itself and misses most a few hours ahead', () => {
    let spikes = 0;
    let seenNow = 0;
    let seenAhead = 0;
    for (const region of NEM_REGIONS)
      for (let t = start; t < start + 365 * DAY; t += 300) {
        const p = modelPrice(42, region, t);
        if (p < 2000) continue;
        spikes++;
        if (modelForecast(42, region, t, t) > 1000) seenNow++;
        if (modelForecast(42, region, t, t - 4 * HOUR) > 1000) seenAhead++;
      }
    expect(spikes).toBeGreaterThan(20);
    expect(seenNow).toBe(spikes);
    expect(seenAhead).toBeLessThan(spikes / 5);
  });
});

describe('AEMO forecast files', () => {
  it('reads P5MIN_REGIONSOLUTION: each run issued 5 minutes before its RUN_DATETIME, 5-minute periods', () => {
    const day = market(2026, 7, 1);
    const f = parsePriceFile('P5MIN.CSV', strToU8(p5minFile(day)));
    expect(f.format).toBe('P5MIN');
    expect(f.prices).toEqual([]);
    expect(f.forecasts).toHaveLength(24 * 12);
    expect(f.forecasts[0]).toEqual({ region: 'NSW1', source: 'P5MIN', issuedAt: day, intervalStart: day, intervalEnd: day + 300, rrp: actual(day) + P5 });
  });

  it('reads PREDISPATCHPRICE: issued at the start of the PREDISPATCHSEQNO period, 30-minute periods, the higher RUNNO kept', () => {
    const tradingDay = market(2026, 7, 1, 4);
    expect(predispatchIssuedAt('2026070101')).toBe(tradingDay);
    expect(predispatchIssuedAt('2026070148')).toBe(tradingDay + 47 * 1800);
    expect(predispatchIssuedAt('2026070149')).toBeNull();
    const text = predispatchFile(tradingDay);
    const f = parsePriceFile('PD.CSV', strToU8(text));
    expect(f.format).toBe('PREDISPATCH');
    expect(f.forecasts).toHaveLength(4 * 48);
    expect(f.forecasts[0]).toEqual({
      region: 'NSW1',
      source: 'PREDISPATCH',
      issuedAt: tradingDay,
      intervalStart: tradingDay,
      intervalEnd: tradingDay + 1800,
      rrp: actual(tradingDay) + PD,
    });
    const rerun = `${text}\r\nD,PREDISPATCH,REGION_PRICES,1,2026070101,2,NSW1,1,0,99.5,0,${stamp(tradingDay)},${stamp(tradingDay + 1800)}`;
    expect(parsePriceFile('PD.CSV', strToU8(rerun)).forecasts[0].rrp).toBe(99.5);
  });

  it('refuses a forecast file whole, naming the line', () => {
    const refusal = (text: string) => {
      try {
        parsePriceFile('F.CSV', strToU8(text));
      } catch (err) {
        return (err as Error).message;
      }
      return 'accepted';
    };
    const lines = p5minFile(market(2026, 7, 1)).split('\r\n');
    const early = lines[2].replace(/^(D,P5MIN,REGIONSOLUTION,9,"[^"]+",0,)"[^"]+"/, '$1"2026/07/01 00:00:00"');
    expect(refusal([...lines.slice(0, 2), early].join('\r\n'))).toBe(
      'F.CSV, line 3: INTERVAL_DATETIME is before RUN_DATETIME: a run forecasts only the intervals after it.',
    );
    const pd = predispatchFile(market(2026, 7, 1, 4)).split('\r\n');
    expect(refusal([...pd.slice(0, 2), pd[2].replace(',2026070101,', ',2026070199,')].join('\r\n'))).toBe(
      'F.CSV, line 3: PREDISPATCHSEQNO is not a trading day and period (YYYYMMDDPP, PP from 01 to 48).',
    );
    expect(refusal([...pd.slice(0, 2), pd[2].replace('"2026/07/01 04:30:00"', '"2026/07/01 04:35:00"')].join('\r\n'))).toBe(
      'F.CSV, line 3: DATETIME is not on a 30-minute boundary.',
    );
    expect(
      refusal(
        [
          lines[0],
          lines[1],
          lines[2],
          ...dispatchFile(market(2026, 7, 1))
            .split('\r\n')
            .slice(1, 3),
        ].join('\r\n'),
      ),
    ).toBe('F.CSV, line 4: the file holds both P5MIN_REGIONSOLUTION and DISPATCHPRICE tables: import them apart.');
  });
});

describeEachDatabase(
  'a month of imported AEMO prices across 30 June',
  (h: () => Harness) => {
    const FIRST = market(2026, 6, 15);
    const DAYS = 30;
    let auth: { authorization: string };
    const upload = (fileName: string, body: Uint8Array) =>
      h().app.inject({
        method: 'POST',
        url: `/api/market/prices/import?fileName=${fileName}`,
        headers: { ...auth, 'content-type': 'application/zip' },
        payload: Buffer.from(body),
      });
    beforeAll(async () => {
      auth = await h().bearer((await h().user(await h().org('RETAILER', 'Price Operator'))).username);
    });

    it('imports a month of DISPATCHPRICE, P5MIN and PREDISPATCH files (two financial years) by upload, forecasts apart from actual prices', async () => {
      const days = Array.from({ length: DAYS }, (_, i) => FIRST + i * DAY);
      const zip = (make: (d: number) => string, name: string, at = (d: number) => d) =>
        zipSync(Object.fromEntries(days.map((d) => [`${name}_${new Date(d * 1000 + 10 * HOUR * 1000).toISOString().slice(0, 10)}.CSV`, strToU8(make(at(d)))])));
      const dispatch = await upload('DISPATCH_MONTH.zip', zip(dispatchFile, 'DISPATCHIS'));
      expect(dispatch.statusCode, dispatch.body).toBe(200);
      expect(dispatch.json().data).toEqual({
        fileName: 'DISPATCH_MONTH.zip',
        format: 'DISPATCHPRICE',
        regions: ['NSW1'],
        prices: DAYS * 288,
        written: DAYS * 288,
        kept: 0,
        from: FIRST,
        to: FIRST + DAYS * DAY,
        forecast: false,
      });
      const p5 = await upload('P5MIN_MONTH.zip', zip(p5minFile, 'P5MIN'));
      expect(p5.json().data).toMatchObject({ format: 'P5MIN', prices: DAYS * 24 * 12, written: DAYS * 24 * 12, forecast: true });
      const pd = await upload(
        'PREDISPATCH_MONTH.zip',
        zip(predispatchFile, 'PREDISPATCHIS', (d) => d + 4 * HOUR),
      );
      expect(pd.json().data).toMatchObject({ format: 'PREDISPATCH', prices: DAYS * 4 * 48, forecast: true });

      const count = async (table: 'market_prices' | 'market_forecasts') =>
        Number(
          (
            await h()
              .ctx.db.selectFrom(table)
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .where('region', '=', 'NSW1')
              .executeTakeFirstOrThrow()
          ).n,
        );
      // The forecasts did not touch a single actual price.
      expect(await count('market_prices')).toBe(DAYS * 288);
      expect(await count('market_forecasts')).toBe(DAYS * (24 * 12 + 4 * 48));
    });

    it('settles at the actual prices only: 21,000 $/MWh on 2 July (FY 2026-27) where the forecasts said otherwise', async () => {
      const now = FIRST + 40 * DAY;
      const settled = await settlementPrices(h().ctx, 'NSW1', SPIKE - 600, SPIKE + 600, now);
      expect(settled.map((p) => p.price)).toEqual([actual(SPIKE - 600), actual(SPIKE - 300), 21_000, actual(SPIKE + 300)]);
      // An interval not yet ended has no actual price: none is given, the settlement waits.
      expect(await actualPrices(h().ctx, 'NSW1', SPIKE - 600, SPIKE + 600, SPIKE + 1)).toEqual([
        { start: SPIKE - 600, rrp: actual(SPIKE - 600) },
        { start: SPIKE - 300, rrp: actual(SPIKE - 300) },
      ]);
    });

    it("answers the latest forecast of a window as of a time, with each interval's issue time and horizon", async () => {
      const ten = market(2026, 7, 1, 10);
      // As of 10:32: the P5MIN run issued at 10:00 to 11:00 (a tie with PREDISPATCH's 10:00 run goes to P5MIN), then PREDISPATCH's.
      const f = await latestForecast(h().ctx, 'NSW1', ten + 35 * 60, ten + 2 * HOUR, ten + 32 * 60);
      expect(f[0]).toEqual({ start: ten + 35 * 60, rrp: actual(ten + 35 * 60) + P5, issuedAt: ten, horizon: 35 * 60, source: 'P5MIN' });
      const eleven = f.find((p) => p.start === ten + HOUR + 600);
      expect(eleven).toEqual({ start: ten + HOUR + 600, rrp: actual(ten + HOUR) + PD, issuedAt: ten, horizon: HOUR + 600, source: 'PREDISPATCH' });
      // A past interval: the last forecast before it began, whenever asked.
      expect((await latestForecast(h().ctx, 'NSW1', ten + 35 * 60, ten + 40 * 60, ten + 5 * DAY))[0]).toMatchObject({ issuedAt: ten, source: 'P5MIN' });
      // As of 12:30, 13:00 has no imported run newer than an hour (PREDISPATCH's is of 10:00): the model's run of 12:30 stands in.
      const one = market(2026, 7, 1, 13);
      const model = await latestForecast(h().ctx, 'NSW1', one, one + 300, one - 30 * 60);
      expect(model).toEqual([
        { start: one, rrp: modelForecast(h().ctx.config.SIM_SEED, 'NSW1', one, one - 1800), issuedAt: one - 1800, horizon: 1800, source: 'MODEL' },
      ]);
    });

    it('forecasts 1 July (FY 2026-27) from a run issued on 30 June (FY 2025-26)', async () => {
      const june30 = market(2026, 6, 30, 22);
      const july1 = market(2026, 7, 1);
      const f = await latestForecast(h().ctx, 'NSW1', july1, july1 + HOUR, june30 + 30 * 60);
      expect(f.every((p) => p.source === 'PREDISPATCH' && p.issuedAt === june30)).toBe(true);
      expect(f[0]).toMatchObject({ rrp: actual(july1) + PD, horizon: 2 * HOUR });
      // The actual prices of the same hour are the DISPATCHPRICE file's.
      expect((await actualPrices(h().ctx, 'NSW1', july1, july1 + HOUR, july1 + DAY)).map((p) => p.rrp)).toEqual(
        Array.from({ length: 12 }, (_, i) => actual(july1 + i * 300)),
      );
    });
  },
  { MARKET_IMPORT_ORGANISATION: 'Price Operator' },
);
