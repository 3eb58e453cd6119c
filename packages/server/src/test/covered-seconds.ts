import { decodeDay } from '../telemetry/index.ts';
import type { serverProcess } from './server-process.ts';

type Server = ReturnType<typeof serverProcess>;

/** Seconds of readings per `node:bucket` from `from` on: the 5-minute rollup's and the open readings' together. */
export async function coveredSeconds(srv: Server, from: number): Promise<Map<string, number>> {
  const cov = new Map<string, number>();
  const add = (node: number, ts: number, seconds: number) => cov.set(`${node}:${ts}`, (cov.get(`${node}:${ts}`) ?? 0) + seconds);
  const rows = await srv.query<{ node_id: number; ts: number; cov: number }>(
    `select node_id, ts, cov from tel_5m where ts >= ${from}
     union all select node_id, ts - ts % 300 as ts, sum(dt) as cov from tel_open where ts >= ${from} group by node_id, ts - ts % 300`,
  );
  for (const r of rows) add(r.node_id, Number(r.ts), Number(r.cov));
  // The compacted days (the hourly job may have packed some); every column group of a day holds its
  // covered seconds, the first group's are the day's. A bucket in both places adds up.
  for (const d of await srv.query<{ node_id: number; day: number; data: Uint8Array }>('select node_id, day, data from tel_day where grp = 0')) {
    const seconds = decodeDay([d], new Set([0])).columns[0] ?? [];
    for (const [k, c] of seconds.entries()) if (c > 0 && Number(d.day) + k * 300 >= from) add(d.node_id, Number(d.day) + k * 300, c);
  }
  return cov;
}
