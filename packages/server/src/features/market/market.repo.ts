import type { NemRegion } from '@vpp/shared';
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

/** Which of these market days already have the region's model prices. */
export async function writtenDays(db: Database, region: NemRegion, days: number[]): Promise<Set<number>> {
  if (!days.length) return new Set();
  const rows = await db.selectFrom('market_model_days').select('day_start').where('region', '=', region).where('day_start', 'in', days).execute();
  return new Set(rows.map((r) => Number(r.day_start)));
}

/**
 * Writes a day of the model's prices for a region, once: an interval that already has a price (an
 * import, or the same day written by another request or process) keeps it.
 */
export async function writeModelDay(db: Database, region: NemRegion, dayStart: number, prices: { intervalStart: number; rrp: number }[]): Promise<void> {
  const at = nowS();
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < prices.length; i += 500)
      await trx
        .insertInto('market_prices')
        .values(prices.slice(i, i + 500).map((p) => ({ region, interval_start: p.intervalStart, rrp: p.rrp, source: 'MODEL' as const, published_at: at })))
        .onConflict((oc) => oc.columns(['region', 'interval_start']).doNothing())
        .execute();
    await trx
      .insertInto('market_model_days')
      .values({ region, day_start: dayStart, written_at: at })
      .onConflict((oc) => oc.columns(['region', 'day_start']).doNothing())
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
