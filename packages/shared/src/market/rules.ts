import type { SuborgType } from '../constants.ts';
import { hasPermission } from '../permissions/registry.ts';

/** The five regions of the National Electricity Market; WA and NT run markets of their own. */
export const NEM_REGIONS = ['NSW1', 'QLD1', 'VIC1', 'SA1', 'TAS1'] as const;
export type NemRegion = (typeof NEM_REGIONS)[number];
export const isNemRegion = (region: string): region is NemRegion => (NEM_REGIONS as readonly string[]).includes(region);

/** One dispatch interval: the 5 minutes each stored price covers. */
export const DISPATCH_INTERVAL_S = 300;
/** The step of the price series the console draws (spec 3 §3.2): each point averages six 5-minute prices. */
export const MARKET_SERIES_STEP_S = 1800;
/** How far ahead the market model forecasts (and the console asks for prices): 2 days. */
export const MARKET_FORECAST_S = 2 * 86400;
/** AEMO's market time, in which its files are stamped: UTC+10 all year (no daylight saving). */
export const MARKET_TIME_OFFSET_S = 10 * 3600;

/** Spec 3 §1 and §6: RETAILER accounts always see market prices and costs; others need fleet.dispatches.marketTrader. */
export function canSeeMarketData(suborgType: SuborgType, permissions: readonly string[]): boolean {
  return suborgType === 'RETAILER' || hasPermission(permissions, 'fleet.dispatches.marketTrader');
}

export const MARKET_MESSAGES = {
  hidden: 'Market prices and costs are shown only to retailers and to users with the market trader permission.',
  noNodes: 'This Virtual Power Plant has no nodes, so it has no market prices.',
  outsideNem:
    'This Virtual Power Plant has no nodes in the National Electricity Market (its nodes are in WA or NT, which have markets of their own), so it has no market prices.',
  multipleRegions: 'This Virtual Power Plant spans multiple NEM regions.',
  /** Issue 33 item 8: a VPP with homes in the NEM and homes outside it. */
  partlyOutsideNem: (nodes: number) =>
    `${nodes === 1 ? '1 of this Virtual Power Plant’s nodes is' : `${nodes} of this Virtual Power Plant’s nodes are`} in WA or NT, outside the National Electricity Market: ${nodes === 1 ? 'it is' : 'they are'} not priced for NEM dispatch, and ${nodes === 1 ? 'its' : 'their'} energy earns no NEM price when a dispatch is settled.`,
  beyondForecast: 'Market price predictions are unavailable more than 2 days ahead.',
  fileTooLarge: 'The file is too large: the API takes files of at most 32 MB. Import larger ones with npm run prices:import.',
  importOperatorOnly:
    'Market prices are shared by every organisation of this deployment: only the administrators of its operating organisation can import them.',
  notAFile: 'Send the price file itself as the body (Content-Type application/octet-stream, application/zip or text/csv).',
} as const;
