import { describe, expect, it } from 'vitest';
import { networkOfNmi } from '../customers/networks.ts';
import { PLAN_TYPES } from './constants.ts';
import { PLAN_MESSAGES as M } from './messages.ts';
import { formatTimeInput, periodMinutes, planStructure, validatePlan } from './rules.ts';
import { type PlanFormValues, savePlanBody } from './schemas.ts';

const form = (over: Partial<PlanFormValues> = {}): PlanFormValues =>
  savePlanBody.parse({
    name: 'Solar Saver',
    planCode: 'SOL-1',
    tariffType: 'TOU',
    operationalNetworkUid: 'ausgrid',
    startDate: '2026-01-01',
    dailyCharge: '1.1',
    feedInTariff: '0.05',
    rates: [
      {
        label: 'Base Rate',
        isBaseRate: true,
        blocks: [{ onset: '0', price: '0.2' }],
        periods: [{ startTime: '00:00', endTime: '16:00', applicableDays: ['MON'], rate: 'Base Rate' }],
      },
      {
        label: 'Peak',
        blocks: [{ onset: 0, price: 0.45 }],
        periods: [{ startTime: '16:00', endTime: '21:00', applicableDays: ['MON', 'PUBLIC_HOLIDAYS'], rate: 'Peak' }],
      },
    ],
    ...over,
  });

describe('plan structures (spec 3 §4.4)', () => {
  it('regenerates the rates, blocks, periods and demand of each type, Base Rate first and flagged', () => {
    const shape = (t: (typeof PLAN_TYPES)[number]) => {
      const s = planStructure(t);
      return [
        s.rates.map((r) => r.blocks.length),
        s.rates.reduce((n, r) => n + r.periods.length, 0),
        s.demandRates.length,
        s.demandRates[0]?.periods.length ?? 0,
      ];
    };
    expect(Object.fromEntries(PLAN_TYPES.map((t) => [t, shape(t)]))).toEqual({
      FLAT_RATE: [[1], 0, 0, 0],
      TOU: [[1, 1], 2, 0, 0],
      TOU_BLOCK: [[1, 2], 2, 0, 0],
      BLOCK: [[2], 0, 0, 0],
      FLAT_DEMAND: [[1], 0, 1, 1],
      TOU_DEMAND: [[1, 1], 2, 1, 1],
    });
    for (const t of PLAN_TYPES) {
      const { rates } = planStructure(t);
      expect(rates[0]).toMatchObject({ label: 'Base Rate', isBaseRate: true });
      expect(rates.slice(1).every((r) => !r.isBaseRate)).toBe(true);
    }
  });
});

describe('plan validation (spec 3 §5)', () => {
  it('accepts a valid plan and normalises it', () => {
    const r = validatePlan(form());
    expect(r.errors).toEqual({});
    expect(r.non_field_errors).toEqual([]);
    expect(r.prices?.rates[1]).toEqual({
      label: 'Peak',
      isBaseRate: false,
      blocks: [{ onset: 0, price: 0.45 }],
      periods: [{ startTime: '16:00', endTime: '21:00', applicableDays: ['MON', 'PUBLIC_HOLIDAYS'], rate: 'Peak' }],
    });
  });

  it('names every missing field in the spec’s words', () => {
    const r = validatePlan(savePlanBody.parse({ rates: [], dailyCharge: '', feedInTariff: null, operationalNetworkUid: '', startDate: '' }));
    expect(r.errors).toEqual({
      name: M.nameRequired,
      planCode: M.planCodeRequired,
      tariffType: M.typeRequired,
      operationalNetworkUid: M.networkRequired,
      startDate: M.startDateRequired,
      dailyCharge: M.dailyChargeRequired,
      feedInTariff: M.feedInRequired,
    });
  });

  it('refuses a plan code that would name another page or none', () => {
    for (const code of ['new', 'New', '.', '..']) expect(validatePlan(form({ planCode: code })).errors.planCode, code).toBe(M.planCodeReserved);
    expect(validatePlan(form({ planCode: 'NEW-1' })).errors.planCode).toBeUndefined();
  });

  it('refuses what is not a dollar value, a number or a time', () => {
    const r = validatePlan(
      form({
        dailyCharge: '1.2.3',
        feedInTariff: '-0.1',
        rates: [
          { label: '', isBaseRate: true, blocks: [{ onset: 'x', price: '' }], periods: [{ startTime: '', endTime: '', applicableDays: [], rate: '' }] },
          { label: 'Peak', blocks: [{ onset: '0', price: '$1' }], periods: [{ startTime: '24:00', endTime: '9:5', applicableDays: ['MON'], rate: 'Peak' }] },
          {
            label: 'Shoulder',
            blocks: [{ onset: '0', price: '0.3' }],
            periods: [{ startTime: '10:00', endTime: '10:00', applicableDays: ['TUE'], rate: 'Shoulder' }],
          },
        ],
      }),
    );
    expect(r.errors).toEqual({
      dailyCharge: M.dollarValue,
      feedInTariff: M.dollarValue,
      'rates.0.label': M.labelRequired,
      'rates.0.blocks.0.onset': M.number,
      'rates.0.blocks.0.price': M.priceRequired,
      'rates.0.periods.0.startTime': M.startTimeRequired,
      'rates.0.periods.0.endTime': M.endTimeRequired,
      'rates.0.periods.0.applicableDays': M.dayRequired,
      'rates.0.periods.0.rate': M.rateRequired,
      'rates.1.blocks.0.price': M.dollarValue,
      'rates.1.periods.0.startTime': M.timeFormat,
      'rates.1.periods.0.endTime': M.timeFormat,
      'rates.2.periods.0.endTime': M.startBeforeEnd,
    });
    expect(r.prices).toBeNull();
  });

  it('needs a reset period for block plans only, with onsets from 0 upwards', () => {
    const block = (blocks: { onset: string; price: string }[], resetPeriod?: 'MONTHLY') =>
      validatePlan(form({ tariffType: 'BLOCK', resetPeriod, rates: [{ label: 'Base Rate', isBaseRate: true, blocks, periods: [] }] }));
    expect(
      block([
        { onset: '0', price: '0.2' },
        { onset: '100', price: '0.3' },
      ]).errors,
    ).toEqual({ resetPeriod: M.resetPeriodRequired });
    expect(
      block(
        [
          { onset: '0', price: '0.2' },
          { onset: '100', price: '0.3' },
        ],
        'MONTHLY',
      ).errors,
    ).toEqual({});
    expect(
      block(
        [
          { onset: '5', price: '0.2' },
          { onset: '5', price: '0.3' },
        ],
        'MONTHLY',
      ).errors,
    ).toEqual({
      'rates.0.blocks.0.onset': M.firstOnsetZero,
      'rates.0.blocks.1.onset': M.onsetsIncrease,
    });
    expect(validatePlan(form({ tariffType: 'TOU_BLOCK' })).errors).toEqual({ resetPeriod: M.resetPeriodRequired });
  });

  it('refuses periods that overlap on a shared day, PUBLIC_HOLIDAYS included, and allows them on different days', () => {
    const withPeak = (startTime: string, endTime: string, applicableDays: PlanFormValues['rates'][number]['periods'][number]['applicableDays']) =>
      form({
        rates: [
          {
            label: 'Base Rate',
            isBaseRate: true,
            blocks: [{ onset: '0', price: '0.2' }],
            periods: [{ startTime: '07:00', endTime: '17:00', applicableDays: ['TUE', 'PUBLIC_HOLIDAYS'], rate: 'Base Rate' }],
          },
          { label: 'Peak', blocks: [{ onset: '0', price: '0.4' }], periods: [{ startTime, endTime, applicableDays, rate: 'Peak' }] },
        ],
      });
    expect(validatePlan(withPeak('16:00', '21:00', ['MON', 'TUE'])).non_field_errors).toEqual([M.overlapping]);
    expect(validatePlan(withPeak('16:00', '21:00', ['PUBLIC_HOLIDAYS'])).non_field_errors).toEqual([M.overlapping]);
    expect(validatePlan(withPeak('16:00', '21:00', ['MON', 'WED'])).non_field_errors).toEqual([]);
    // Touching ends do not overlap: [07:00, 17:00) then [17:00, 21:00).
    expect(validatePlan(withPeak('17:00', '21:00', ['TUE'])).non_field_errors).toEqual([]);
  });

  it('keeps demand rates to demand plans and periods to time-of-use plans', () => {
    const demand = [
      {
        label: 'Demand',
        blocks: [{ onset: '0', price: '0.3' }],
        periods: [{ startTime: '15:00', endTime: '21:00', applicableDays: ['MON' as const], rate: 'Demand' }],
      },
    ];
    expect(validatePlan(form({ demandRates: demand })).non_field_errors).toEqual([M.demandNotForType]);
    expect(validatePlan(form({ tariffType: 'TOU_DEMAND' })).non_field_errors).toEqual([M.demandRateMissing]);
    expect(validatePlan(form({ tariffType: 'TOU_DEMAND', demandRates: demand })).errors).toEqual({});
    expect(validatePlan(form({ tariffType: 'FLAT_RATE' })).errors).toMatchObject({ 'rates.0.periods': M.periodsNotForType });
  });

  it('answers the structure’s own messages: rates, blocks, periods, labels, dates and discount', () => {
    expect(validatePlan(form({ rates: [] })).non_field_errors).toEqual([M.rateMissing]);
    expect(validatePlan(form({ startDate: '2026-02-30', discount: '120' })).errors).toEqual({ startDate: M.dateFormat, discount: M.discountRange });
    const [baseRate, peakRate] = form().rates;
    expect(validatePlan(form({ rates: [baseRate, { ...peakRate, blocks: [], periods: [] }] })).errors).toEqual({
      'rates.1.blocks': M.blockMissing,
      'rates.1.periods': M.periodMissing,
    });
    // The renamed rate's period still names 'Peak', which no rate is now.
    expect(validatePlan(form({ rates: [baseRate, { ...peakRate, label: 'Base Rate' }] })).errors).toEqual({
      'rates.1.label': M.duplicateLabel,
      'rates.1.periods.0.rate': M.unknownRate,
    });
    const twoBlocks = {
      ...peakRate,
      blocks: [
        { onset: '0', price: '0.4' },
        { onset: '10', price: '0.5' },
      ],
    };
    expect(validatePlan(form({ rates: [baseRate, twoBlocks] })).errors).toEqual({ 'rates.1.blocks': M.blocksNotForType });
    expect(validatePlan(form({ tariffType: 'TOU_BLOCK', resetPeriod: 'WEEKLY', rates: [baseRate, twoBlocks] })).errors).toEqual({});
  });

  it('reads an end of 23:59 as midnight', () => {
    expect(periodMinutes('21:00', '23:59')).toEqual([[1260, 1440]]);
  });

  it('takes an overnight period (22:00 to 07:00) as one period covering both sides of midnight on its days', () => {
    expect(periodMinutes('22:00', '07:00')).toEqual([
      [1320, 1440],
      [0, 420],
    ]);
    expect(periodMinutes('22:00', '00:00')).toEqual([[1320, 1440]]);
    expect(periodMinutes('07:00', '07:00')).toBeNull();
    const plan = (night: [string, string], day: [string, string]) =>
      form({
        rates: [
          {
            label: 'Base Rate',
            isBaseRate: true,
            blocks: [{ onset: '0', price: '0.3' }],
            periods: [{ startTime: day[0], endTime: day[1], applicableDays: ['MON'], rate: 'Base Rate' }],
          },
          {
            label: 'Off Peak',
            blocks: [{ onset: '0', price: '0.1' }],
            periods: [{ startTime: night[0], endTime: night[1], applicableDays: ['MON'], rate: 'Off Peak' }],
          },
        ],
      });
    const fits = validatePlan(plan(['22:00', '07:00'], ['07:00', '22:00']));
    expect(fits.errors).toEqual({});
    expect(fits.non_field_errors).toEqual([]);
    // Its early-morning side overlaps a period from 06:00; so does its late side one to 23:00.
    expect(validatePlan(plan(['22:00', '07:00'], ['06:00', '21:00'])).non_field_errors).toEqual([M.overlapping]);
    expect(validatePlan(plan(['22:00', '07:00'], ['08:00', '23:00'])).non_field_errors).toEqual([M.overlapping]);
  });

  it('formats HH:MM as the user types', () => {
    expect(['1', '12', '123', '1234', '12345', '9:', '12:3', 'ab1c2'].map(formatTimeInput)).toEqual(['1', '12', '12:3', '12:34', '12:34', '09:', '12:3', '12']);
  });
});

describe('operational networks', () => {
  it('follow from the NMI prefix and the state', () => {
    expect(networkOfNmi('NCCC1234567', 'NSW')?.name).toBe('Ausgrid');
    expect(networkOfNmi('QB00123456', 'QLD')?.name).toBe('Energex');
    expect(networkOfNmi('80001234567', 'TAS')?.name).toBe('TasNetworks');
    expect(networkOfNmi('80011234567', 'WA')?.name).toBe('Western Power');
    expect(networkOfNmi('25001234567', 'NT')?.name).toBe('Power and Water');
    // An unknown prefix: the state's only network, or none where the state has several.
    expect(networkOfNmi('ZZZZ123456', 'SA')?.name).toBe('SA Power Networks');
    expect(networkOfNmi('ZZZZ123456', 'VIC')).toBeNull();
  });
});
