import type { Database } from '../db/database.ts';

// The weather the console keeps (migration 031): per postcode and hour, cloud cover and air
// temperature as last issued by its weather source.

export interface WeatherTable {
  postcode: string;
  ts: number;
  cloud_cover: number;
  air_temp_c: number;
  issued_at: number;
}

declare module '../db/schema.ts' {
  interface DB {
    weather: WeatherTable;
  }
}

/** Rows per statement: well under SQLite's bound parameters. */
const CHUNK = 500;

/** Stores a weather source's hours, each replacing what an earlier issue said of the same postcode and hour. */
export async function saveWeather(db: Database, rows: readonly WeatherTable[]): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK)
    await db
      .insertInto('weather')
      .values(rows.slice(i, i + CHUNK))
      .onConflict((oc) =>
        oc.columns(['postcode', 'ts']).doUpdateSet((eb) => ({
          cloud_cover: eb.ref('excluded.cloud_cover'),
          air_temp_c: eb.ref('excluded.air_temp_c'),
          issued_at: eb.ref('excluded.issued_at'),
        })),
      )
      .execute();
}

/** The hours of the postcodes over [start, end), in (postcode, ts) order. */
export async function weatherRows(db: Database, postcodes: readonly string[], start: number, end: number): Promise<WeatherTable[]> {
  const out: WeatherTable[] = [];
  for (let i = 0; i < postcodes.length; i += CHUNK) {
    const rows = await db
      .selectFrom('weather')
      .selectAll()
      .where('postcode', 'in', postcodes.slice(i, i + CHUNK))
      .where('ts', '>=', start)
      .where('ts', '<', end)
      .orderBy('postcode')
      .orderBy('ts')
      .execute();
    for (const r of rows) out.push({ ...r, ts: Number(r.ts), issued_at: Number(r.issued_at) });
  }
  return out;
}
