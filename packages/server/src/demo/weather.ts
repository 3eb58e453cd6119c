import { airTemperature, cloudCover } from '@vpp/fleet/physics';
import { smoothNoise, stringKey } from '@vpp/fleet/random';
import type { Database } from '../db/database.ts';
import { saveWeather, type WeatherTable } from '../forecast/index.ts';

// The demo world's weather service: it tells the console, hour by hour per postcode of the fleet,
// the cloud cover and air temperature it forecasts, as a real deployment's weather feed would. Its
// forecast is the simulated weather with an error that grows with the lead time (a weather system
// a few hours off, the odd front missed), never the weather itself.

const HOUR_S = 3600;
/** How far ahead the service forecasts: the console's predictions reach 7 days. */
export const WEATHER_AHEAD_S = 8 * 86_400;

/** The forecast's spread of cloud cover (0 to 1) at a lead time: about ±0.07 an hour ahead, ±0.2 a day ahead, ±0.35 beyond 3 days. */
const cloudSpread = (leadS: number) => Math.min(0.35, 0.05 + 0.03 * Math.sqrt(Math.max(HOUR_S, leadS) / HOUR_S));
/** The same of air temperature, °C. */
const tempSpread = (leadS: number) => Math.min(4, 0.5 + 0.4 * Math.sqrt(Math.max(HOUR_S, leadS) / HOUR_S));

/** A value in [-1, 1) that drifts over hours, fixed per place, issue and hour forecast. */
const drift = (key: number, issuedAt: number, ts: number) => (smoothNoise(key + Math.floor(issuedAt / HOUR_S) * 7919, ts, 6 * HOUR_S) - 0.5) * 2;

/**
 * Issues the forecast of the hours [from, to) for every postcode of the fleet: as issued at
 * `issuedAt`, or for hours already begun by then (a backfill of the past), as issued an hour before
 * each.
 */
export async function publishWeather(db: Database, from: number, to: number, issuedAt: number): Promise<number> {
  const places = await db
    .selectFrom('nodes')
    .select((eb) => ['postcode', 'region', eb.fn.avg<number>('lat').as('lat'), eb.fn.avg<number>('lng').as('lng')])
    .groupBy(['postcode', 'region'])
    .execute();
  const rows: WeatherTable[] = [];
  const seen = new Set<string>();
  for (const p of places) {
    // A postcode on a region's border is forecast once, from its first region.
    if (seen.has(p.postcode)) continue;
    seen.add(p.postcode);
    const place = { lat: Number(p.lat), lng: Number(p.lng), region: p.region, postcode: p.postcode };
    const key = stringKey(p.postcode);
    for (let h = from - (from % HOUR_S); h < to; h += HOUR_S) {
      const issued = Math.min(issuedAt, h - HOUR_S);
      const mid = h + HOUR_S / 2;
      const lead = mid - issued;
      const cloud = Math.min(1, Math.max(0, cloudCover(p.region, mid) + drift(key, issued, mid) * cloudSpread(lead)));
      const temp = airTemperature(place, mid) + drift(key + 1, issued, mid) * tempSpread(lead);
      rows.push({ postcode: p.postcode, ts: h, cloud_cover: Math.round(cloud * 1000) / 1000, air_temp_c: Math.round(temp * 10) / 10, issued_at: issued });
    }
  }
  await saveWeather(db, rows);
  return rows.length;
}
