import fs from 'node:fs';
import path from 'node:path';
import { MARKET_MESSAGES } from '@vpp/shared/market/rules';
import { MESSAGES } from '@vpp/shared/messages';
import { PERMISSIONS } from '@vpp/shared/permissions/registry';
import { strToU8, zipSync } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import { nowS } from '../../db/database.ts';
import { node } from '../../test/factories.ts';
import { describeEachDatabase, type Harness } from '../../test/harness.ts';
import { regionPrices, settlementPrices } from './index.ts';
import { marketDayStart, modelPrice } from './market.model.ts';

const SAMPLES = path.join(import.meta.dirname, 'samples');
const PD = 'PRICE_AND_DEMAND_202501_SA1.csv';
const MMS = 'PUBLIC_DISPATCHIS_202501151005_0000000445123456.CSV';
/** 00:00 on 1 January 2025, market time (UTC+10): the sample's first interval starts here. */
const NEW_YEAR = Date.UTC(2024, 11, 31, 14) / 1000;
const ALL = PERMISSIONS.map((p) => p.name);

async function vpp(h: Harness, auth: { authorization: string }, nodes: number[], name = 'Market VPP'): Promise<number> {
  const res = await h.app.inject({ method: 'POST', url: '/api/powerstations', headers: auth, payload: { type: 'STATIC', name, nodes } });
  if (res.statusCode !== 200) throw new Error(res.body);
  return res.json().data.id;
}

function upload(h: Harness, auth: { authorization: string }, fileName: string, body: Buffer | Uint8Array | string, type = 'application/octet-stream') {
  return h.app.inject({
    method: 'POST',
    url: `/api/market/prices/import?fileName=${encodeURIComponent(fileName)}`,
    headers: { ...auth, 'content-type': type },
    payload: typeof body === 'string' ? body : Buffer.from(body),
  });
}

describeEachDatabase(
  'market prices',
  (h) => {
    let admin: { authorization: string };
    let org: number;
    let nsw: number;
    let sa: number;
    let mixed: number;
    let wa: number;
    beforeAll(async () => {
      org = await h().org('RETAILER', 'Market Energy');
      admin = await h().bearer((await h().user(org)).username);
      const n1 = (await node(h(), [org])).id;
      const n2 = (await node(h(), [org])).id;
      const v1 = (await node(h(), [org], { state: 'VIC', region: 'VIC1', postcode: '3000' })).id;
      const s1 = (await node(h(), [org], { state: 'SA', region: 'SA1', postcode: '5000' })).id;
      const w1 = (await node(h(), [org], { state: 'WA', region: 'WEM', postcode: '6000' })).id;
      const t1 = (await node(h(), [org], { state: 'NT', region: 'NT', postcode: '0800' })).id;
      nsw = await vpp(h(), admin, [n1, n2], 'Sydney');
      sa = await vpp(h(), admin, [s1, w1], 'Adelaide');
      mixed = await vpp(h(), admin, [n1, n2, v1], 'East coast');
      wa = await vpp(h(), admin, [w1, t1], 'West and north');
    });
    const get = (url: string, auth = admin) => h().app.inject({ method: 'GET', url, headers: auth });

    describe('the price model through the API', () => {
      it("answers a VPP's region series: each 30-minute point the average of its six 5-minute model prices", async () => {
        const { SIM_SEED: seed } = h().ctx.config;
        const start = marketDayStart(nowS()) - 86400;
        const res = await get(`/powerstation/${nsw}/prices?start=${start}&end=${start + 86400}`);
        expect(res.statusCode, res.body).toBe(200);
        const body = res.json();
        expect(body).toMatchObject({
          status: 'OK',
          regions: [{ region: 'NSW1', nodes: 2 }],
          reason: null,
          market: { region: 'NSW1', multipleRegions: false, step: 1800 },
        });
        const keys = Object.keys(body.market.rrp).map(Number);
        expect(keys).toEqual(Array.from({ length: 48 }, (_, i) => start + i * 1800));
        for (const t of [start, start + 12 * 3600, start + 18.5 * 3600]) {
          const six = Array.from({ length: 6 }, (_, i) => modelPrice(seed, 'NSW1', t + i * 300));
          expect(body.market.rrp[t]).toBe(Math.round((six.reduce((a, b) => a + b, 0) / 6) * 100) / 100);
        }
      });

      it("never changes a price once written: another seed later reads the same day's prices", async () => {
        const start = marketDayStart(nowS()) - 86400;
        const before = await regionPrices(h().ctx, 'NSW1', start, start + 86400);
        const reseeded = { ...h().ctx, config: { ...h().ctx.config, SIM_SEED: h().ctx.config.SIM_SEED + 1 } };
        expect(await regionPrices(reseeded, 'NSW1', start, start + 86400)).toEqual(before);
        const stored = await h()
          .ctx.db.selectFrom('market_prices')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('region', '=', 'NSW1')
          .executeTakeFirstOrThrow();
        expect(Number(stored.n)).toBeGreaterThanOrEqual(288);
        // Forecasts are computed, never written as prices: another seed gives others.
        const far = marketDayStart(nowS()) + 86400;
        expect(await regionPrices(reseeded, 'NSW1', far, far + 3600)).not.toEqual(await regionPrices(h().ctx, 'NSW1', far, far + 3600));
      });

      it('says when the VPP spans NEM regions, and trades at the region holding most of its nodes', async () => {
        const body = (await get(`/powerstation/${mixed}/prices`)).json();
        expect(body.regions).toEqual([
          { region: 'NSW1', nodes: 2 },
          { region: 'VIC1', nodes: 1 },
        ]);
        expect(body.market).toMatchObject({ region: 'NSW1', multipleRegions: true });
        expect(Object.keys(body.market.rrp)).toHaveLength(48);
      });

      it('gives a VPP of WA and NT nodes no market data, and says why', async () => {
        expect((await get(`/powerstation/${wa}/prices`)).json()).toEqual({
          status: 'OK',
          market: null,
          regions: [
            { region: 'NT', nodes: 1 },
            { region: 'WEM', nodes: 1 },
          ],
          reason: MARKET_MESSAGES.outsideNem,
        });
        const at = Math.ceil(nowS() / 300) * 300 + 3600;
        expect((await get(`/dispatch/price?powerstation=${wa}&startTime=${at}&duration=3600&realPowerP=-10`)).json()).toEqual({
          status: 'OK',
          dispatchPrice: null,
          tradingPrice: null,
          region: null,
          multipleRegions: false,
          reason: MARKET_MESSAGES.outsideNem,
        });
      });

      it('forecasts no further than 2 days ahead', async () => {
        const at = Math.ceil(nowS() / 300) * 300 + 2 * 86400;
        expect((await get(`/dispatch/price?powerstation=${nsw}&startTime=${at}&duration=3600&realPowerP=-10`)).json()).toEqual({
          status: 'OK',
          dispatchPrice: null,
          tradingPrice: null,
          region: 'NSW1',
          multipleRegions: false,
          reason: MARKET_MESSAGES.beyondForecast,
        });
      });
    });

    describe('importing AEMO price files', () => {
      it('imports the sample through the API: its prices replace the model’s, and the dispatch price is theirs', async () => {
        const before = (await get(`/powerstation/${sa}/prices?start=${NEW_YEAR}&end=${NEW_YEAR + 3600}`)).json();
        expect(before.market.region).toBe('SA1');
        const res = await upload(h(), admin, PD, fs.readFileSync(path.join(SAMPLES, PD)), 'text/csv');
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json()).toEqual({
          status: 'OK',
          data: {
            fileName: PD,
            format: 'PRICE_AND_DEMAND',
            regions: ['SA1'],
            prices: 12,
            written: 12,
            kept: 0,
            from: NEW_YEAR,
            to: NEW_YEAR + 3600,
            forecast: false,
          },
        });
        // (141.48 + 136.59 + 142.05 + 139.87 + 135.12 + 131.40) / 6 = 137.751…; (128.93 + 126.05 − 12.50 + 119.76 + 117.20 + 115.63) / 6 = 99.178…
        const after = (await get(`/powerstation/${sa}/prices?start=${NEW_YEAR}&end=${NEW_YEAR + 3600}`)).json();
        expect(after.market.rrp).toEqual({ [NEW_YEAR]: 137.75, [NEW_YEAR + 1800]: 99.18 });
        expect(after.market.multipleRegions).toBe(false);

        // Discharging 100 kW for the first half hour: −100 kW × 5/60 h × 826.51 $/MWh ÷ 1000 = −6.8876 AUD.
        const discharge = await get(`/dispatch/price?powerstation=${sa}&startTime=${NEW_YEAR}&duration=1800&realPowerP=-100&powerFactor=0.95`);
        // Its WA node is not priced, and the reply says so (issue 33 item 8).
        expect(discharge.json()).toEqual({
          status: 'OK',
          dispatchPrice: -6.89,
          tradingPrice: 137.75,
          region: 'SA1',
          multipleRegions: false,
          reason: MARKET_MESSAGES.partlyOutsideNem(1),
        });
        expect(MARKET_MESSAGES.partlyOutsideNem(1)).toBe(
          '1 of this Virtual Power Plant’s nodes is in WA or NT, outside the National Electricity Market: it is not priced for NEM dispatch, and its energy earns no NEM price when a dispatch is settled.',
        );
        expect(after.reason).toBe(MARKET_MESSAGES.partlyOutsideNem(1));
        // Charging 250 kW for the second: 250 × 5/60 × 595.07 ÷ 1000 = 12.3973 AUD at an average of 99.18 $/MWh.
        const charge = await get(`/dispatch/price?powerstation=${sa}&startTime=${NEW_YEAR + 1800}&duration=1800&realPowerP=250`);
        expect(charge.json()).toMatchObject({ dispatchPrice: 12.4, tradingPrice: 99.18 });
        // 00:40 to 00:50: (−12.50 + 119.76) / 2 = 53.63 $/MWh; 40 kW × 5/60 × 107.26 ÷ 1000 = 0.3575 AUD.
        const short = await get(`/dispatch/price?powerstation=${sa}&startTime=${NEW_YEAR + 2400}&duration=600&realPowerP=40`);
        expect(short.json()).toMatchObject({ dispatchPrice: 0.36, tradingPrice: 53.63 });
        const lockout = await get(`/dispatch/price?powerstation=${sa}&startTime=${NEW_YEAR}&duration=3600&realPowerP=0`);
        expect(lockout.json()).toMatchObject({ dispatchPrice: 0, tradingPrice: 118.46 });
      });

      it('keeps the newest revision of a DISPATCHPRICE interval, whatever the order of the imports', async () => {
        const original = fs.readFileSync(path.join(SAMPLES, MMS), 'utf8');
        const revised = original
          .replace(
            /(D,DISPATCH,PRICE,5,"2025\/01\/15 10:05:00",1,NSW1,\d+,0,)96\.02,0,96\.02,0,0,"2025\/01\/15 10:00:06"/,
            '$1101.5,0,101.5,0,0,"2025/01/15 10:20:00"',
          )
          .replace('10:05:05', '10:20:05');
        expect(revised).not.toBe(original);
        const first = await upload(h(), admin, 'revised.zip', zipSync({ [MMS]: strToU8(revised) }), 'application/zip');
        expect(first.json().data).toMatchObject({
          format: 'DISPATCHPRICE',
          regions: ['NSW1', 'QLD1', 'SA1', 'TAS1', 'VIC1'],
          prices: 10,
          written: 10,
          kept: 0,
        });
        const second = await upload(h(), admin, MMS, fs.readFileSync(path.join(SAMPLES, MMS)));
        expect(second.json().data).toMatchObject({ prices: 10, written: 9, kept: 1 });
        const ten = Date.UTC(2025, 0, 15, 0) / 1000;
        expect(await regionPrices(h().ctx, 'NSW1', ten - 300, ten + 300)).toEqual([
          { start: ten - 300, rrp: 94.17 },
          { start: ten, rrp: 101.5 },
        ]);
      });

      it('refuses a malformed file whole with its line, and writes nothing', async () => {
        const count = async () =>
          Number(
            (
              await h()
                .ctx.db.selectFrom('market_prices')
                .select((eb) => eb.fn.countAll<number>().as('n'))
                .where('source', '=', 'AEMO')
                .executeTakeFirstOrThrow()
            ).n,
          );
        const imports = async () =>
          Number(
            (
              await h()
                .ctx.db.selectFrom('market_imports')
                .select((eb) => eb.fn.countAll<number>().as('n'))
                .executeTakeFirstOrThrow()
            ).n,
          );
        const [prices, done] = [await count(), await imports()];
        const lines = fs.readFileSync(path.join(SAMPLES, PD), 'utf8').replace('2025/01/01', '2025/02/01').split('\r\n');
        lines[9] = 'SA1,2025/02/01 00:45:00,1336.41,-12.50';
        const res = await upload(h(), admin, 'PRICE_AND_DEMAND_202502_SA1.csv', lines.join('\r\n'), 'text/csv');
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual({
          status: 'ERROR',
          error: 'price_file_malformed',
          message: 'PRICE_AND_DEMAND_202502_SA1.csv, line 10: the row has 4 fields where the header has 5.',
          data: { message: 'PRICE_AND_DEMAND_202502_SA1.csv, line 10: the row has 4 fields where the header has 5.' },
        });
        expect([await count(), await imports()]).toEqual([prices, done]);
      });

      it('refuses a file over 32 MB, pointing to the command line', async () => {
        const res = await upload(h(), admin, 'huge.csv', Buffer.alloc(32 * 1024 * 1024 + 1, 0x41));
        expect(res.statusCode).toBe(413);
        expect(res.json()).toMatchObject({ status: 'ERROR', data: { message: MARKET_MESSAGES.fileTooLarge } });
        const bad = await upload(h(), admin, 'bad.csv', 'x', 'text/csv');
        expect(bad.json().data.message).toBe(
          'bad.csv, line 1: this is neither an AEMO PRICE_AND_DEMAND file (header REGION,SETTLEMENTDATE,TOTALDEMAND,RRP,PERIODTYPE) nor an MMS file (C, I and D rows: DISPATCHPRICE, P5MIN_REGIONSOLUTION or PREDISPATCHPRICE).',
        );
      });

      it('refuses an upload of inner zips that together unpack beyond 256 MB, reading it off the event loop', async () => {
        // Issue 32, item 2: three inner zips of 100 MB each (about 100 KB packed) in one small upload.
        const inner = zipSync({ 'PRICE_AND_DEMAND_202501_NSW1.csv': new Uint8Array(100 * 2 ** 20) }, { level: 1 });
        const bomb = zipSync({ 'a.zip': inner, 'b.zip': inner, 'c.zip': inner }, { level: 0 });
        expect(bomb.length).toBeLessThan(2 ** 20);
        const imported = async () => (await h().ctx.db.selectFrom('market_prices').select('region').where('source', '!=', 'MODEL').execute()).length;
        const before = await imported();
        const order: string[] = [];
        const refused = upload(h(), admin, 'bomb.zip', bomb).then((res) => {
          order.push('import');
          return res;
        });
        // The server answers other calls while the file is read.
        const other = h()
          .app.inject({ method: 'GET', url: '/healthz' })
          .then((res) => {
            order.push('healthz');
            return res;
          });
        const [res, health] = await Promise.all([refused, other]);
        expect(health.statusCode).toBe(200);
        expect(order).toEqual(['healthz', 'import']);
        expect(res.statusCode).toBe(400);
        expect(res.json()).toMatchObject({ error: 'price_file_malformed', data: { message: 'bomb.zip/c.zip: the upload unpacks to more than 256 MB.' } });
        expect(await imported()).toBe(before);
      });

      it('takes the file as the body, not as JSON', async () => {
        const res = await h().app.inject({ method: 'POST', url: '/api/market/prices/import', headers: admin, payload: { file: 'x' } });
        expect(res.statusCode).toBe(400);
        expect(res.json().data.message).toBe(MARKET_MESSAGES.notAFile);
      });
    });

    describe('market settings by financial year: a month of prices across 30 June 2026', () => {
      /** 00:00 market time (UTC+10) of a day of 2026 (month 1-12). */
      const day = (month: number, d: number) => Date.UTC(2026, month - 1, d) / 1000 - 10 * 3600;
      const stamp = (t: number) => {
        const m = new Date((t + 10 * 3600) * 1000).toISOString();
        return `${m.slice(0, 4)}/${m.slice(5, 7)}/${m.slice(8, 10)} ${m.slice(11, 19)}`;
      };
      /** 16:00 on 29 June 2026 (FY 2025-26): the first of 100 intervals at 20,000 $/MWh, under that year's cap of 20,300. */
      const RUN = day(6, 29) + 16 * 3600;
      /** 18:00 on 2 July 2026 (FY 2026-27): 21,000 $/MWh, above 2025-26's cap and under 2026-27's. */
      const JULY_SPIKE = day(7, 2) + 18 * 3600;
      const rrpAt = (start: number) => (start >= RUN && start < RUN + 100 * 300 ? 20_000 : start === JULY_SPIKE ? 21_000 : 100);
      /** A PRICE_AND_DEMAND file of NSW1's 5-minute intervals starting in [from, to), AEMO stamping each by its end. */
      const file = (from: number, to: number, rrp = rrpAt) => {
        const rows = ['REGION,SETTLEMENTDATE,TOTALDEMAND,RRP,PERIODTYPE'];
        for (let t = from; t < to; t += 300) rows.push(`NSW1,${stamp(t + 300)},8000.00,${rrp(t).toFixed(2)},TRADE`);
        return `${rows.join('\n')}\n`;
      };

      it('checks each interval against its own year: 21,000 $/MWh is refused in June 2026 and accepted in July 2026', async () => {
        // 18:00 on 28 June is the 13th day's 217th interval of the file: line 1 + 12 × 288 + 216 + 1.
        const june = file(day(6, 16), day(7, 1), (t) => (t === day(6, 28) + 18 * 3600 ? 21_000 : 100));
        const refused = await upload(h(), admin, 'PRICE_AND_DEMAND_202606_NSW1.csv', june, 'text/csv');
        expect(refused.statusCode).toBe(400);
        expect(refused.json().message).toBe('PRICE_AND_DEMAND_202606_NSW1.csv, line 3674: RRP is above the market price cap of 20300 $/MWh of FY 2025-26.');
        const july = await upload(h(), admin, 'PRICE_AND_DEMAND_202607_NSW1.csv', file(day(7, 1), day(7, 16)), 'text/csv');
        expect(july.statusCode, july.body).toBe(200);
        expect(july.json().data).toMatchObject({ prices: 15 * 288, written: 15 * 288, from: day(7, 1), to: day(7, 16) });
        const june2 = await upload(h(), admin, 'PRICE_AND_DEMAND_202606_NSW1.csv', file(day(6, 16), day(7, 1)), 'text/csv');
        expect(june2.statusCode, june2.body).toBe(200);
        expect(june2.json().data).toMatchObject({ prices: 15 * 288, written: 15 * 288 });
        expect((await regionPrices(h().ctx, 'NSW1', JULY_SPIKE, JULY_SPIKE + 300))[0].rrp).toBe(21_000);
      });

      it('settles a run of prices over the cumulative price threshold at the administered price cap, to the end of the trading day', async () => {
        // The 83rd interval of the run (22:50) is the first whose previous 2016 intervals sum over FY 2025-26's
        // CPT of 1,823,600: 82 × 20,000 + 1934 × 100 = 1,833,400 (after 81: 1,813,500). From there the price is
        // held at the APC of 600 to the end of the trading day (04:00 on 30 June); at 04:00 the previous 2016
        // still sum 82 × 20,000 + 17 × 600 (22:55 to 00:15; the rest of the run) + … over the CPT, so the
        // period runs on through the next trading day, into FY 2026-27, and ends at 04:00 on 1 July, when the
        // sum (about 1.84 million) is under 2026-27's CPT of 2,225,700.
        const from = RUN + 80 * 300;
        const prices = await settlementPrices(h().ctx, 'NSW1', from, day(7, 1) + 5 * 3600);
        const at = (t: number) => prices.find((p) => p.start === t);
        expect(at(RUN + 81 * 300)).toEqual({ start: RUN + 81 * 300, rrp: 20_000, price: 20_000, administered: false });
        expect(at(RUN + 82 * 300)).toEqual({ start: RUN + 82 * 300, rrp: 20_000, price: 600, administered: true });
        expect(at(RUN + 99 * 300)).toEqual({ start: RUN + 99 * 300, rrp: 20_000, price: 600, administered: true });
        expect(at(day(6, 30) + 12 * 3600)).toEqual({ start: day(6, 30) + 12 * 3600, rrp: 100, price: 100, administered: true });
        expect(at(day(7, 1) + 4 * 3600 - 300)).toMatchObject({ price: 100, administered: true });
        expect(at(day(7, 1) + 4 * 3600)).toMatchObject({ price: 100, administered: false });
        expect(prices.filter((p) => p.administered)).toHaveLength(prices.findIndex((p) => p.start === day(7, 1) + 4 * 3600) - 2);
      });
    });

    describe('who sees market data', () => {
      it('hides it from a NETWORK user without fleet.dispatches.marketTrader, and shows it to one with it', async () => {
        const network = await h().org('NETWORK', 'Grid Co');
        const theirNode = (await node(h(), [network])).id;
        const withAll = await h().bearer((await h().user(network, { permissions: ALL.filter((p) => p !== 'fleet.administrator') })).username);
        const theirVpp = await vpp(h(), withAll, [theirNode], 'Grid VPP');
        const without = await h().bearer(
          (await h().user(network, { permissions: ALL.filter((p) => p !== 'fleet.administrator' && p !== 'fleet.dispatches.marketTrader') })).username,
        );
        const at = Math.ceil(nowS() / 300) * 300 + 3600;
        for (const url of [`/powerstation/${theirVpp}/prices`, `/dispatch/price?powerstation=${theirVpp}&startTime=${at}&duration=1800&realPowerP=-5`]) {
          const hidden = await get(url, without);
          expect(hidden.statusCode).toBe(403);
          expect(hidden.json()).toMatchObject({ error: 'market_data_hidden', data: { message: MARKET_MESSAGES.hidden } });
          expect((await get(url, withAll)).statusCode).toBe(200);
        }
        // A RETAILER's user sees it without the permission.
        const retailer = await h().bearer((await h().user(org, { permissions: ['fleet.dispatches.any'] })).username);
        expect((await get(`/powerstation/${nsw}/prices`, retailer)).statusCode).toBe(200);
      });

      it('answers 403 without the dispatch permissions, and only administrators import', async () => {
        const none = await h().bearer((await h().user(org, { permissions: ['fleet.powerstations.any'] })).username);
        const res = await get(`/powerstation/${nsw}/prices`, none);
        expect(res.statusCode).toBe(403);
        expect(res.json().data.message).toBe(MESSAGES.notAuthorized);
        const trader = await h().bearer((await h().user(org, { permissions: ALL.filter((p) => p !== 'fleet.administrator') })).username);
        expect((await upload(h(), trader, PD, fs.readFileSync(path.join(SAMPLES, PD)))).statusCode).toBe(403);
      });

      it("lets only the operating organisation's administrators import: another organisation's cannot move everyone's prices", async () => {
        const other = await h().org('RETAILER', 'Other Energy');
        const theirAdmin = await h().bearer((await h().user(other)).username);
        const before = await h()
          .ctx.db.selectFrom('market_imports')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow();
        const res = await upload(h(), theirAdmin, PD, fs.readFileSync(path.join(SAMPLES, PD)));
        expect(res.statusCode).toBe(403);
        expect(res.json().data.message).toBe(MARKET_MESSAGES.importOperatorOnly);
        const after = await h()
          .ctx.db.selectFrom('market_imports')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow();
        expect(Number(after.n)).toBe(Number(before.n));
      });

      it("answers 404 for another organisation's VPP, never its data", async () => {
        const other = await h().org('RETAILER', 'Other Energy');
        const otherAuth = await h().bearer((await h().user(other)).username);
        const at = Math.ceil(nowS() / 300) * 300 + 3600;
        for (const url of [`/powerstation/${nsw}/prices`, `/dispatch/price?powerstation=${nsw}&startTime=${at}&duration=1800&realPowerP=-5`]) {
          const res = await get(url, otherAuth);
          expect(res.statusCode).toBe(404);
          expect(res.json().data.message).toBe('No such Virtual Power Plant.');
          expect(res.body).not.toContain('Sydney');
        }
      });
    });

    describe('bad input', () => {
      const at = () => Math.ceil(nowS() / 300) * 300 + 3600;
      it.each([
        [
          'startTime off the 5-minute grid',
          (id: number) => `/dispatch/price?powerstation=${id}&startTime=${at() + 60}&duration=1800&realPowerP=-5`,
          'startTime must be on a 5-minute boundary.',
        ],
        [
          'duration not in 5-minute steps',
          (id: number) => `/dispatch/price?powerstation=${id}&startTime=${at()}&duration=1000&realPowerP=-5`,
          'duration must be a whole number of 5-minute steps (a multiple of 300 seconds).',
        ],
        [
          'duration over 2 days',
          (id: number) => `/dispatch/price?powerstation=${id}&startTime=${at()}&duration=172801&realPowerP=-5`,
          'duration must be a whole number from 300 to 172800.',
        ],
        [
          'no realPowerP',
          (id: number) => `/dispatch/price?powerstation=${id}&startTime=${at()}&duration=1800`,
          'realPowerP must be a number of kW from -10000000 to 10000000.',
        ],
        [
          'a power factor below 0.7',
          (id: number) => `/dispatch/price?powerstation=${id}&startTime=${at()}&duration=1800&realPowerP=-5&powerFactor=0.5`,
          'powerFactor must be a number from 0.7 to 1.',
        ],
        [
          'no powerstation',
          () => `/dispatch/price?startTime=${at()}&duration=1800&realPowerP=-5`,
          'The Virtual Power Plant id must be a whole number from 1 to 2147483647.',
        ],
        ['a series ending before it starts', (id: number) => `/powerstation/${id}/prices?start=${at()}&end=${at() - 1800}`, 'end must be after start.'],
        [
          'a series over 2 days',
          (id: number) => `/powerstation/${id}/prices?start=${at()}&end=${at() + 2 * 86400 + 1800}`,
          'A price series can cover at most 2 days.',
        ],
        ['a file name too long', () => `/api/market/prices/import?fileName=${'x'.repeat(256)}`, 'fileName can be at most 255 characters.'],
      ])('answers 400 to %s, naming the field', async (_, url, message) => {
        const target = url(nsw);
        const res = target.startsWith('/api/market')
          ? await h().app.inject({ method: 'POST', url: target, headers: { ...admin, 'content-type': 'text/csv' }, payload: 'x' })
          : await get(target);
        expect(res.statusCode).toBe(400);
        expect(res.json().data.message).toBe(message);
      });
    });
  },
  { MARKET_IMPORT_ORGANISATION: 'Market Energy' },
);
