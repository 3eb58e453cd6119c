import { z } from 'zod';
import { defineEndpoints, endpoint } from '../api/endpoint.ts';
import { recordId } from '../api/inputs.ts';
import type { PermissionRequirement } from '../permissions/registry.ts';
import { dispatchPriceQuery, dispatchPriceReply, powerstationPricesQuery, powerstationPricesReply, priceImportQuery, priceImportReply } from './schemas.ts';

/**
 * Market prices are read in the dispatch screens: the dispatch area's gate opens the calls, and the
 * server then shows prices only to retailers and market traders (`canSeeMarketData`).
 */
export const MARKET_VIEW = 'fleet.dispatches.any' satisfies PermissionRequirement;
/** Prices are the deployment's, shared by every organisation: only an administrator imports them. */
export const MARKET_IMPORT = 'fleet.administrator' satisfies PermissionRequirement;

const params = z.object({ id: recordId('powerstation', 'The Virtual Power Plant id') });

/** Market prices of the NEM regions: series, dispatch prices, AEMO price file imports (issue 11). */
export const marketEndpoints = defineEndpoints('market', {
  powerstationPrices: endpoint({
    method: 'GET',
    access: 'read',
    path: '/powerstation/:id/prices',
    summary: "The VPP's regional price series, 30-minute averages of the 5-minute prices ($/MWh)",
    permission: MARKET_VIEW,
    params,
    query: powerstationPricesQuery,
    reply: powerstationPricesReply,
  }),
  dispatchPrice: endpoint({
    method: 'GET',
    access: 'read',
    path: '/dispatch/price',
    summary: 'The cost (dispatchPrice, AUD) and sell price (tradingPrice, $/MWh) of a dispatch at the forecast prices',
    permission: MARKET_VIEW,
    query: dispatchPriceQuery,
    reply: dispatchPriceReply,
  }),
  importPrices: endpoint({
    method: 'POST',
    access: 'write',
    path: '/api/market/prices/import',
    summary:
      'Import an AEMO price file sent as the body (PRICE_AND_DEMAND CSV or MMS DISPATCHPRICE CSV, plain or zipped): its prices replace the model’s; a malformed file is refused whole',
    permission: MARKET_IMPORT,
    query: priceImportQuery,
    reply: priceImportReply,
  }),
});
