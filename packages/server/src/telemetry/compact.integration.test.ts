import { hash01 } from '@vpp/fleet/random';
import { localDateToEpoch, localMidnight } from '@vpp/shared/time';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { nowS } from '../db/database.ts';
import { buildFleet } from '../demo/builder.ts';
import type { JobRun } from '../platform/jobs.ts';
import { describeEachDatabase } from '../test/harness.ts';
import { DAY_COLUMNS, DAY_GROUPS, decodeDay, encodeDay } from './codec.ts';
import { telemetryCompactJob } from './compact.ts';
import type { MetricColumn, Sample } from './metrics.ts';

describe('a compacted day', () => {
  it('round-trips every column exactly as float32, missing values and absent columns included', () => {
    for (const slots of [276, 288, 300]) {
      const columns = DAY_COLUMNS.map((_, c) => {
        // Column 3 holds nothing at all; the others a mix of values, zeros, negatives and gaps.
        if (c === 3) return null;
        const col = new Float32Array(slots);
        for (let i = 0; i < slots; i++) col[i] = hash01(c, i, 1) < 0.1 ? Number.NaN : (hash01(c, i, 2) - 0.3) * 10 ** (c % 5);
        if (c === 5) col.fill(Number.NaN);
        return col;
      });
      const day = decodeDay(encodeDay(slots, columns));
      expect(day.slots).toBe(slots);
      for (const [c, col] of columns.entries()) {
        if (!col || col.every((v) => Number.isNaN(v))) {
          expect(day.columns[c], `column ${DAY_COLUMNS[c]}`).toBeNull();
          continue;
        }
        // Bit for bit: NaN where it was, every value the same float32.
        expect(new Uint32Array((day.columns[c] as Float32Array).buffer), `column ${DAY_COLUMNS[c]}`).toEqual(new Uint32Array(col.buffer));
      }
      // Unpacking only some columns gives the same values for those, none for the rest.
      const some = decodeDay(encodeDay(slots, columns), new Set([0, 7]));
      expect(some.columns[7]).toEqual(day.columns[7]);
      expect(some.columns[8]).toBeNull();
    }
  });
});

const HOUR = 3600;

function reading(nodeId: number, ts: number, dt: number, seed: number): Sample {
  const r = (k: number) => hash01(seed, ts, k);
  const solar = Math.max(0, 4 * Math.sin((ts % 86400) / 13751) + r(1));
  const battery = (r(2) - 0.5) * 6;
  const house = 0.3 + r(3) * 2;
  return {
    nodeId,
    ts,
    dt,
    meter_p: house + battery - solar,
    meter_p_a: house + battery - solar,
    solar_p: solar,
    battery_p: battery,
    house_p: house,
    voltage: 236 + r(5) * 10,
    frequency: 49.95 + r(9) * 0.1,
    soc: r(12) * 100,
    remaining: r(12) * 9.6,
    curtailed_p: r(13) < 0.1 ? r(14) * 2 : 0,
  };
}

describeEachDatabase('compacted telemetry history', (h) => {
  const now = nowS();
  const end = now - (now % 300) - 2 * HOUR;
  const start = end - 3 * 86400;
  const zones = ['Australia/Sydney', 'Australia/Adelaide', 'Australia/Perth'];
  let nodes: number[];
  let submeter: number;
  const cols: MetricColumn[] = ['meter_p', 'solar_p', 'battery_p', 'voltage', 'soc', 'remaining'];

  beforeAll(async () => {
    const { db, telemetry } = h().ctx;
    const org = await h().org();
    nodes = await buildFleet(db, { count: 3, seed: 31, owners: { retailers: [org], networks: new Map(), installers: [] }, historyDays: 4 });
    for (const [i, id] of nodes.entries()) await db.updateTable('nodes').set({ timezone: zones[i] }).where('id', '=', id).execute();
    telemetry.invalidate();
    await telemetry.ensurePartitions(start - 86400, now + 86400);
    const samples: Sample[] = [];
    for (const [i, id] of nodes.entries()) {
      for (let ts = start; ts < end; ts += 300) {
        // Node 1 is silent for an afternoon; node 2 reports every 30 s for an hour of the first day.
        if (i === 1 && ts >= start + 30 * HOUR && ts < start + 34 * HOUR) continue;
        if (i === 2 && ts >= start + 5 * HOUR && ts < start + 6 * HOUR) {
          for (let t = ts; t < ts + 300; t += 30) samples.push(reading(id, t, 30, i));
          continue;
        }
        samples.push(reading(id, ts, 300, i));
      }
    }
    // A submeter on the Adelaide node, reporting every 5 minutes with the node.
    const [{ id: maxId }] = await db
      .selectFrom('submeters')
      .select((eb) => eb.fn.coalesce(eb.fn.max('id'), eb.lit(0)).as('id'))
      .execute();
    submeter = Number(maxId) + 1;
    await db.insertInto('submeters').values({ id: submeter, node_id: nodes[1], name: 'Pool pump' }).execute();
    const subs = [];
    for (let ts = start; ts < end; ts += 300) subs.push({ submeterId: submeter, ts, dt: 300, p: 0.5 + hash01(ts, 1, 7), q: hash01(ts, 2, 7) - 0.5 });
    await telemetry.ingest(samples, now, { submeters: subs });
  });

  /** Everything the console reads from a node's history, over the whole span. */
  async function snapshot() {
    const t = h().ctx.telemetry;
    const span: [number, number] = [start - 86400, end + 86400];
    const out: Record<string, unknown> = {};
    for (const node of nodes) {
      for (const interval of [300, 600, 3600, 86400]) out[`node ${node} at ${interval}`] = [...(await t.nodeSeries(node, cols, ...span, interval))];
      out[`energy of ${node}`] = await t.nodeEnergy(node, ...span);
    }
    // History rows hold integrals: compared as the averages they give (value / cov).
    out['history rows'] = (await t.historyRows(nodes, [...cols, 'import_e', 'export_e'], ...span)).map((r) =>
      Object.fromEntries(Object.entries(r).map(([k, v]) => [k, cols.includes(k as MetricColumn) && v !== null ? (v as number) / r.cov : v])),
    );
    for (const step of [300, 3600] as const) out[`sums at ${step}`] = [...(await t.historySums(nodes, cols, ...span, step))];
    out.curtailed = await t.curtailedEnergy(nodes, ...span);
    out.submeter = await t.submetersSeries([submeter], ...span);
    return out;
  }

  /** Equal but for float32 rounding (the compacted days keep each average as a 4-byte float). */
  function expectSame(after: unknown, before: unknown, path: string) {
    if (typeof before === 'number' && typeof after === 'number') {
      expect(Math.abs(after - before), `${path}: ${after} vs ${before}`).toBeLessThanOrEqual(1e-5 * Math.max(1, Math.abs(before)));
      return;
    }
    if (before === null || typeof before !== 'object') return expect(after, path).toEqual(before);
    expect(after, path).toBeTypeOf('object');
    const [a, b] = [after as Record<string, unknown>, before as Record<string, unknown>];
    expect(Object.keys(a).sort(), path).toEqual(Object.keys(b).sort());
    for (const k of Object.keys(b)) expectSame(a[k], b[k], `${path}.${k}`);
  }

  const count = async (table: 'tel_5m' | 'tel_day') =>
    Number((await sql<{ n: string }>`select count(*) as n from ${sql.table(table)} where node_id in (${sql.join(nodes)})`.execute(h().ctx.db)).rows[0].n);

  it('reads the same graphs, energies, sums and curtailed energy after compaction as before, every bucket in one place', async () => {
    const before = await snapshot();
    expect((before[`node ${nodes[0]} at 300`] as unknown[]).length).toBeGreaterThan(800);
    expect((before.curtailed as unknown[]).length).toBeGreaterThan(20);
    expect((before.submeter as unknown[]).length).toBe((end - start) / 300);
    const rows = await count('tel_5m');
    const done = await h().ctx.telemetry.compact(now);
    // Every node has two or three local days ended an hour ago (Perth's start later than Sydney's).
    expect(done.nodes).toBe(3);
    expect(done.days).toBeGreaterThanOrEqual(8);
    // A row per day and column group.
    expect(await count('tel_day')).toBe(done.days * DAY_GROUPS.length);
    // What stays as rows is the current local day of each node, nothing before its midnight.
    const left = await h()
      .ctx.db.selectFrom('tel_5m')
      .innerJoin('nodes', 'nodes.id', 'tel_5m.node_id')
      .select(['node_id', 'ts', 'timezone'])
      .where('node_id', 'in', nodes)
      .execute();
    expect(left.length).toBeGreaterThan(0);
    expect(left.length).toBeLessThan(rows / 2);
    for (const r of left) expect(Number(r.ts)).toBeGreaterThanOrEqual(localMidnight(r.timezone, now - HOUR));
    // The submeter's days too (its node's, Adelaide's): what is left are today's.
    const subLeft = await h().ctx.db.selectFrom('sub_5m').select('ts').where('submeter_id', '=', submeter).execute();
    expect(subLeft.length).toBeLessThan((end - start) / 300 / 2);
    for (const r of subLeft) expect(Number(r.ts)).toBeGreaterThanOrEqual(localMidnight('Australia/Adelaide', now - HOUR));
    expect(
      Number(
        (
          await h()
            .ctx.db.selectFrom('sub_day')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('submeter_id', '=', submeter)
            .executeTakeFirstOrThrow()
        ).n,
      ),
    ).toBeGreaterThanOrEqual(3);
    expectSame(await snapshot(), before, 'after compaction');
    // A second run finds nothing more to do.
    expect(await h().ctx.telemetry.compact(now)).toEqual({ nodes: 0, days: 0 });
  });

  it('adds readings that come late for a compacted day to it, and the next compaction folds them in', async () => {
    const { telemetry } = h().ctx;
    const node = nodes[1];
    // Node 1 was silent for an afternoon of a compacted day: one of those buckets arrives now.
    const bucket = start + 31 * HOUR;
    const late = reading(node, bucket, 300, 9);
    await telemetry.ingest([late], now);
    const expected = (c: 'meter_p' | 'voltage') => late[c] as number;
    const read = async () => (await telemetry.nodeSeries(node, ['meter_p', 'voltage'], bucket - 300, bucket + 600, 300)).get(bucket);
    // (PostgreSQL keeps the recent rows as 4-byte reals.)
    for (const c of ['meter_p', 'voltage'] as const) expect(Math.abs(((await read())?.[c] as number) - expected(c))).toBeLessThan(1e-6 * Math.abs(expected(c)));
    const done = await telemetry.compact(now);
    expect(done).toEqual({ nodes: 1, days: 1 });
    for (const c of ['meter_p', 'voltage'] as const) expect(Math.abs(((await read())?.[c] as number) - expected(c))).toBeLessThan(1e-5 * Math.abs(expected(c)));
    // A bucket that already held a reading adds a second one to it: the two averaged by their time.
    const full = start + 20 * HOUR;
    const before = (await telemetry.nodeSeries(node, ['meter_p'], full, full + 300, 300)).get(full)?.meter_p as number;
    const extra = reading(node, full, 300, 10);
    await telemetry.ingest([extra], now);
    const merged = (await telemetry.nodeSeries(node, ['meter_p'], full, full + 300, 300)).get(full)?.meter_p as number;
    expect(Math.abs(merged - (before + (extra.meter_p as number)) / 2)).toBeLessThan(1e-5);
    // A VPP's sums count the node once there, at the same average, with another node beside it.
    const other = (await telemetry.nodeSeries(nodes[0], ['meter_p'], full, full + 300, 300)).get(full)?.meter_p as number;
    const sums = (await telemetry.historySums([node, nodes[0]], ['meter_p'], full, full + 300, 300)).get(full);
    expect(sums?.nodes).toBe(2);
    expect(Math.abs((sums?.meter_p as number) - (merged + other))).toBeLessThan(1e-4);
    await telemetry.compact(now);
    const compacted = (await telemetry.nodeSeries(node, ['meter_p'], full, full + 300, 300)).get(full)?.meter_p as number;
    expect(Math.abs(compacted - merged)).toBeLessThan(1e-5 * Math.max(1, Math.abs(merged)));
  });

  it('reads the same through a cache of unpacked days, and unpacks a day again once a compaction has rewritten it', async () => {
    const { telemetry } = h().ctx;
    const span: [number, number] = [start, end];
    const plain = await telemetry.nodesSeries(nodes, cols, ...span, 300);
    expect(await telemetry.nodesSeries(nodes, cols, ...span, 300)).toEqual(plain);
    // Again from the cache: the same.
    expect(await telemetry.nodesSeries(nodes, cols, ...span, 300)).toEqual(plain);
    expect(await telemetry.nodesSeries(nodes, cols, ...span, 3600)).toEqual(await telemetry.nodesSeries(nodes, cols, ...span, 3600));
    // A bucket of node 1's silent afternoon arrives and is compacted into its day: the cached day is stale.
    const bucket = start + 32 * HOUR;
    const late = reading(nodes[1], bucket, 300, 11);
    await telemetry.ingest([late], now);
    await telemetry.compact(now);
    const point = (await telemetry.nodesSeries([nodes[1]], ['meter_p'], bucket, bucket + 300, 300))[0];
    expect(point.ts).toBe(bucket);
    expect(Math.abs((point.meter_p as number) - (late.meter_p as number))).toBeLessThan(1e-5);
  });

  it('upgrades an existing history in place from the hourly job, its progress in the log', async () => {
    const { db, telemetry } = h().ctx;
    const org = await h().org();
    const [node] = await buildFleet(db, { count: 1, seed: 32, owners: { retailers: [org], networks: new Map(), installers: [] }, historyDays: 4 });
    telemetry.invalidate();
    const readings: Sample[] = [];
    for (let ts = start; ts < end; ts += 300) readings.push(reading(node, ts, 300, 4));
    await telemetry.ingest(readings, now);
    const before = [...(await telemetry.nodeSeries(node, cols, start, end, 3600))];
    const lines: string[] = [];
    const log = { info: (m: object | string) => lines.push(String(m)), warn: () => undefined, error: () => undefined };
    await telemetryCompactJob.handler(h().ctx, { at: now }, { attempt: 1, runAt: now, log, progress: async () => undefined } as unknown as JobRun);
    expect(lines[0]).toBe('Compacting the telemetry history of 1 node');
    expect(lines.at(-1)).toMatch(/^Compacted the telemetry history: [34] node-days of 1 node$/);
    expectSame([...(await telemetry.nodeSeries(node, cols, start, end, 3600))], before, 'hourly graph after the upgrade');
  });

  it('tells a second run that joins a compaction under way its progress, and both log the work', async () => {
    const { db, telemetry } = h().ctx;
    const org = await h().org();
    const [node] = await buildFleet(db, { count: 1, seed: 33, owners: { retailers: [org], networks: new Map(), installers: [] }, historyDays: 4 });
    telemetry.invalidate();
    const readings: Sample[] = [];
    for (let ts = start; ts < end; ts += 300) readings.push(reading(node, ts, 300, 6));
    await telemetry.ingest(readings, now);
    const runOf = (lines: string[]) =>
      telemetryCompactJob.handler(h().ctx, { at: now }, {
        attempt: 1,
        runAt: now,
        log: { info: (m: object | string) => lines.push(String(m)), warn: () => undefined, error: () => undefined },
        progress: async () => undefined,
      } as unknown as JobRun);
    // Two due runs taken by two lanes of one worker: the second shares the first's compaction.
    const first: string[] = [];
    const second: string[] = [];
    await Promise.all([runOf(first), runOf(second)]);
    for (const lines of [first, second]) {
      expect(lines[0]).toBe('Compacting the telemetry history of 1 node');
      expect(lines.at(-1)).toMatch(/^Compacted the telemetry history: [34] node-days of 1 node$/);
    }
  });
});

describeEachDatabase('compacted Sydney days of a daylight-saving change', (h) => {
  it.each([
    ['October', '2025-10-05', 276],
    ['April', '2025-04-06', 300],
  ])('packs the %s day (%s) into %i buckets and reads the same graphs after', async (_, date, slots) => {
    const { db, telemetry } = h().ctx;
    const org = await h().org();
    const [node] = await buildFleet(db, { count: 1, seed: 41, owners: { retailers: [org], networks: new Map(), installers: [] }, historyDays: 0 });
    await db.updateTable('nodes').set({ timezone: 'Australia/Sydney' }).where('id', '=', node).execute();
    telemetry.invalidate();
    const day = localDateToEpoch(date, 'Australia/Sydney');
    const next = day + slots * 300;
    expect(localMidnight('Australia/Sydney', next)).toBe(next);
    await telemetry.ensurePartitions(day - 2 * 86400, next + 2 * 86400);
    const samples: Sample[] = [];
    for (let ts = day - HOUR; ts < next + HOUR; ts += 300) samples.push(reading(node, ts, 300, 5));
    await telemetry.ingest(samples, nowS());
    const cols: MetricColumn[] = ['meter_p', 'battery_p', 'voltage', 'soc'];
    const read = async () => ({
      five: [...(await telemetry.nodeSeries(node, cols, day - HOUR, next + HOUR, 300))],
      hours: [...(await telemetry.nodeSeries(node, cols, day, next, 3600))],
      days: [...(await telemetry.nodeSeries(node, cols, day, next, 86400))],
    });
    const before = await read();
    expect(before.hours).toHaveLength(slots / 12);
    expect(before.days.map(([ts]) => ts)).toEqual([day]);
    await telemetry.compact(nowS());
    const stored = await db.selectFrom('tel_day').select(['day', 'slots']).where('node_id', '=', node).where('day', '=', day).execute();
    expect(stored.length).toBeGreaterThan(0);
    for (const r of stored) expect(Number(r.slots)).toBe(slots);
    const after = await read();
    for (const k of ['five', 'hours', 'days'] as const) {
      expect(
        after[k].map(([ts]) => ts),
        k,
      ).toEqual(before[k].map(([ts]) => ts));
      for (const [i, [ts, p]] of before[k].entries()) {
        for (const c of cols) {
          const was = p[c] as number;
          expect(Math.abs((after[k][i][1][c] as number) - was), `${k} ${c} at ${ts}`).toBeLessThan(1e-5 * Math.max(1, Math.abs(was)));
        }
      }
    }
  });
});
