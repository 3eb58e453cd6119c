import { TICKER_HIGH_TEMP_C } from '@vpp/shared/dashboard/ticker';
import { beforeAll, expect, it } from 'vitest';
import { nowS } from '../../db/database.ts';
import { saveWeather } from '../../forecast/index.ts';
import { node } from '../../test/factories.ts';
import { describeEachDatabase } from '../../test/harness.ts';
import { localDate, signAgreement } from '../customers/index.ts';
import { weatherEvents } from './dashboard.service.ts';

type Headers = { authorization: string };
type Event = { type: string; value?: number; postcode?: string; text: string };

const DAY = 86_400;
/** Two hours of last January with weather of their own: one hot in Darwin, one cool everywhere. */
const HOT = Date.UTC(2026, 0, 15, 5) / 1000;
const COOL = Date.UTC(2026, 0, 20, 17) / 1000;
const DARWIN = { lat: -12.46, lng: 130.84, region: 'NT1', postcode: '0800' };

describeEachDatabase('GET /ticker: the weather over the fleet and its counts', (h) => {
  let org: number;
  let admin: Headers;
  let nodesOnly: Headers;
  let customersOnly: Headers;
  let blind: Headers;
  let theirs: Headers;
  const now = nowS();
  const daysAgo = (d: number) => localDate(now - d * DAY, 'Australia/Sydney');

  const events = async (headers: Headers): Promise<Event[]> => {
    const res = await h().app.inject({ method: 'GET', url: '/ticker', headers });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  };
  /** The types answered, less HIGH_TEMP (whether it is hot depends on when the test runs). */
  const types = async (headers: Headers) => (await events(headers)).map((e) => e.type).filter((t) => t !== 'HIGH_TEMP');

  beforeAll(async () => {
    org = await h().org('RETAILER', 'Sunrise');
    const other = await h().org('NETWORK', 'Elsewhere');
    admin = await h().bearer((await h().user(org)).username);
    nodesOnly = await h().bearer((await h().user(org, { permissions: ['fleet.node.any'] })).username);
    customersOnly = await h().bearer((await h().user(org, { permissions: ['fleet.customerInformation.any'] })).username);
    blind = await h().bearer((await h().user(org, { permissions: ['fleet.analysis.export.view'] })).username);
    theirs = await h().bearer((await h().user(other)).username);
    const { db } = h().ctx;
    const commissionedAt = async (id: number, ts: number) => db.updateTable('nodes').set({ commissioned_at: ts }).where('id', '=', id).execute();

    // Sunrise: three homes in Newtown (one commissioned 2 days ago, one 8 days ago), one awaiting
    // commissioning, and one in Darwin.
    const [old, lastWeek, fresh] = [await node(h(), [org]), await node(h(), [org]), await node(h(), [org])];
    await commissionedAt(fresh.id, now - 2 * DAY);
    await commissionedAt(lastWeek.id, now - 8 * DAY);
    await node(h(), [org], { commissioned: false });
    const darwin = await node(h(), [org], { postcode: DARWIN.postcode, region: DARWIN.region, state: 'NT' });
    await db.updateTable('nodes').set({ lat: DARWIN.lat, lng: DARWIN.lng }).where('id', '=', darwin.id).execute();
    // Customers: one signed 3 days ago (new), one a customer for a month who upgraded yesterday (not
    // new), one signed 8 days ago (not new within 7 days).
    await signAgreement(db, org, fresh.id, 1, daysAgo(3));
    await signAgreement(db, org, old.id, 1, daysAgo(30));
    await signAgreement(db, org, old.id, 2, daysAgo(1));
    await signAgreement(db, org, lastWeek.id, 1, daysAgo(8));

    // Elsewhere: its own home commissioned today, two awaiting and a new customer, none of them Sunrise's.
    const theirsNew = await node(h(), [other]);
    await commissionedAt(theirsNew.id, now - 3600);
    await node(h(), [other], { commissioned: false });
    await node(h(), [other], { commissioned: false });
    await signAgreement(db, other, theirsNew.id, 1, daysAgo(0));

    // The weather the console keeps: the hours around now, and two chosen hours of last January.
    const hour = now - (now % 3600);
    const around = [hour - 3600, hour, hour + 3600].flatMap((ts) => [
      { postcode: '2042', ts, cloud_cover: 0.4, air_temp_c: 21, issued_at: ts - 3600 },
      { postcode: DARWIN.postcode, ts, cloud_cover: 0.9, air_temp_c: 29, issued_at: ts - 3600 },
    ]);
    const chosen = [
      { postcode: '2042', ts: HOT, cloud_cover: 0.2, air_temp_c: 24.04, issued_at: HOT - 3600 },
      { postcode: DARWIN.postcode, ts: HOT, cloud_cover: 0.7, air_temp_c: 36.38, issued_at: HOT - 3600 },
      { postcode: '2042', ts: COOL, cloud_cover: 0.5, air_temp_c: 18, issued_at: COOL - 3600 },
      { postcode: DARWIN.postcode, ts: COOL, cloud_cover: 0.1, air_temp_c: 25, issued_at: COOL - 3600 },
    ];
    await saveWeather(db, [...around, ...chosen]);
  });

  it("counts the organisation's nodes commissioned in the last 7 days, awaiting commissioning, and its new customers, in the ticker's words", async () => {
    const counts = (await events(admin)).filter((e) => ['NEWLY_COMMISSIONED', 'AWAITING_COMMISSION', 'NEW_CUSTOMERS'].includes(e.type));
    expect(counts).toEqual([
      { type: 'NEWLY_COMMISSIONED', value: 1, text: '1 node commissioned in the last 7 days' },
      { type: 'AWAITING_COMMISSION', value: 1, text: '1 node awaiting commissioning' },
      { type: 'NEW_CUSTOMERS', value: 1, text: '1 new customer in the last 7 days' },
    ]);
    const elsewhere = (await events(theirs)).filter((e) => ['NEWLY_COMMISSIONED', 'AWAITING_COMMISSION', 'NEW_CUSTOMERS'].includes(e.type));
    expect(elsewhere.map((e) => [e.type, e.value])).toEqual([
      ['NEWLY_COMMISSIONED', 1],
      ['AWAITING_COMMISSION', 2],
      ['NEW_CUSTOMERS', 1],
    ]);
  });

  it('answers the cloud cover over the fleet, 0 to 1, with its words', async () => {
    const cloud = (await events(admin)).filter((e) => e.type === 'CLOUD_COVER');
    expect(cloud).toHaveLength(1);
    const value = cloud[0].value as number;
    expect(value).toBeGreaterThanOrEqual(0);
    expect(value).toBeLessThanOrEqual(1);
    expect(cloud[0].text).toBe(`Cloud cover across the fleet is ${Math.round(value * 100)}%`);
  });

  it(`answers HIGH_TEMP for each postcode of the fleet at or above ${TICKER_HIGH_TEMP_C} °C, and none when it is cooler`, async () => {
    // At the middle of each hour the hour's values stand as they are; four nodes are in 2042, one in 0800.
    const atHot = await weatherEvents(h().ctx, org, HOT + 1800);
    expect(atHot).toEqual([
      { type: 'CLOUD_COVER', value: 0.3, text: 'Cloud cover across the fleet is 30%' },
      { type: 'HIGH_TEMP', value: 36.4, postcode: '0800', text: 'High temperature of 36.4 °C in postcode 0800' },
    ]);
    expect(await weatherEvents(h().ctx, org, COOL + 1800)).toEqual([{ type: 'CLOUD_COVER', value: 0.42, text: 'Cloud cover across the fleet is 42%' }]);
    // Between two hours, the values in between.
    const between = await weatherEvents(h().ctx, org, now - (now % 3600));
    expect(between[0]).toEqual({ type: 'CLOUD_COVER', value: 0.5, text: 'Cloud cover across the fleet is 50%' });
  });

  it('answers no weather where the console has none for the fleet', async () => {
    expect(await weatherEvents(h().ctx, org, Date.UTC(2025, 5, 1) / 1000)).toEqual([]);
  });

  it('shows each event to those who may see what it tells of', async () => {
    expect(await types(admin)).toEqual(['CLOUD_COVER', 'NEWLY_COMMISSIONED', 'AWAITING_COMMISSION', 'NEW_CUSTOMERS']);
    expect(await types(nodesOnly)).toEqual(['CLOUD_COVER', 'NEWLY_COMMISSIONED', 'AWAITING_COMMISSION']);
    expect(await types(customersOnly)).toEqual(['CLOUD_COVER', 'NEW_CUSTOMERS']);
    expect(await events(blind)).toEqual([]);
  });
});
