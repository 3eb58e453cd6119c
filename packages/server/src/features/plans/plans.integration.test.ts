import { OUTSIDE_NEM_REASONS } from '@vpp/shared/customers/networks';
import { PLAN_TYPES, type PlanType } from '@vpp/shared/plans/constants';
import { PLAN_MESSAGES as M } from '@vpp/shared/plans/messages';
import { planStructure } from '@vpp/shared/plans/rules';
import type { SavePlanBody } from '@vpp/shared/plans/schemas';
import { beforeAll, describe, expect, it } from 'vitest';
import { node } from '../../test/factories.ts';
import { describeEachDatabase } from '../../test/harness.ts';
import { assignPlan } from '../customers/index.ts';

/** A valid plan of each type, built from the structure the form regenerates and filled in. */
function planOf(type: PlanType, name: string, code: string, over: Partial<SavePlanBody> = {}): SavePlanBody {
  const s = planStructure(type);
  const fill = (rates: typeof s.rates, demand: boolean) =>
    rates.map((r, i) => ({
      ...r,
      blocks: r.blocks.map((_b, j) => ({ onset: j === 0 ? '0' : '100', price: (0.2 + i * 0.1 + j * 0.05).toFixed(4) })),
      periods: r.periods.map((p) =>
        demand
          ? { ...p, startTime: '15:00', endTime: '21:00', applicableDays: ['MON' as const, 'TUE' as const] }
          : i === 0
            ? { ...p, startTime: '00:00', endTime: '16:00', applicableDays: ['MON' as const, 'SAT' as const] }
            : { ...p, startTime: '16:00', endTime: '21:00', applicableDays: ['MON' as const, 'PUBLIC_HOLIDAYS' as const] },
      ),
    }));
  return {
    name,
    planCode: code,
    description: `${type} plan`,
    tariffType: type,
    operationalNetworkUid: 'ausgrid',
    startDate: '2026-01-01',
    resetPeriod: type === 'BLOCK' || type === 'TOU_BLOCK' ? 'MONTHLY' : null,
    dailyCharge: '1.1000',
    feedInTariff: '0.0500',
    rates: fill(s.rates, false),
    demandRates: fill(s.demandRates, true),
    ...over,
  };
}

describeEachDatabase('plans', (h) => {
  let org: number;
  let headers: { authorization: string };
  const post = (payload: object, hdrs = headers) => h().app.inject({ method: 'POST', url: '/contracts/plan', headers: hdrs, payload });
  const put = (id: number, payload: object, hdrs = headers) => h().app.inject({ method: 'PUT', url: `/contracts/plan/${id}`, headers: hdrs, payload });
  const get = (url: string, hdrs = headers) => h().app.inject({ method: 'GET', url, headers: hdrs });
  const create = async (body: SavePlanBody) => {
    const res = await post(body);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  };

  beforeAll(async () => {
    org = await h().org('RETAILER', 'Tariff Energy');
    headers = await h().bearer((await h().user(org)).username);
  });

  it('lists the operational networks', async () => {
    const res = await get('/contracts/plan/operational-networks');
    expect(res.statusCode).toBe(200);
    const names = res.json().data.networks.map((n: { name: string }) => n.name);
    expect(names).toEqual([
      'Ausgrid',
      'Endeavour Energy',
      'Essential Energy',
      'Evoenergy',
      'Energex',
      'Ergon Energy',
      'SA Power Networks',
      'CitiPower',
      'Powercor',
      'Jemena',
      'AusNet Services',
      'United Energy',
      'TasNetworks',
      'Western Power',
      'Power and Water',
    ]);
  });

  it.each(PLAN_TYPES.map((t) => [t]))('saves a %s plan and reads it back', async (type) => {
    const body = planOf(type, `Read back ${type}`, `RB-${type}`);
    const saved = await create(body);
    const read = (await get(`/contracts/plan/${saved.uid}`)).json().data;
    expect(read).toEqual(saved);
    expect(read).toMatchObject({
      name: `Read back ${type}`,
      planCode: `RB-${type}`,
      tariffType: type,
      operationalNetwork: 'Ausgrid',
      startDate: '2026-01-01',
      dailyCharge: 1.1,
      feedInTariff: 0.05,
      customersCount: 0,
    });
    expect(read.rates[0]).toMatchObject({ label: 'Base Rate', isBaseRate: true });
    expect(read.rates.map((r: { blocks: unknown[] }) => r.blocks.length)).toEqual(planStructure(type).rates.map((r) => r.blocks.length));
    expect(read.demandRates.length).toBe(planStructure(type).demandRates.length);
    expect(read.versions).toEqual([expect.objectContaining({ latest: true, startDate: '2026-01-01', endDate: null, tariffType: type })]);
  });

  it('finds a plan by its code, spaces and slashes included', async () => {
    const saved = await create(planOf('FLAT_RATE', 'Coded plan', 'HOME / SAVER 1'));
    const res = await get(`/contracts/plan/code/${encodeURIComponent('HOME / SAVER 1')}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.uid).toBe(saved.uid);
    expect((await get(`/contracts/plan/code/${encodeURIComponent('home / saver 1')}`)).json().data.uid).toBe(saved.uid);
    expect((await get(`/contracts/plan/code/${encodeURIComponent('NOPE/1')}`)).statusCode).toBe(404);
    // Another organisation's code is not found, and says nothing of the plan.
    const other = await h().bearer((await h().user(await h().org('RETAILER'))).username);
    const theirs = await get(`/contracts/plan/code/${encodeURIComponent('HOME / SAVER 1')}`, other);
    expect(theirs.statusCode).toBe(404);
    expect(theirs.body).not.toContain('Coded plan');
  });

  it('answers every message of the form per field, and changes nothing', async () => {
    const before = (await get('/contracts/plan')).json().data.total;
    const res = await post({
      name: ' ',
      dailyCharge: 'abc',
      feedInTariff: '',
      operationalNetworkUid: '',
      startDate: '',
      rates: [],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      status: 'ERROR',
      data: {
        message: M.correctErrors,
        errors: {
          name: M.nameRequired,
          planCode: M.planCodeRequired,
          tariffType: M.typeRequired,
          dailyCharge: M.dollarValue,
          feedInTariff: M.feedInRequired,
          operationalNetworkUid: M.networkRequired,
          startDate: M.startDateRequired,
        },
        non_field_errors: [],
      },
    });
    const fields = await post(
      planOf('TOU_BLOCK', 'Fields', 'F-1', {
        resetPeriod: null,
        dailyCharge: '',
        rates: [
          { label: '', isBaseRate: true, blocks: [{ onset: '', price: '' }], periods: [{ startTime: '', endTime: '', applicableDays: [], rate: '' }] },
          {
            label: 'Peak',
            blocks: [
              { onset: '0', price: '1.23456' },
              { onset: 'ten', price: '0.3' },
            ],
            periods: [{ startTime: '18:00', endTime: '18:00', applicableDays: ['MON'], rate: 'Peak' }],
          },
        ],
      }),
    );
    expect(fields.statusCode).toBe(400);
    expect(fields.json().data.errors).toEqual({
      dailyCharge: M.dailyChargeRequired,
      resetPeriod: M.resetPeriodRequired,
      'rates.0.label': M.labelRequired,
      'rates.0.blocks.0.onset': M.onsetRequired,
      'rates.0.blocks.0.price': M.priceRequired,
      'rates.0.periods.0.startTime': M.startTimeRequired,
      'rates.0.periods.0.endTime': M.endTimeRequired,
      'rates.0.periods.0.applicableDays': M.dayRequired,
      'rates.0.periods.0.rate': M.rateRequired,
      'rates.1.blocks.0.price': M.dollarValue,
      'rates.1.blocks.1.onset': M.number,
      'rates.1.periods.0.endTime': M.startBeforeEnd,
    });
    const times = await post(
      planOf('TOU', 'Times', 'T-1', {
        rates: [
          {
            label: 'Base Rate',
            isBaseRate: true,
            blocks: [{ onset: '0', price: '0.2' }],
            periods: [{ startTime: '7:00', endTime: '24:00', applicableDays: ['MON'], rate: 'Base Rate' }],
          },
          { label: 'Peak', blocks: [{ onset: '0', price: '0.3' }], periods: [{ startTime: '16:00', endTime: '21:00', applicableDays: ['TUE'], rate: 'Nope' }] },
        ],
      }),
    );
    expect(times.json().data.errors).toEqual({
      'rates.0.periods.0.startTime': M.timeFormat,
      'rates.0.periods.0.endTime': M.timeFormat,
      'rates.1.periods.0.rate': M.unknownRate,
    });
    expect((await get('/contracts/plan')).json().data.total).toBe(before);
  });

  it('refuses periods overlapping on a shared day, PUBLIC_HOLIDAYS included, as a non-field error', async () => {
    const overlapping = (days: ('MON' | 'TUE' | 'PUBLIC_HOLIDAYS')[]) =>
      planOf('TOU', `Overlap ${days.join()}`, `OV-${days.join()}`, {
        rates: [
          {
            label: 'Base Rate',
            isBaseRate: true,
            blocks: [{ onset: '0', price: '0.2' }],
            periods: [{ startTime: '07:00', endTime: '17:00', applicableDays: ['MON', 'PUBLIC_HOLIDAYS'], rate: 'Base Rate' }],
          },
          { label: 'Peak', blocks: [{ onset: '0', price: '0.3' }], periods: [{ startTime: '16:00', endTime: '21:00', applicableDays: days, rate: 'Peak' }] },
        ],
      });
    for (const days of [['MON'], ['PUBLIC_HOLIDAYS'], ['TUE', 'MON']] as const) {
      const res = await post(overlapping([...days]));
      expect(res.statusCode).toBe(400);
      expect(res.json().data).toMatchObject({ message: M.correctErrors, errors: {}, non_field_errors: [M.overlapping] });
    }
    // On days the other period does not have, the same hours are fine.
    expect((await post(overlapping(['TUE']))).statusCode).toBe(200);
  });

  it('keeps names and codes unique within the organisation, whatever their case', async () => {
    const first = await create(planOf('FLAT_RATE', 'Unique Saver', 'UNIQ-1'));
    const both = await post(planOf('FLAT_RATE', 'unique  saver', 'uniq-1'));
    // A form whose only fault is a name or code already taken is a conflict, not a mistake.
    expect(both.statusCode).toBe(409);
    expect(both.json().data.errors).toEqual({ name: M.duplicateName, planCode: M.duplicateCode });
    const code = await post(planOf('FLAT_RATE', 'Another Saver', 'UNIQ-1'));
    expect(code.statusCode).toBe(409);
    expect(code.json().data.errors).toEqual({ planCode: M.duplicateCode });
    // Saving a plan under its own name and code is no duplicate; another organisation may use them.
    expect((await put(first.uid, planOf('FLAT_RATE', 'Unique Saver', 'UNIQ-1'))).statusCode).toBe(200);
    const other = await h().org('RETAILER');
    const theirs = await h().bearer((await h().user(other)).username);
    expect((await post(planOf('FLAT_RATE', 'Unique Saver', 'UNIQ-1'), theirs)).statusCode).toBe(200);
    const second = await create(planOf('FLAT_RATE', 'Second Saver', 'UNIQ-2'));
    const renamed = await put(second.uid, planOf('FLAT_RATE', 'Unique Saver', 'UNIQ-2'));
    expect(renamed.statusCode).toBe(409);
    expect(renamed.json().data.errors).toEqual({ name: M.duplicateName });
    // With a mistake as well, the whole form is refused as a mistake, the duplicate named with it.
    const mistaken = await post({ ...planOf('FLAT_RATE', 'Unique Saver', 'UNIQ-9'), dailyCharge: '' });
    expect(mistaken.statusCode).toBe(400);
    expect(mistaken.json().data.errors).toMatchObject({ name: M.duplicateName });
  });

  it('adds a version for a price change from a later date; the old prices keep applying before it', async () => {
    const plan = await create(planOf('FLAT_RATE', 'Versioned', 'VER-1'));
    // A change that keeps the prices (the description) adds no version.
    const described = (await put(plan.uid, planOf('FLAT_RATE', 'Versioned', 'VER-1', { description: 'Now described' }))).json().data;
    expect(described.versions).toHaveLength(1);
    const rise = planOf('FLAT_RATE', 'Versioned', 'VER-1', { startDate: '2026-07-01', dailyCharge: '1.2' });
    const risen = (await put(plan.uid, rise)).json().data;
    expect(
      risen.versions.map((v: { startDate: string; endDate: string | null; latest: boolean; dailyCharge: number }) => [
        v.startDate,
        v.endDate,
        v.latest,
        v.dailyCharge,
      ]),
    ).toEqual([
      ['2026-01-01', '2026-07-01', false, 1.1],
      ['2026-07-01', null, true, 1.2],
    ]);
    expect(risen).toMatchObject({ startDate: '2026-07-01', dailyCharge: 1.2 });
    // A correction from the latest version's own date changes it in place.
    const corrected = (await put(plan.uid, { ...rise, dailyCharge: '1.25' })).json().data;
    expect(corrected.versions.map((v: { dailyCharge: number }) => v.dailyCharge)).toEqual([1.1, 1.25]);
    // The same prices from a later date change nothing: the latest keeps its start.
    const same = (await put(plan.uid, { ...rise, dailyCharge: '1.25', startDate: '2026-09-01' })).json().data;
    expect(same.versions.map((v: { startDate: string; dailyCharge: number }) => [v.startDate, v.dailyCharge])).toEqual([
      ['2026-01-01', 1.1],
      ['2026-07-01', 1.25],
    ]);
    // A date not after the previous version's is refused.
    const early = await put(plan.uid, { ...rise, startDate: '2025-12-01', dailyCharge: '1.3' });
    expect(early.statusCode).toBe(400);
    expect(early.json().data.errors).toEqual({ startDate: M.startBeforePreviousVersion('2026-01-01') });
  });

  it('keeps a plan on its customers’ network', async () => {
    const plan = await create(planOf('FLAT_RATE', 'Networked', 'NET-1'));
    const home = await node(h(), [org]);
    await assignPlan(h().ctx.db, org, home.id, plan.uid, '2026-02-01');
    expect((await get(`/contracts/plan/${plan.uid}`)).json().data.customersCount).toBe(1);
    const moved = await put(plan.uid, planOf('FLAT_RATE', 'Networked', 'NET-1', { operationalNetworkUid: 'energex' }));
    expect(moved.statusCode).toBe(400);
    expect(moved.json().data.errors).toEqual({ operationalNetworkUid: M.networkHasCustomers('Ausgrid') });
    const unknown = await put(plan.uid, planOf('FLAT_RATE', 'Networked', 'NET-1', { operationalNetworkUid: 'nowhere' }));
    expect(unknown.json().data.errors).toEqual({ operationalNetworkUid: M.unknownNetwork });
  });

  it('offers NEM retail plans only: WA and NT networks are listed with why, and refused', async () => {
    const networks = (await get('/contracts/plan/operational-networks')).json().data.networks as { uid: string; nem: boolean; outsideNem: string | null }[];
    const wa = OUTSIDE_NEM_REASONS.WEM('Western Power');
    const nt = OUTSIDE_NEM_REASONS.NT('Power and Water');
    expect(wa).toBe(
      "Western Power is not in the NEM: its network is Western Australia's South West Interconnected System (SWIS), whose households are Synergy's customers under the Wholesale Electricity Market, so its homes are not offered NEM retail plans or priced for NEM dispatch.",
    );
    expect(networks.find((n) => n.uid === 'western-power')).toMatchObject({ nem: false, outsideNem: wa });
    expect(networks.find((n) => n.uid === 'power-and-water')).toMatchObject({ nem: false, outsideNem: nt });
    expect(networks.filter((n) => n.nem).length).toBe(13);
    expect(networks.filter((n) => n.nem).every((n) => n.outsideNem === null)).toBe(true);

    // A plan for either is a 400 saying why, and nothing is saved.
    const before = (await get('/contracts/plan')).json().data.total;
    for (const [uid, why] of [
      ['western-power', wa],
      ['power-and-water', nt],
    ]) {
      const res = await post(planOf('FLAT_RATE', `Outside ${uid}`, `OUT-${uid}`, { operationalNetworkUid: uid }));
      expect(res.statusCode).toBe(400);
      expect(res.json().data.errors).toEqual({ operationalNetworkUid: why });
    }
    expect((await get('/contracts/plan')).json().data.total).toBe(before);
    // Nor can a plan move there.
    const plan = await create(planOf('FLAT_RATE', 'Stays in the NEM', 'NEM-1'));
    const moved = await put(plan.uid, planOf('FLAT_RATE', 'Stays in the NEM', 'NEM-1', { operationalNetworkUid: 'western-power' }));
    expect(moved.statusCode).toBe(400);
    expect(moved.json().data.errors).toEqual({ operationalNetworkUid: wa });
    expect((await get(`/contracts/plan/${plan.uid}`)).json().data.operationalNetworkUid).toBe('ausgrid');

    // A home in WA or NT is not put on a NEM plan: refused with why, its plans unchanged.
    const perth = await node(h(), [org], { state: 'WA', region: 'WEM', postcode: '6160' });
    await expect(assignPlan(h().ctx.db, org, perth.id, plan.uid, '2026-02-01')).rejects.toThrow(wa);
    const darwin = await node(h(), [org], { state: 'NT', region: 'NT', postcode: '0820' });
    await expect(assignPlan(h().ctx.db, org, darwin.id, plan.uid, '2026-02-01')).rejects.toThrow(nt);
    const held = await h().ctx.db.selectFrom('customer_plans').select('node_id').where('node_id', 'in', [perth.id, darwin.id]).execute();
    expect(held).toEqual([]);
  });

  describe('the list', () => {
    let listHeaders: { authorization: string };
    beforeAll(async () => {
      const o = await h().org('RETAILER');
      listHeaders = await h().bearer((await h().user(o)).username);
      const add = (type: PlanType, name: string, code: string, network: string) =>
        h().app.inject({ method: 'POST', url: '/contracts/plan', headers: listHeaders, payload: planOf(type, name, code, { operationalNetworkUid: network }) });
      await add('TOU', 'Bravo', 'B-1', 'energex');
      await add('FLAT_RATE', 'alpha', 'A-1', 'ausgrid');
      await add('BLOCK', 'Charlie', 'C-1', 'citipower');
    });
    const names = async (q: string) => (await get(`/contracts/plan${q}`, listHeaders)).json().data.plans.map((p: { name: string }) => p.name);

    it('sorts by name ascending by default, and by type, network and customers both ways', async () => {
      expect(await names('')).toEqual(['alpha', 'Bravo', 'Charlie']);
      expect(await names('?sort=name&order=desc')).toEqual(['Charlie', 'Bravo', 'alpha']);
      expect(await names('?sort=type')).toEqual(['Charlie', 'alpha', 'Bravo']);
      expect(await names('?sort=network')).toEqual(['alpha', 'Charlie', 'Bravo']);
      expect(await names('?sort=network&order=desc')).toEqual(['Bravo', 'Charlie', 'alpha']);
      expect(await names('?sort=customers')).toEqual(['alpha', 'Bravo', 'Charlie']);
    });

    it('filters by network, plan type and name or code', async () => {
      expect(await names('?network=energex')).toEqual(['Bravo']);
      expect(await names('?tariffType=BLOCK')).toEqual(['Charlie']);
      expect(await names('?search=c-1')).toEqual(['Charlie']);
      expect(await names('?search=ALP')).toEqual(['alpha']);
      expect(await names('?search=zzz')).toEqual([]);
      expect((await get('/contracts/plan?sort=price', listHeaders)).statusCode).toBe(400);
    });
  });
});
