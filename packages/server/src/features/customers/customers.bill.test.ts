import { TZDate } from '@date-fns/tz';
import type { PlanPrices, PlanRate } from '@vpp/shared/plans/schemas';
import { describe, expect, it } from 'vitest';
import { estimateBill, type MeteredInterval, monthWindow, type PriceSegment, toCents, usageStart } from './customers.bill.ts';
import { isPublicHoliday } from './customers.holidays.ts';
import { segmentsOf } from './customers.service.ts';

// Hand-worked bills, one per plan type (issue 14, item 6). Brisbane keeps one offset all year
// (UTC+10), so each bucket's local time is plain; the DST case is in Sydney.

const BNE = 'Australia/Brisbane';
const at = (date: string, time: string, tz = BNE) => {
  const [y, m, d] = date.split('-').map(Number);
  const [hh, mm] = time.split(':').map(Number);
  return new TZDate(y, m - 1, d, hh, mm, tz).getTime() / 1000;
};
/** `kwh` imported (or exported) evenly over the 5-minute buckets from a local time. */
const use = (date: string, time: string, kwh: number, buckets = 1, exportKwh = 0, tz = BNE): MeteredInterval[] =>
  Array.from({ length: buckets }, (_, i) => ({ ts: at(date, time, tz) + i * 300, importKwh: kwh / buckets, exportKwh: exportKwh / buckets }));
const sorted = (...lists: MeteredInterval[][]) => lists.flat().sort((a, b) => a.ts - b.ts);

const WEEKDAYS = ['MON', 'TUE', 'WED', 'THU', 'FRI'] as const;
const base = (price: number, periods: PlanRate['periods'] = []): PlanRate => ({ label: 'Base Rate', isBaseRate: true, blocks: [{ onset: 0, price }], periods });
const peak = (blocks: PlanRate['blocks']): PlanRate => ({
  label: 'Peak',
  isBaseRate: false,
  blocks,
  periods: [{ startTime: '16:00', endTime: '21:00', applicableDays: [...WEEKDAYS], rate: 'Peak' }],
});
const demand = (price: number): PlanRate => ({
  label: 'Demand',
  isBaseRate: false,
  blocks: [{ onset: 0, price }],
  periods: [{ startTime: '15:00', endTime: '21:00', applicableDays: [...WEEKDAYS], rate: 'Demand' }],
});
const prices = (over: Partial<PlanPrices>): PlanPrices => ({
  startDate: '2026-01-01',
  tariffType: 'FLAT_RATE',
  resetPeriod: null,
  rates: [base(0.25)],
  demandRates: [],
  dailyCharge: 1,
  feedInTariff: 0.05,
  discount: 0,
  ...over,
});
const bill = (month: string, segments: PriceSegment[], intervals: MeteredInterval[], tz = BNE, state = 'QLD') => {
  const [from, to] = monthWindow(month, tz);
  return estimateBill({ month, timezone: tz, from, to, segments, intervals, isHoliday: (d) => isPublicHoliday(state, d) });
};
const one = (p: PlanPrices): PriceSegment[] => [{ startDate: p.startDate, endDate: null, prices: p }];
const amounts = (b: ReturnType<typeof bill>) => b.lines.map((l) => [l.kind, l.label, l.amountCents]);

describe('the bill estimate', () => {
  it('FLAT_RATE: 5 kWh at $0.25, 31 days at $1, 4 kWh exported at $0.05', () => {
    const b = bill('2026-03', one(prices({})), sorted(use('2026-03-02', '10:00', 2), use('2026-03-15', '18:00', 3), use('2026-03-20', '12:00', 0, 1, 4)));
    expect(amounts(b)).toEqual([
      ['USAGE', 'Base Rate', 125],
      ['DAILY', 'Daily charge', 3100],
      ['FEED_IN', 'Feed-in credit', -20],
    ]);
    // GST is 10 % of the charges (3225 c), not of the credit: 322.5 → 323.
    expect(b).toMatchObject({ subtotalCents: 3205, gstCents: 323, totalCents: 3528, importKwh: 5, exportKwh: 4 });
  });

  it('BLOCK (monthly): the first 4 kWh at $0.20, the rest at $0.30', () => {
    const p = prices({
      tariffType: 'BLOCK',
      resetPeriod: 'MONTHLY',
      rates: [
        {
          ...base(0.2),
          blocks: [
            { onset: 0, price: 0.2 },
            { onset: 4, price: 0.3 },
          ],
        },
      ],
    });
    const b = bill('2026-03', one(p), sorted(use('2026-03-02', '10:00', 3), use('2026-03-10', '10:00', 3)));
    expect(amounts(b)).toEqual([
      ['USAGE', 'Base Rate, block 1 (from 0 kWh)', 80],
      ['USAGE', 'Base Rate, block 2 (from 4 kWh)', 60],
      ['DAILY', 'Daily charge', 3100],
    ]);
    expect(b).toMatchObject({ subtotalCents: 3240, gstCents: 324, totalCents: 3564 });
  });

  it('BLOCK (quarterly): January’s use counts toward February’s blocks', () => {
    const p = prices({
      tariffType: 'BLOCK',
      resetPeriod: 'QUARTERLY',
      rates: [
        {
          ...base(0.2),
          blocks: [
            { onset: 0, price: 0.2 },
            { onset: 4, price: 0.3 },
          ],
        },
      ],
    });
    const [from] = monthWindow('2026-02', BNE);
    expect(usageStart(from, BNE, one(p))).toBe(at('2026-01-01', '00:00'));
    const b = bill('2026-02', one(p), sorted(use('2026-01-20', '10:00', 3), use('2026-02-03', '10:00', 3)));
    // 1 kWh left in the first block, then 2 kWh in the second; January is not billed again.
    expect(amounts(b).slice(0, 2)).toEqual([
      ['USAGE', 'Base Rate, block 1 (from 0 kWh)', 20],
      ['USAGE', 'Base Rate, block 2 (from 4 kWh)', 60],
    ]);
    expect(b.importKwh).toBe(3);
  });

  it('TOU: weekday peak 4 pm to 9 pm; a public holiday the plan names is off-peak', () => {
    const holidays = base(0.2, [{ startTime: '00:00', endTime: '23:59', applicableDays: ['SAT', 'SUN', 'PUBLIC_HOLIDAYS'], rate: 'Base Rate' }]);
    const p = prices({ tariffType: 'TOU', rates: [holidays, peak([{ onset: 0, price: 0.5 }])] });
    // Wednesday 1 April at 5 pm: peak; Good Friday (3 April, a Queensland public holiday) at 5 pm and Saturday at 5 pm: base.
    const data = sorted(use('2026-04-01', '17:00', 2), use('2026-04-03', '17:00', 1), use('2026-04-04', '17:00', 1));
    const b = bill('2026-04', one(p), data);
    expect(amounts(b)).toEqual([
      ['USAGE', 'Base Rate', 40],
      ['USAGE', 'Peak', 100],
      ['DAILY', 'Daily charge', 3000],
    ]);
    expect(b).toMatchObject({ subtotalCents: 3140, gstCents: 314, totalCents: 3454 });
    // A plan that names no public holidays keeps its Friday peak on Good Friday.
    const weekdays = bill('2026-04', one(prices({ tariffType: 'TOU', rates: [base(0.2), peak([{ onset: 0, price: 0.5 }])] })), data);
    expect(amounts(weekdays).slice(0, 2)).toEqual([
      ['USAGE', 'Base Rate', 20],
      ['USAGE', 'Peak', 150],
    ]);
  });

  it('TOU_BLOCK (daily): the first peak kWh of each day at $0.40, the rest at $0.60', () => {
    const p = prices({
      tariffType: 'TOU_BLOCK',
      resetPeriod: 'DAILY',
      rates: [
        base(0.2),
        peak([
          { onset: 0, price: 0.4 },
          { onset: 1, price: 0.6 },
        ]),
      ],
    });
    const b = bill('2026-04', one(p), sorted(use('2026-04-01', '16:00', 3, 6), use('2026-04-02', '17:00', 0.5)));
    expect(amounts(b)).toEqual([
      ['USAGE', 'Peak, block 1 (from 0 kWh)', 60],
      ['USAGE', 'Peak, block 2 (from 1 kWh)', 120],
      ['DAILY', 'Daily charge', 3000],
    ]);
    expect(b).toMatchObject({ subtotalCents: 3180, gstCents: 318, totalCents: 3498 });
  });

  it('FLAT_DEMAND: the highest 30-minute import in the weekday 3 pm to 9 pm window, per day', () => {
    const p = prices({ tariffType: 'FLAT_DEMAND', rates: [base(0.2)], demandRates: [demand(0.3)] });
    // 3 kWh in the half hour from 5 pm Wednesday: 6 kW. Saturday's 8 kW and Thursday morning's 10 kW are outside the window.
    const data = sorted(use('2026-04-01', '17:00', 3, 6), use('2026-04-04', '17:00', 4, 6), use('2026-04-02', '10:00', 5, 6));
    const b = bill('2026-04', one(p), data);
    expect(b.peakDemandKw).toBe(6);
    expect(amounts(b)).toEqual([
      ['USAGE', 'Base Rate', 240],
      ['DEMAND', 'Demand demand, 30 days', 5400],
      ['DAILY', 'Daily charge', 3000],
    ]);
    expect(b).toMatchObject({ subtotalCents: 8640, gstCents: 864, totalCents: 9504 });
  });

  it('TOU_DEMAND with a 10 % discount and a feed-in credit', () => {
    const p = prices({ tariffType: 'TOU_DEMAND', rates: [base(0.2), peak([{ onset: 0, price: 0.5 }])], demandRates: [demand(0.3)], discount: 10 });
    const data = sorted(use('2026-04-01', '17:00', 3, 6), use('2026-04-02', '10:00', 2, 1, 10));
    const b = bill('2026-04', one(p), data);
    expect(amounts(b)).toEqual([
      ['USAGE', 'Base Rate', 40],
      ['USAGE', 'Peak', 150],
      ['DEMAND', 'Demand demand, 30 days', 5400],
      ['DISCOUNT', 'Discount', -559],
      ['DAILY', 'Daily charge', 3000],
      ['FEED_IN', 'Feed-in credit', -50],
    ]);
    // Charges 8031 c (credit apart): GST 803.
    expect(b).toMatchObject({ subtotalCents: 7981, gstCents: 803, totalCents: 8784 });
  });

  it('prices each day by the version that applies on it', () => {
    const v1 = prices({});
    const v2 = prices({ startDate: '2026-03-15', rates: [base(0.3)], dailyCharge: 1.1 });
    const segments = [
      { startDate: '2026-01-01', endDate: '2026-03-15', prices: v1 },
      { startDate: '2026-03-15', endDate: null, prices: v2 },
    ];
    const b = bill('2026-03', segments, sorted(use('2026-03-02', '10:00', 2), use('2026-03-20', '10:00', 3)));
    expect(amounts(b)).toEqual([
      ['USAGE', 'Base Rate (from 2026-01-01)', 50],
      ['DAILY', 'Daily charge (from 2026-01-01)', 1400],
      ['USAGE', 'Base Rate (from 2026-03-15)', 90],
      ['DAILY', 'Daily charge (from 2026-03-15)', 1870],
    ]);
    expect(b.versions).toEqual(['2026-01-01', '2026-03-15']);
  });

  it('cuts the plans a customer held by their versions', () => {
    const { startDate: _a, ...v1 } = prices({});
    const { startDate: _b, ...v2 } = prices({ dailyCharge: 1.2 });
    const { startDate: _c, ...other } = prices({ dailyCharge: 0.9 });
    const versions = new Map([
      [
        1,
        [
          { start_date: '2025-01-01', prices: v1 },
          { start_date: '2026-03-15', prices: v2 },
        ],
      ],
      [2, [{ start_date: '2025-06-01', prices: other }]],
    ]);
    const held = [
      { plan_id: 1, start_date: '2026-02-01', end_date: '2026-03-20' },
      { plan_id: 2, start_date: '2026-03-20', end_date: null },
    ];
    expect(segmentsOf(held, versions).map((s) => [s.startDate, s.endDate, s.prices.dailyCharge, s.prices.startDate])).toEqual([
      ['2026-02-01', '2026-03-15', 1, '2025-01-01'],
      ['2026-03-15', '2026-03-20', 1.2, '2026-03-15'],
      ['2026-03-20', null, 0.9, '2025-06-01'],
    ]);
  });

  it('reads local time across the end of daylight saving (Sydney, 5 April 2026)', () => {
    const syd = 'Australia/Sydney';
    const p = prices({ tariffType: 'TOU', rates: [base(0.2), peak([{ onset: 0, price: 0.5 }])] });
    // 05:30 UTC is 4:30 pm on Wednesday 1 April (UTC+11, peak) and 3:30 pm on Monday 6 April (UTC+10, base).
    const data = [
      { ts: Date.UTC(2026, 3, 1, 5, 30) / 1000, importKwh: 1, exportKwh: 0 },
      { ts: Date.UTC(2026, 3, 6, 5, 30) / 1000, importKwh: 1, exportKwh: 0 },
    ];
    const b = bill('2026-04', one(p), data, syd, 'NSW');
    expect(amounts(b).slice(0, 2)).toEqual([
      ['USAGE', 'Base Rate', 20],
      ['USAGE', 'Peak', 50],
    ]);
    expect(b.lines.find((l) => l.kind === 'DAILY')?.quantity).toBe(30);
  });

  it('counts the days so far of a month in progress, and the share of buckets with data', () => {
    const [from] = monthWindow('2026-03', BNE);
    const to = at('2026-03-11', '00:00');
    const data = Array.from({ length: 288 }, (_, i) => ({ ts: from + i * 300, importKwh: 0.01, exportKwh: 0 }));
    const b = estimateBill({ month: '2026-03', timezone: BNE, from, to, segments: one(prices({})), intervals: data, isHoliday: () => false });
    expect(b.lines.find((l) => l.kind === 'DAILY')).toMatchObject({ quantity: 10, amountCents: 1000 });
    expect(b.coverage).toBe(0.1);
  });

  it('rounds dollars to cents without binary fractions', () => {
    expect([toCents(0.285), toCents(1.005), toCents(0.0449999), toCents(-0.125)]).toEqual([29, 101, 4, -12]);
  });
});
