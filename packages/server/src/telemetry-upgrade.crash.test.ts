import { localMidnight } from '@vpp/shared/time';
import { type Kysely, sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from './db/database.ts';
import { buildFleet } from './demo/builder.ts';
import { createOrganisation } from './features/users/index.ts';
import type { MetricColumn } from './telemetry/index.ts';
import { nodeSeries } from './telemetry/index.ts';
import { DIALECTS, serverProcess, waitFor } from './test/server-process.ts';

/**
 * Issue 19: an existing database, as the release before the compact history left it (migrations up
 * to 023: 5-minute rows with their stored hourly and daily rollups), upgraded in place by the real
 * server at start. Its graphs, read before the upgrade as that release read them (a rollup's
 * integral over its seconds), read the same after it, from the compacted days and the recent rows,
 * and the server's log says how the upgrade went.
 */
const LAST_BEFORE = '023-search-trigram';
const ZONES = ['Australia/Sydney', 'Australia/Adelaide', 'Australia/Perth'];
const COLS = ['meter_p', 'solar_p', 'battery_p', 'voltage', 'soc'] as const satisfies readonly MetricColumn[];
const TABLES = { 300: 'tel_5m', 3600: 'tel_1h', 86400: 'tel_1d' } as const;
type Row = { node_id: number; ts: number; cov: number } & Record<(typeof COLS)[number] | 'import_e' | 'export_e', number | null>;

/** One node's 5-minute rows as the old ingest kept them (integrals over the seconds covered), with gaps, short buckets and missing voltages. */
function fiveMinuteRows(node: number, k: number, start: number, end: number): Row[] {
  const rows: Row[] = [];
  for (let ts = start; ts < end; ts += 300) {
    const i = (ts - start) / 300;
    // A silent afternoon on the second day.
    if (i >= 288 + 170 && i < 288 + 200) continue;
    const cov = i % 37 === 5 ? 210 : 300;
    const p = 2.5 * Math.sin(i / 23 + k) + 0.37 * k;
    const solar = Math.max(0, 5 * Math.sin(((i % 288) / 288) * Math.PI * 2 - 1.2));
    rows.push({
      node_id: node,
      ts,
      cov,
      meter_p: p * cov,
      solar_p: solar * cov,
      battery_p: (p - solar / 2) * cov,
      voltage: i % 11 === 3 ? null : (240 + Math.cos(i / 7) * 4) * cov,
      soc: (50 + 40 * Math.sin(i / 90)) * cov,
      import_e: (Math.max(0, p) * cov) / 3600,
      export_e: (Math.max(0, -p) * cov) / 3600,
    });
  }
  return rows;
}

/** Rows added up into the buckets `bucketOf` gives, as the old rollups stored them. */
function rolledUp(rows: readonly Row[], bucketOf: (ts: number) => number): Row[] {
  const out = new Map<string, Row>();
  for (const r of rows) {
    const ts = bucketOf(r.ts);
    const key = `${r.node_id}:${ts}`;
    const acc = out.get(key);
    if (!acc) {
      out.set(key, { ...r, ts });
      continue;
    }
    acc.cov += r.cov;
    for (const c of [...COLS, 'import_e', 'export_e'] as const) {
      const v = r[c];
      if (v !== null) acc[c] = (acc[c] ?? 0) + v;
    }
  }
  return [...out.values()];
}

for (const { dialect, skip } of DIALECTS) {
  describe.skipIf(skip)(`an existing telemetry history upgraded in place [${dialect}]`, () => {
    const srv = serverProcess(dialect, 'upgrade', { DEMO: 'false', SIMULATOR: 'false', LOG_LEVEL: 'info' });
    afterAll(() => srv.cleanup());
    const where = {
      url: dialect === 'postgres' ? process.env.TEST_DATABASE_URL : undefined,
      dataDir: srv.dataDir,
      schema: dialect === 'postgres' ? srv.schema : undefined,
    };

    it('reads the same graphs after the server has packed it at start, its progress in the log', { timeout: 120_000 }, async () => {
      const now = Math.floor(Date.now() / 1000);
      const start = localMidnight(ZONES[0], now) - 3 * 86400;
      const end = now - (now % 300);

      // The database as the release before left it.
      const old = await openDatabase({ ...where, migrateTo: LAST_BEFORE });
      const raw = old.db as unknown as Kysely<Record<string, Row>>;
      const org = await createOrganisation(old.db, 'Old Power', 'RETAILER');
      // Today's builder also writes the membership history of a later release (migration 044): a
      // stand-in table takes it here and goes again, and 044 builds the real one from the fleet.
      await sql`create table fleet_membership_history (organisation_id integer, node_id integer, joined_at bigint, left_at bigint)`.execute(old.db);
      const nodes = await buildFleet(old.db, {
        count: ZONES.length,
        seed: 19,
        owners: { retailers: [org], networks: new Map(), installers: [] },
        historyDays: 0,
      });
      await sql`drop table fleet_membership_history`.execute(old.db);
      for (const [k, id] of nodes.entries()) await old.db.updateTable('nodes').set({ timezone: ZONES[k] }).where('id', '=', id).execute();
      for (const [k, id] of nodes.entries()) {
        const zone = ZONES[k];
        const rows = fiveMinuteRows(id, k, start, end);
        const tables: [string, Row[]][] = [
          ['tel_5m', rows],
          ['tel_1h', rolledUp(rows, (ts) => ts - ((ts - localMidnight(zone, ts)) % 3600))],
          ['tel_1d', rolledUp(rows, (ts) => localMidnight(zone, ts))],
        ];
        for (const [table, all] of tables)
          for (let i = 0; i < all.length; i += 200)
            await raw
              .insertInto(table)
              .values(all.slice(i, i + 200))
              .execute();
      }
      // Each graph as that release drew it: a rollup's integral over its seconds.
      const oldGraph = async (db: Database, node: number, interval: keyof typeof TABLES) => {
        const rows = await (db as unknown as Kysely<Record<string, Row>>)
          .selectFrom(TABLES[interval])
          .select(['ts', ...COLS])
          .select('cov')
          .where('node_id', '=', node)
          .where('ts', '>=', start)
          .where('ts', '<', end)
          .orderBy('ts')
          .execute();
        return rows.map((r) => [Number(r.ts), ...COLS.map((c) => (r[c] === null ? null : Number(r[c]) / Number(r.cov)))]);
      };
      const before = new Map<string, (number | null)[][]>();
      for (const node of nodes) for (const interval of [300, 3600, 86400] as const) before.set(`${node}:${interval}`, await oldGraph(old.db, node, interval));
      await old.close();

      // The new release starts on it: migrations 024 on, then the hourly compaction at once.
      await srv.start();
      const said = () => srv.log.map((l) => String((JSON.parse(l) as { msg?: string }).msg));
      const done = await waitFor('the upgrade to be logged', () => said().find((m) => m.startsWith('Compacted the telemetry history')));
      expect(said()).toContain(`Compacting the telemetry history of ${nodes.length} nodes`);
      expect(done).toMatch(new RegExp(`^Compacted the telemetry history: (\\d+) node-days of ${nodes.length} nodes$`));
      // At least two whole local days of each node have ended an hour ago, whatever the hour.
      expect(Number(/: (\d+) node-days/.exec(done)?.[1])).toBeGreaterThanOrEqual(2 * nodes.length);
      await srv.stop();

      const upgraded = await openDatabase(where);
      try {
        const packed = await upgraded.db
          .selectFrom('tel_day')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow();
        expect(Number(packed.n)).toBeGreaterThan(0);
        for (const node of nodes) {
          for (const interval of [300, 3600, 86400] as const) {
            const after = await nodeSeries(upgraded.db, node, COLS, start, end, interval);
            const was = before.get(`${node}:${interval}`) ?? [];
            expect([...after.keys()], `node ${node} at ${interval} s`).toEqual(was.map((r) => r[0]));
            for (const [ts, ...values] of was) {
              const point = after.get(ts as number);
              for (const [j, c] of COLS.entries()) {
                const v = values[j];
                const now = point?.[c] ?? null;
                if (v === null) expect(now, `${c} at ${ts}`).toBeNull();
                // float32 in the compacted days (and on PostgreSQL in the old rows too).
                else expect(Math.abs((now as number) - v), `${c} of node ${node} at ${ts}, interval ${interval}`).toBeLessThan(1e-5 * Math.max(1, Math.abs(v)));
              }
            }
          }
        }
      } finally {
        await upgraded.close();
      }
    });
  });
}
