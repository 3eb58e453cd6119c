import { NEM_REGIONS } from '@vpp/shared/market/rules';
import { type MarketSettings, marketSettingsAt } from '@vpp/shared/market/settings';
import { describe, expect, it } from 'vitest';
import { intervalStarts, marketDayStart, modelPrice } from './market.model.ts';

// Monday 12 January 2026, 00:00 market time (UTC+10).
const MONDAY = Date.UTC(2026, 0, 11, 14) / 1000;
const HOUR = 3600;

/** Mean price of a region over the hour starting `hour` hours into each of the days. */
function meanAt(region: (typeof NEM_REGIONS)[number], hour: number, days: number[]) {
  const xs = days.flatMap((d) => Array.from({ length: 12 }, (_, i) => modelPrice(42, region, MONDAY + d * 86400 + hour * HOUR + i * 300)));
  return xs.reduce((a, b) => a + b, 0) / xs.length;
}
const weeks = (n: number, weekdays: number[]) => Array.from({ length: n }, (_, w) => weekdays.map((d) => w * 7 + d)).flat();

describe('the market price model', () => {
  it('gives the same price for an interval every time, and another with another seed', () => {
    expect(modelPrice(42, 'NSW1', MONDAY + 18 * HOUR)).toBe(modelPrice(42, 'NSW1', MONDAY + 18 * HOUR));
    const a = intervalStarts(MONDAY, MONDAY + 86400).map((t) => modelPrice(42, 'NSW1', t));
    const b = intervalStarts(MONDAY, MONDAY + 86400).map((t) => modelPrice(7, 'NSW1', t));
    expect(a).not.toEqual(b);
  });

  it("stays between the floor and the cap of each interval's financial year, in cents, with rare spikes toward the cap and some negative middays", () => {
    let spikes = 0;
    let negative = 0;
    let n = 0;
    let low = Infinity;
    let high = -Infinity;
    let notCents = 0;
    let outside = 0;
    for (const region of NEM_REGIONS)
      for (let t = MONDAY; t < MONDAY + 365 * 86400; t += 300) {
        const p = modelPrice(42, region, t);
        const settings = marketSettingsAt(t) as MarketSettings;
        if (p > settings.marketPriceCap || p < settings.marketPriceFloor) outside++;
        low = Math.min(low, p);
        high = Math.max(high, p);
        if (Math.round(p * 100) / 100 !== p) notCents++;
        if (p > 5000) spikes++;
        if (p < 0) negative++;
        n++;
      }
    // Each price within its own financial year's floor and cap (the year runs across 30 June 2026).
    expect(outside).toBe(0);
    expect(low).toBeGreaterThanOrEqual(-1000);
    expect(high).toBeGreaterThan(20_300 / 2);
    expect(notCents).toBe(0);
    expect(spikes).toBeGreaterThan(0);
    expect(spikes / n).toBeLessThan(0.001);
    expect(negative / n).toBeGreaterThan(0.01);
  });

  it('has a midday solar soak, deepest in SA1 and VIC1, and an evening peak above it', () => {
    const days = weeks(8, [0, 1, 2, 3, 4]);
    for (const region of NEM_REGIONS) expect(meanAt(region, 18, days)).toBeGreaterThan(meanAt(region, 12, days) + 50);
    const soak = (r: (typeof NEM_REGIONS)[number]) => meanAt(r, 7, days) - meanAt(r, 12, days);
    expect(soak('SA1')).toBeGreaterThan(soak('NSW1'));
    expect(soak('VIC1')).toBeGreaterThan(soak('NSW1'));
    expect(soak('TAS1')).toBeLessThan(soak('QLD1'));
  });

  it('is cheaper at weekends', () => {
    const weekday = meanAt('NSW1', 18, weeks(12, [0, 1, 2, 3, 4]));
    const weekend = meanAt('NSW1', 18, weeks(12, [5, 6]));
    expect(weekend).toBeLessThan(weekday * 0.9);
  });

  it('counts market days in UTC+10 and intervals by their start', () => {
    expect(marketDayStart(MONDAY + 86399)).toBe(MONDAY);
    expect(marketDayStart(MONDAY - 1)).toBe(MONDAY - 86400);
    expect(intervalStarts(MONDAY + 1, MONDAY + 901)).toEqual([MONDAY + 300, MONDAY + 600, MONDAY + 900]);
  });
});
