import { OPERATIONAL_NETWORKS } from '@vpp/shared/customers/networks';
import type { PlanType } from '@vpp/shared/plans/constants';
import type { PlanPrices, PlanRate } from '@vpp/shared/plans/schemas';
import { nowS } from '../../db/database.ts';
import type { AppContext } from '../../platform/context.ts';
import type { DemoSeed } from '../../platform/module.ts';
import { insertPlan, updatePlan } from './plans.repo.ts';

const WEEKDAYS = ['MON', 'TUE', 'WED', 'THU', 'FRI'] as const;
const ALL_DAYS = [...WEEKDAYS, 'SAT', 'SUN', 'PUBLIC_HOLIDAYS'] as const;

const flat = (price: number): PlanRate => ({ label: 'Base Rate', isBaseRate: true, blocks: [{ onset: 0, price }], periods: [] });
/** Off-peak base all day, a weekday 3 pm to 9 pm peak (public holidays off-peak). */
const tou = (offPeak: number, peak: number, peakBlocks?: [number, number, number]): PlanRate[] => [
  {
    label: 'Base Rate',
    isBaseRate: true,
    blocks: [{ onset: 0, price: offPeak }],
    periods: [{ startTime: '00:00', endTime: '15:00', applicableDays: [...ALL_DAYS], rate: 'Base Rate' }],
  },
  {
    label: 'Peak',
    isBaseRate: false,
    blocks: peakBlocks
      ? [
          { onset: 0, price: peakBlocks[0] },
          { onset: peakBlocks[1], price: peakBlocks[2] },
        ]
      : [{ onset: 0, price: peak }],
    periods: [{ startTime: '15:00', endTime: '21:00', applicableDays: [...WEEKDAYS], rate: 'Peak' }],
  },
];
const demand = (price: number): PlanRate[] => [
  {
    label: 'Demand',
    isBaseRate: false,
    blocks: [{ onset: 0, price }],
    periods: [{ startTime: '15:00', endTime: '21:00', applicableDays: [...WEEKDAYS], rate: 'Demand' }],
  },
];

function prices(type: PlanType, startDate: string, scale = 1): PlanPrices {
  const r = (x: number) => Math.round(x * scale * 10000) / 10000;
  const base: Omit<PlanPrices, 'rates'> = {
    startDate,
    tariffType: type,
    resetPeriod: null,
    demandRates: [],
    dailyCharge: r(1.05),
    feedInTariff: 0.05,
    discount: 0,
  };
  switch (type) {
    case 'FLAT_RATE':
      return { ...base, rates: [flat(r(0.2964))] };
    case 'BLOCK':
      return {
        ...base,
        resetPeriod: 'MONTHLY',
        rates: [
          {
            ...flat(r(0.2655)),
            blocks: [
              { onset: 0, price: r(0.2655) },
              { onset: 500, price: r(0.3112) },
            ],
          },
        ],
      };
    case 'TOU':
      return { ...base, rates: tou(r(0.2291), r(0.5184)), discount: 5 };
    case 'TOU_BLOCK':
      return { ...base, resetPeriod: 'DAILY', rates: tou(r(0.2291), 0, [r(0.4573), 10, r(0.5521)]) };
    case 'FLAT_DEMAND':
      return { ...base, rates: [flat(r(0.2182))], demandRates: demand(r(0.2945)) };
    case 'TOU_DEMAND':
      return { ...base, rates: tou(r(0.1973), r(0.3548)), demandRates: demand(r(0.3312)) };
  }
}

const TYPE_NAMES: Record<PlanType, string> = {
  FLAT_RATE: 'Simple Saver',
  BLOCK: 'Step Saver',
  TOU: 'Solar Time of Use',
  TOU_BLOCK: 'Solar Time of Use Block',
  FLAT_DEMAND: 'Battery Demand',
  TOU_DEMAND: 'Battery Time of Use Demand',
};

/**
 * The demo retailer's plans: every plan type on Ausgrid, and a time-of-use and a flat plan on each
 * other network of the NEM, from the start of last year; the Ausgrid time-of-use plan has a price rise from
 * 1 July of last year (two versions).
 */
export async function seedDemoPlans(ctx: AppContext, demo: DemoSeed) {
  const org = demo.orgs.retailer;
  if (org === undefined) return;
  const now = nowS();
  const year = new Date(now * 1000).getUTCFullYear() - 1;
  const start = `${year}-01-01`;
  // NEM networks only (issue 33 item 8): WA's and NT's homes are not offered NEM retail plans.
  for (const network of OPERATIONAL_NETWORKS.filter((n) => n.market === 'NEM')) {
    const types: PlanType[] = network.uid === 'ausgrid' ? ['FLAT_RATE', 'BLOCK', 'TOU', 'TOU_BLOCK', 'FLAT_DEMAND', 'TOU_DEMAND'] : ['TOU', 'FLAT_RATE'];
    const code = network.uid.toUpperCase().replace(/-/g, '');
    for (const type of types) {
      const fields = {
        name: `${TYPE_NAMES[type]} ${network.name}`,
        planCode: `${code}-${type.replace(/_/g, '')}`,
        description: `${TYPE_NAMES[type]} for homes on the ${network.name} network. Prices exclude GST.`,
        operationalNetworkUid: network.uid,
      };
      const first = prices(type, start);
      const id = await insertPlan(ctx.db, org, fields, first, now);
      if (network.uid === 'ausgrid' && type === 'TOU') await updatePlan(ctx.db, id, fields, [first, prices(type, `${year}-07-01`, 1.06)], now);
    }
  }
}
