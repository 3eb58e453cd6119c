import type { NemRegion } from '@vpp/shared/market/rules';
import { type Database, nowS } from '../../db/database.ts';
import { memberNodes, type PowerstationRow } from '../vpps/index.ts';
import type { ImportedPrice, ParsedPriceFile } from './market.import.ts';
import './market.tables.ts';

/** The VPP's member nodes by market region, most first (ties by name). */
export async function memberRegions(db: Database, ps: PowerstationRow): Promise<{ region: string; nodes: number }[]> {
  const rows = await memberNodes(db, ps)
    .select((eb) => ['nodes.region', eb.fn.countAll<number>().as('n')])
    .groupBy('nodes.region')
    .execute();
  return rows.map((r) => ({ region: r.region, nodes: Number(r.n) })).sort((a, b) => b.nodes - a.nodes || a.region.localeCompare(b.region));
}

/**
 * Writes the model's actual prices of intervals that have ended and have none, once: an interval
 * that already has a price (an import, or the same interval written by another request or process)
 * keeps it.
 */
export async function writeModelPrices(db: Database, region: NemRegion, prices: { intervalStart: number; rrp: number }[]): Promise<void> {
  const at = nowS();
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < prices.length; i += 500)
      await trx
        .insertInto('market_prices')
        .values(prices.slice(i, i + 500).map((p) => ({ region, interval_start: p.intervalStart, rrp: p.rrp, source: 'MODEL' as const, published_at: at })))
        .onConflict((oc) => oc.columns(['region', 'interval_start']).doNothing())
        .execute();
  });
}

/** The stored prices of a region for the intervals starting in [start, end). */
export async function storedPrices(db: Database, region: NemRegion, start: number, end: number): Promise<Map<number, number>> {
  const rows = await db
    .selectFrom('market_prices')
    .select(['interval_start', 'rrp'])
    .where('region', '=', region)
    .where('interval_start', '>=', start)
    .where('interval_start', '<', end)
    .execute();
  return new Map(rows.map((r) => [Number(r.interval_start), Number(r.rrp)]));
}

/**
 * Stores a parsed file's prices in one transaction, each replacing the model's price or an older
 * import of its interval, and records the import. Answers how many were written.
 */
export async function storeImport(db: Database, file: ParsedPriceFile, by: { userId: number; organisationId: number } | null): Promise<number> {
  if (file.forecasts.length) return storeForecastImport(db, file, by);
  const prices = file.prices;
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  for (const p of prices) {
    first = Math.min(first, p.intervalStart);
    last = Math.max(last, p.intervalStart);
  }
  return db.transaction().execute(async (trx) => {
    const regions = [...new Set(prices.map((p) => p.region))];
    const existing = await trx
      .selectFrom('market_prices')
      .select(['region', 'interval_start', 'source', 'published_at'])
      .where('region', 'in', regions)
      .where('interval_start', '>=', first)
      .where('interval_start', '<=', last)
      .where('source', '=', 'AEMO')
      .execute();
    const imported = new Map(existing.map((r) => [`${r.region}:${Number(r.interval_start)}`, Number(r.published_at)]));
    // A newer import of an interval stays: a revision never gives way to the price it revised.
    const newer = (p: ImportedPrice) => {
      const stored = imported.get(`${p.region}:${p.intervalStart}`);
      return stored === undefined || p.publishedAt >= stored;
    };
    const writes = prices.filter(newer);
    for (let i = 0; i < writes.length; i += 500)
      await trx
        .insertInto('market_prices')
        .values(
          writes
            .slice(i, i + 500)
            .map((p) => ({ region: p.region, interval_start: p.intervalStart, rrp: p.rrp, source: 'AEMO' as const, published_at: p.publishedAt })),
        )
        .onConflict((oc) =>
          oc.columns(['region', 'interval_start']).doUpdateSet((eb) => ({
            rrp: eb.ref('excluded.rrp'),
            source: eb.ref('excluded.source'),
            published_at: eb.ref('excluded.published_at'),
          })),
        )
        .execute();
    await trx
      .insertInto('market_imports')
      .values({
        file_name: file.fileName,
        format: file.format,
        prices: prices.length,
        written: writes.length,
        first_interval: first,
        last_interval: last + 300,
        user_id: by?.userId ?? null,
        organisation_id: by?.organisationId ?? null,
        imported_at: nowS(),
      })
      .execute();
    return writes.length;
  });
}

/** Stores a forecast file's prices (a run's price of a period replaces the same run's only) and records the import. */
async function storeForecastImport(db: Database, file: ParsedPriceFile, by: { userId: number; organisationId: number } | null): Promise<number> {
  const rows = file.forecasts;
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  for (const f of rows) {
    first = Math.min(first, f.intervalStart);
    last = Math.max(last, f.intervalEnd);
  }
  return db.transaction().execute(async (trx) => {
    for (let i = 0; i < rows.length; i += 500)
      await trx
        .insertInto('market_forecasts')
        .values(
          rows.slice(i, i + 500).map((f) => ({
            region: f.region,
            source: f.source,
            issued_at: f.issuedAt,
            interval_start: f.intervalStart,
            interval_end: f.intervalEnd,
            rrp: f.rrp,
          })),
        )
        .onConflict((oc) =>
          oc
            .columns(['region', 'interval_start', 'issued_at', 'source'])
            .doUpdateSet((eb) => ({ rrp: eb.ref('excluded.rrp'), interval_end: eb.ref('excluded.interval_end') })),
        )
        .execute();
    await trx
      .insertInto('market_imports')
      .values({
        file_name: file.fileName,
        format: file.format,
        prices: rows.length,
        written: rows.length,
        first_interval: first,
        last_interval: last,
        user_id: by?.userId ?? null,
        organisation_id: by?.organisationId ?? null,
        imported_at: nowS(),
      })
      .execute();
    return rows.length;
  });
}

/** A stored forecast price of an imported run. */
export interface StoredForecast {
  source: 'P5MIN' | 'PREDISPATCH';
  issuedAt: number;
  intervalStart: number;
  intervalEnd: number;
  rrp: number;
}

/** The imported forecasts of a region whose periods overlap [start, end), issued in [issuedFrom, issuedTo]. */
export async function storedForecasts(
  db: Database,
  region: NemRegion,
  start: number,
  end: number,
  issuedFrom: number,
  issuedTo: number,
): Promise<StoredForecast[]> {
  const rows = await db
    .selectFrom('market_forecasts')
    .select(['source', 'issued_at', 'interval_start', 'interval_end', 'rrp'])
    .where('region', '=', region)
    .where('issued_at', '>=', issuedFrom)
    .where('issued_at', '<=', issuedTo)
    .where('interval_start', '<', end)
    .where('interval_end', '>', start)
    .execute();
  return rows.map((r) => ({
    source: r.source,
    issuedAt: Number(r.issued_at),
    intervalStart: Number(r.interval_start),
    intervalEnd: Number(r.interval_end),
    rrp: Number(r.rrp),
  }));
}

/** A dispatch's quote, as stored when it was created. */
export interface StoredQuote {
  eventId: number;
  quotedAt: number;
  region: string;
  cost: number;
  tradingPrice: number;
  forecastIssuedAt: number;
  forecastSource: string;
}

/** Stores a dispatch's quote (in the transaction that creates the dispatch). */
export async function storeQuote(db: Database, q: StoredQuote): Promise<void> {
  await db
    .insertInto('dispatch_quotes')
    .values({
      event_id: q.eventId,
      quoted_at: q.quotedAt,
      region: q.region,
      cost: q.cost,
      trading_price: q.tradingPrice,
      forecast_issued_at: q.forecastIssuedAt,
      forecast_source: q.forecastSource,
    })
    .execute();
}

/** A dispatch's quote, or undefined (created before quotes were kept, or outside the NEM). */
export async function findQuote(db: Database, eventId: number): Promise<StoredQuote | undefined> {
  const r = await db.selectFrom('dispatch_quotes').selectAll().where('event_id', '=', eventId).executeTakeFirst();
  return r
    ? {
        eventId: r.event_id,
        quotedAt: Number(r.quoted_at),
        region: r.region,
        cost: Number(r.cost),
        tradingPrice: Number(r.trading_price),
        forecastIssuedAt: Number(r.forecast_issued_at),
        forecastSource: r.forecast_source,
      }
    : undefined;
}
