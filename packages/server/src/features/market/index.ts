import { marketEndpoints } from '@vpp/shared/market/endpoints';
import type { FeatureModule } from '../../platform/module.ts';
import { marketRoutes } from './market.routes.ts';
import './market.settings.ts';

export { type ImportedForecast, type ImportedPrice, type ParsedPriceFile, PriceFileError, parsePriceFile } from './market.import.ts';
export {
  actualPrices,
  dispatchPrice,
  dispatchQuote,
  type ForecastPrice,
  type ForecastQuote,
  forecastQuote,
  importPrices,
  latestForecast,
  powerstationPrices,
  quoteForDispatch,
  regionPrices,
  requireMarketAccess,
  seesMarketData,
  settlementPrices,
  storeDispatchQuote,
  vppRegion,
} from './market.service.ts';
export type { DispatchQuoteTable, MarketForecastTable, MarketImportTable, MarketModelDayTable, MarketPriceTable } from './market.tables.ts';

/**
 * Market prices of the NEM regions: the price model, AEMO price file imports, a VPP's price series
 * and the price of a dispatch. Settlement reads actual prices only (`settlementPrices`, `actualPrices`);
 * quotes and the optimiser read forecasts (`latestForecast`), stored apart with their issue times.
 */
export const marketModule: FeatureModule = { name: 'market', endpoints: [marketEndpoints], routes: marketRoutes };
