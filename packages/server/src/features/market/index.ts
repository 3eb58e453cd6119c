import { marketEndpoints } from '@vpp/shared';
import type { FeatureModule } from '../../platform/module.ts';
import { marketRoutes } from './market.routes.ts';

export { type ImportedPrice, type ParsedPriceFile, PriceFileError, parsePriceFile } from './market.import.ts';
export {
  dispatchPrice,
  importPrices,
  powerstationPrices,
  regionPrices,
  requireMarketAccess,
  seesMarketData,
  settlementPrices,
  vppRegion,
} from './market.service.ts';
export type { MarketImportTable, MarketModelDayTable, MarketPriceTable } from './market.tables.ts';

/**
 * Market prices of the NEM regions: the price model, AEMO price file imports, a VPP's price series
 * and the price of a dispatch. Dispatch costs and settlement read `regionPrices`.
 */
export const marketModule: FeatureModule = { name: 'market', endpoints: [marketEndpoints], routes: marketRoutes };
