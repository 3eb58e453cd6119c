import { expect, it } from 'vitest';
import { bucketTimes, buildSeries } from './series.ts';

it('answers null, never 0, for a bucket without readings and for a metric without a value', () => {
  const data = new Map<number, Record<string, unknown>>([
    [600, { solar_p: 1.23456, meter_p: null }],
    [900, { solar_p: -0.0004 }],
  ]);
  const series = buildSeries([300, 600, 900], data, ['solarPower', 'meterPower'], (m) => (m === 'solarPower' ? 'solar_p' : 'meter_p'));
  expect(series).toEqual({
    300: { solarPower: null, meterPower: null },
    600: { solarPower: 1.235, meterPower: null },
    900: { solarPower: -0, meterPower: null },
  });
});

it('starts local hours at half past the UTC hour in Adelaide, and UTC hours for sums across zones', () => {
  // 2026-01-15 00:00 in Adelaide (UTC+10:30 in summer) is 2026-01-14 13:30 UTC.
  const midnight = Date.UTC(2026, 0, 14, 13, 30) / 1000;
  expect(bucketTimes(midnight, midnight + 3 * 3600, 3600, 'Australia/Adelaide', { localHours: true })).toEqual([midnight, midnight + 3600, midnight + 7200]);
  expect(bucketTimes(midnight, midnight + 3 * 3600, 3600, 'Australia/Adelaide', { localHours: false })).toEqual([
    midnight + 1800,
    midnight + 5400,
    midnight + 9000,
  ]);
});

it('counts a Sydney day that loses an hour to daylight saving as one bucket, from each local midnight', () => {
  // Daylight saving starts in Sydney on Sunday 2026-10-04: that day has 23 hours.
  const sat = Date.UTC(2026, 9, 2, 14) / 1000; // 2026-10-03 00:00 AEST
  const days = bucketTimes(sat, sat + 3 * 86400 - 3600, 86400, 'Australia/Sydney', { localHours: true });
  expect(days).toEqual([sat, sat + 86400, sat + 2 * 86400 - 3600]);
  const hours = bucketTimes(sat + 86400, sat + 2 * 86400 - 3600, 3600, 'Australia/Sydney', { localHours: true });
  expect(hours).toHaveLength(23);
});
