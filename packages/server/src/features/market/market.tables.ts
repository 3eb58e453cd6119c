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

/** A forecast price of an imported AEMO run (migration 034): the period [interval_start, interval_end) as the run issued at issued_at saw it. */
export interface MarketForecastTable {
  region: string;
  source: 'P5MIN' | 'PREDISPATCH';
  issued_at: Epoch;
  interval_start: Epoch;
  interval_end: Epoch;
  rrp: number;
}

/** A dispatch's quote (migration 034): its cost at the forecast prices when it was created. */
export interface DispatchQuoteTable {
  event_id: number;
  quoted_at: Epoch;
  region: string;
  /** AUD, as GET /dispatch/price answers it: charging at a positive price costs, discharging earns (negative). */
  cost: number;
  trading_price: number;
  /** The issue time of the newest forecast run the quote read, and where that run came from (P5MIN, PREDISPATCH or MODEL). */
  forecast_issued_at: Epoch;
  forecast_source: string;
}

declare module '../../db/schema.ts' {
  interface DB {
    market_forecasts: MarketForecastTable;
    dispatch_quotes: DispatchQuoteTable;
    market_prices: MarketPriceTable;
    market_model_days: MarketModelDayTable;
    market_imports: MarketImportTable;
  }
}
