import { CUSTOMER_MESSAGES as C } from '@vpp/shared/customers/messages';
import { MESSAGES } from '@vpp/shared/messages';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { node } from '../../test/factories.ts';
import { describeEachDatabase } from '../../test/harness.ts';
import { assignPlan, signAgreement } from './customers.repo.ts';

// Customers through the API: columns by organisation type, filters, capabilities over time, the
// current plan, and the bill estimate under it.

describeEachDatabase('customers', (h) => {
  let retailer: number;
  let network: number;
  let installer: number;
  const auth: Record<'retailer' | 'network' | 'installer' | 'none', { authorization: string }> = {} as never;
  const homes: Record<string, { id: number; nmi: string }> = {};
  let planUid: number;
  const get = (url: string, who: keyof typeof auth = 'retailer') => h().app.inject({ method: 'GET', url, headers: auth[who] });
  const list = async (q = '', who: keyof typeof auth = 'retailer') => {
    const res = await get(`/contracts/customer${q}`, who);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  };

  beforeAll(async () => {
    retailer = await h().org('RETAILER', 'Customer Energy');
    network = await h().org('NETWORK', 'Customer Network');
    installer = await h().org('INSTALLER', 'Customer Installs');
    auth.retailer = await h().bearer((await h().user(retailer)).username);
    auth.network = await h().bearer((await h().user(network)).username);
    auth.installer = await h().bearer((await h().user(installer)).username);
    auth.none = await h().bearer((await h().user(retailer, { permissions: ['fleet.node.any'] })).username);
    const db = h().ctx.db;
    const add = async (key: string, orgs: number[], opts: Parameters<typeof node>[2] = {}) => {
      const n = await node(h(), orgs, opts);
      const { nmi } = await db.selectFrom('nodes').select('nmi').where('id', '=', n.id).executeTakeFirstOrThrow();
      homes[key] = { id: n.id, nmi };
    };
    await add('full', [retailer, network, installer], { suburb: 'Marrickville' });
    await add('noBattery', [retailer], { batteryKwh: 0 });
    await add('unsigned', [retailer]);
    await add('uninstalled', [retailer], { commissioned: false });
    await add('submetered', [retailer]);
    await add('withdrawn', [retailer]);
    // Submeter ids are the hardware's own (no sequence).
    await db
      .insertInto('submeters')
      .values({ id: 900_000 + homes.submetered.id, node_id: homes.submetered.id, name: 'Pool pump' })
      .execute();
    for (const org of [retailer, network, installer]) await signAgreement(db, org, homes.full.id, 1, '2025-01-10');
    await signAgreement(db, retailer, homes.full.id, 2, '2025-06-01');
    for (const k of ['noBattery', 'uninstalled', 'submetered', 'withdrawn']) await signAgreement(db, retailer, homes[k].id, 1, '2025-02-01');
    await db.updateTable('customer_agreements').set({ ended_date: '2025-09-30' }).where('node_id', '=', homes.withdrawn.id).execute();
    // The factory commissions homes 30 days ago: agreements signed before then start with it.
    const plan = await h().app.inject({
      method: 'POST',
      url: '/contracts/plan',
      headers: auth.retailer,
      payload: {
        name: 'Customer Flat',
        planCode: 'CUST-FLAT',
        tariffType: 'FLAT_RATE',
        operationalNetworkUid: 'ausgrid',
        startDate: '2026-01-01',
        dailyCharge: '1',
        feedInTariff: '0.05',
        discount: '5',
        rates: [{ label: 'Base Rate', isBaseRate: true, blocks: [{ onset: '0', price: '0.25' }], periods: [] }],
      },
    });
    planUid = plan.json().data.uid;
    await assignPlan(db, retailer, homes.full.id, planUid, '2026-01-01');
  });

  it('shows a retailer the retail plan columns and no network information', async () => {
    const d = await list(`?search=${homes.full.nmi}`);
    expect(d.columns).toEqual({ retailPlan: true, information: false });
    expect(d.customers).toHaveLength(1);
    expect(d.customers[0]).toMatchObject({
      nmi: homes.full.nmi,
      deploymentUid: homes.full.id,
      city: 'Marrickville',
      state: 'NSW',
      postcode: '2042',
      capacity: 13.5,
      maxPower: 5,
      agreementVersion: 2,
      agreementDate: '2025-06-01',
      installationStatus: 'COMMISSIONED',
      capabilities: ['BATTERY_DISPATCH', 'FEED_IN_CURTAILMENT', 'GRID_OUTAGE_PREPARATION'],
      tariff: { name: 'Customer Flat', discount: 5 },
      currentTariff: { uid: planUid, name: 'Customer Flat', planCode: 'CUST-FLAT', discount: 5 },
      information: null,
    });
    expect(d.customers[0].streetName).toBe('Test Street');
    expect(d.customers[0].addressLine2).toBe('Marrickville NSW 2042');
  });

  it('shows a network its homes’ network and connection, and no plans; an installer neither', async () => {
    const net = await list('', 'network');
    expect(net.columns).toEqual({ retailPlan: false, information: true });
    expect(net.customers.map((c: { nmi: string }) => c.nmi)).toEqual([homes.full.nmi]);
    expect(net.customers[0]).toMatchObject({
      tariff: null,
      currentTariff: null,
      information: { network: { uid: 'ausgrid', name: 'Ausgrid' }, region: 'NSW1', phases: 1, inverterKw: 5, solarKw: 6.6 },
    });
    const inst = await list('', 'installer');
    expect(inst.columns).toEqual({ retailPlan: false, information: false });
    expect(inst.customers[0]).toMatchObject({ tariff: null, currentTariff: null, information: null, agreementVersion: 1 });
    expect(JSON.stringify(inst)).not.toContain('Ausgrid');
  });

  it('filters on capabilities, NONE for the homes that hold none, and counts those for the banner', async () => {
    const nmis = async (q: string) => (await list(q)).customers.map((c: { nmi: string }) => c.nmi);
    const sortedOf = (...keys: string[]) => keys.map((k) => homes[k].nmi).sort();
    expect(await nmis('?capabilities=BATTERY_DISPATCH')).toEqual(sortedOf('full', 'submetered'));
    expect(await nmis('?capabilities=FEED_IN_CURTAILMENT,GRID_OUTAGE_PREPARATION')).toEqual(sortedOf('full'));
    expect(await nmis('?capabilities=SUBMETER_DATA')).toEqual(sortedOf('submetered'));
    expect(await nmis('?capabilities=NONE')).toEqual(sortedOf('unsigned', 'uninstalled', 'withdrawn'));
    const all = await list('');
    expect(all.total).toBe(6);
    expect(all.withoutCapabilities).toBe(3);
    expect(all.customers.find((c: { nmi: string }) => c.nmi === homes.noBattery.nmi).capabilities).toEqual(['FEED_IN_CURTAILMENT']);
    expect(all.customers.find((c: { nmi: string }) => c.nmi === homes.uninstalled.nmi).installationStatus).toBe('NOT_COMMISSIONED');
    const bad = await get('/contracts/customer?capabilities=FLYING');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().data.message).toContain('capabilities must be a comma-separated list of');
  });

  it('searches NMI or address, filters by tariff (retailers only) and pages by NMI', async () => {
    expect((await list('?search=marrickville')).customers.map((c: { nmi: string }) => c.nmi)).toEqual([homes.full.nmi]);
    expect((await list(`?search=${homes.withdrawn.nmi.toLowerCase()}`)).customers.map((c: { nmi: string }) => c.nmi)).toEqual([homes.withdrawn.nmi]);
    expect((await list('?search=nowhere-at-all')).total).toBe(0);
    expect((await list(`?tariff=${planUid}`)).customers.map((c: { nmi: string }) => c.nmi)).toEqual([homes.full.nmi]);
    const refused = await get(`/contracts/customer?tariff=${planUid}`, 'network');
    expect(refused.statusCode).toBe(400);
    expect(refused.json().data.message).toBe(C.tariffFilterRetailerOnly);
    const all = Object.values(homes)
      .map((x) => x.nmi)
      .sort();
    const page = await list('?limit=2&offset=2');
    expect(page.total).toBe(6);
    expect(page.customers.map((c: { nmi: string }) => c.nmi)).toEqual(all.slice(2, 4));
  });

  it('gives the detail: capabilities over time, contracts and sub meters', async () => {
    const full = (await get(`/contracts/customer/${homes.full.nmi}`)).json().data;
    const commissioned = full.capabilityHistory[0].startDate;
    expect(full.capabilityHistory).toEqual([
      { capability: 'BATTERY_DISPATCH', startDate: commissioned, endDate: null },
      { capability: 'FEED_IN_CURTAILMENT', startDate: commissioned, endDate: null },
      { capability: 'GRID_OUTAGE_PREPARATION', startDate: commissioned, endDate: null },
    ]);
    expect(full.contracts).toEqual([
      { contractName: 'Customer Agreement v1', startDate: '2025-01-10', endDate: '2025-06-01' },
      { contractName: 'Customer Agreement v2', startDate: '2025-06-01', endDate: null },
      { contractName: 'Customer Flat', startDate: '2026-01-01', endDate: null },
    ]);
    expect(full.timezone).toBe('Australia/Sydney');
    const sub = (await get(`/contracts/customer/${homes.submetered.nmi}`)).json().data;
    expect(sub.subMeters).toEqual([{ id: expect.any(Number), name: 'Pool pump' }]);
    expect(sub.capabilities).toContain('SUBMETER_DATA');
    // A network sees its own agreement only, and no plan contracts.
    const net = (await get(`/contracts/customer/${homes.full.nmi}`, 'network')).json().data;
    expect(net.contracts.map((c: { contractName: string }) => c.contractName)).toEqual(['Customer Agreement v1']);
  });

  it('gives a retailer the current plan; other organisations are refused', async () => {
    const res = await get(`/contracts/customer/${homes.full.nmi}/plan`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ plan: { uid: planUid, name: 'Customer Flat' }, since: '2026-01-01' });
    expect((await get(`/contracts/customer/${homes.unsigned.nmi}/plan`)).json().data).toEqual({ plan: null, since: null, versionStartDate: null });
    const net = await get(`/contracts/customer/${homes.full.nmi}/plan`, 'network');
    expect(net.statusCode).toBe(403);
    expect(net.json().data.message).toBe(C.planRetailerOnly);
  });

  it('puts a customer only on a plan of its network', async () => {
    const plan = await h().app.inject({
      method: 'POST',
      url: '/contracts/plan',
      headers: auth.retailer,
      payload: {
        name: 'Queensland Flat',
        planCode: 'QLD-FLAT',
        tariffType: 'FLAT_RATE',
        operationalNetworkUid: 'energex',
        startDate: '2026-01-01',
        dailyCharge: '1',
        feedInTariff: '0.05',
        rates: [{ label: 'Base Rate', isBaseRate: true, blocks: [{ onset: '0', price: '0.25' }], periods: [] }],
      },
    });
    await expect(assignPlan(h().ctx.db, retailer, homes.noBattery.id, plan.json().data.uid, '2026-02-01')).rejects.toThrow(
      C.planNetworkMismatch('Energex', 'Ausgrid'),
    );
  });

  it('answers 404 for an NMI outside the fleet, 403 without the permission, 400 for a malformed NMI', async () => {
    expect((await get(`/contracts/customer/${homes.noBattery.nmi}`, 'network')).statusCode).toBe(404);
    expect((await get('/contracts/customer/NCCC0000000')).statusCode).toBe(404);
    const forbidden = await get('/contracts/customer', 'none');
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json().data.message).toBe(MESSAGES.notAuthorized);
    expect((await get(`/contracts/customer/${homes.full.nmi}`, 'none')).statusCode).toBe(403);
    const bad = await get('/contracts/customer/not-an-nmi');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().data.message).toBe('The customer id must be an NMI: 10 or 11 letters and digits.');
  });

  describe('the bill estimate', () => {
    // 10:00 on 10 April 2026 in Sydney (UTC+10 after daylight saving ended on 5 April).
    const now = Date.UTC(2026, 3, 10, 0, 0) / 1000;
    beforeAll(async () => {
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(now * 1000);
      await h().ctx.telemetry.ensurePartitions(Date.UTC(2026, 1, 1) / 1000, now + 86400);
      // 12 kW for 5 minutes on 10 March: 1 kWh imported; 6 kW exported for 5 minutes on 2 April: 0.5 kWh.
      await h().ctx.telemetry.ingest(
        [
          { nodeId: homes.full.id, ts: Date.UTC(2026, 2, 10, 2, 0) / 1000, dt: 300, meter_p: 12 },
          { nodeId: homes.full.id, ts: Date.UTC(2026, 3, 2, 2, 0) / 1000, dt: 300, meter_p: -6 },
        ],
        now,
      );
    });
    afterAll(() => {
      vi.useRealTimers();
    });

    it('prices last month and this month so far under the customer’s plan, GST apart, in cents', async () => {
      // Grid credits of this retailer's settled events on days of both months, and one of another organisation's (not shown).
      const item = (organisation_id: number, event_id: number, event_kind: string, day: string, type: string, amount: number, cost_cents: number) => ({
        organisation_id,
        event_id,
        event_kind,
        nmi: homes.full.nmi,
        day,
        ts: Date.parse(`${day}T02:00:00Z`) / 1000,
        type,
        amount,
        rate: cost_cents / 100 / amount,
        cost_cents,
        created_at: 1,
      });
      const event = async (organisation_id: number, type: string) =>
        (
          await h()
            .ctx.db.insertInto('events')
            .values({ organisation_id, powerstation_id: null, type, start_time: 1, duration: 300, cancelled_at: null, created_at: 1 })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id;
      const [dispatch, curtailment, theirs] = [await event(retailer, 'DISPATCH'), await event(retailer, 'CURTAILMENT'), await event(network, 'CURTAILMENT')];
      await h()
        .ctx.db.insertInto('billing_items')
        .values([
          item(retailer, dispatch, 'dispatch', '2026-03-15', 'Spot Price', 1.5, 30),
          item(retailer, curtailment, 'curtailment', '2026-04-05', 'Curtailment', 2, 12),
          item(network, theirs, 'curtailment', '2026-04-06', 'Curtailment', 1, 5),
        ])
        .execute();
      const res = await get(`/contracts/customer/${homes.full.nmi}/bill-estimate`);
      expect(res.statusCode, res.body).toBe(200);
      const d = res.json().data;
      expect(d.plan).toEqual({ uid: planUid, name: 'Customer Flat', planCode: 'CUST-FLAT' });
      // March: 1 kWh at $0.25 less 5 % (1 c), 31 days at $1; GST 10 % of 3124 c.
      expect(d.last).toMatchObject({ month: '2026-03', partial: false, importKwh: 1, exportKwh: 0, subtotalCents: 3124, gstCents: 312, totalCents: 3436 });
      expect(d.last.lines.map((l: { kind: string; amountCents: number }) => [l.kind, l.amountCents])).toEqual([
        ['USAGE', 25],
        ['DISCOUNT', -1],
        ['DAILY', 3100],
      ]);
      // April so far: 10 days at $1, and 0.5 kWh exported at $0.05 (2.5 c → 3 c credit).
      expect(d.current).toMatchObject({ month: '2026-04', partial: true, to: now, exportKwh: 0.5, subtotalCents: 997, gstCents: 100, totalCents: 1097 });
      // Beside the retail lines, the grid credits of the same days, and what the customer pays once credited.
      expect(d.last).toMatchObject({
        gridCredits: [
          {
            event: `Dispatch ${dispatch}`,
            eventKind: 'dispatch',
            eventId: dispatch,
            day: '2026-03-15',
            type: 'Spot Price',
            amount: 1.5,
            rate: expect.closeTo(0.2, 9),
            cents: 30,
          },
        ],
        gridCreditCents: 30,
        netCents: 3406,
      });
      expect(d.current).toMatchObject({
        gridCredits: [
          { event: `Curtailment ${curtailment}`, eventKind: 'curtailment', eventId: curtailment, day: '2026-04-05', type: 'Curtailment', amount: 2, cents: 12 },
        ],
        gridCreditCents: 12,
        netCents: 1085,
      });
    });

    it('has nothing to estimate for a customer on no plan, and refuses other organisation types', async () => {
      expect((await get(`/contracts/customer/${homes.unsigned.nmi}/bill-estimate`)).json().data).toEqual({ plan: null, current: null, last: null });
      const net = await get(`/contracts/customer/${homes.full.nmi}/bill-estimate`, 'network');
      expect(net.statusCode).toBe(403);
      expect(net.json().data.message).toBe(C.planRetailerOnly);
    });
  });
});
