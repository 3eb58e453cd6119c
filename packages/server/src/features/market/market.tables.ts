import type { Generated } from 'kysely';
import type { Epoch } from '../../db/schema.ts';

// This area's tables; the augmentation adds them to the database's type.

export interface MarketPriceTable {
  region: string;
  /** Start of the 5-minute interval (AEMO's files stamp its end, 300 s later). */
  interval_start: Epoch;
  /** Regional reference price, $/MWh. */
  rrp: number;
  source: 'MODEL' | 'AEMO';
  /** When the price was set: AEMO's LASTCHANGED for imports (a newer one replaces it), the writing time for the model's. */
  published_at: Epoch;
}

export interface MarketModelDayTable {
  region: string;
  /** 00:00 market time (UTC+10) of a day whose 288 model prices are written. */
  day_start: Epoch;
  written_at: Epoch;
}

export interface MarketImportTable {
  id: Generated<number>;
  file_name: string;
  format: string;
  prices: number;
  written: number;
  first_interval: Epoch;
  last_interval: Epoch;
  /** Who imported through the API; null from the command line. */
  user_id: number | null;
  organisation_id: number | null;
  imported_at: Epoch;
}

declare module '../../db/schema.ts' {
  interface DB {
    market_prices: MarketPriceTable;
    market_model_days: MarketModelDayTable;
    market_imports: MarketImportTable;
  }
}
