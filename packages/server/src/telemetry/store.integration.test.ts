import { hash01 } from '@vpp/fleet/random';
import { endOfPeriod, localBucketStart, startOfPeriod } from '@vpp/shared/time';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { nowS } from '../db/database.ts';
import { buildFleet } from '../demo/builder.ts';
import { claimJob, createWorker, enqueueJob, ensureRecurring } from '../platform/jobs.ts';
import { describeEachDatabase } from '../test/harness.ts';
import { waitFor } from '../test/wait.ts';
import { TELEMETRY_FOLD_RECURRING, telemetryFoldJob } from './fold.ts';
import { FLEET_COLUMNS, type FleetColumn, METRIC_COLUMNS, type MetricColumn, metricValues, type Sample } from './metrics.ts';
import { telemetryUpkeepJob } from './partitions.ts';

const SYDNEY = 'Australia/Sydney';
const HOUR = 3600;

/** A reading of a node at `ts` held for `dt` seconds: varied, signed like the spec says, one phase on node 0. */
function reading(nodeId: number, ts: number, dt: number, seed: number): Sample {
  const r = (k: number) => hash01(seed, ts, k);
  const solar = Math.max(0, 4 * Math.sin((ts % 86400) / 13751) + r(1));
  const battery = (r(2) - 0.5) * 6;
  const house = 0.3 + r(3) * 2;
  const meter = house + battery - solar;
  const threePhase = seed % 2 === 1;
  return {
    nodeId,
    ts,
    dt,
    meter_p: meter,
    meter_p_a: threePhase ? meter * 0.4 : meter,
    meter_p_b: threePhase ? meter * 0.35 : null,
    meter_p_c: threePhase ? meter * 0.25 : null,
    solar_p: solar,
    sga_p: solar + r(4),
    battery_p: battery,
    house_p: house,
    voltage: 236 + r(5) * 10,
    voltage_a: 236 + r(6) * 10,
    voltage_b: threePhase ? 236 + r(7) * 10 : null,
    voltage_c: threePhase ? 236 + r(8) * 10 : null,
    frequency: 49.95 + r(9) * 0.1,
    meter_q: r(10) - 0.5,
    solar_q: -r(11) * 0.3,
    current: Math.abs(meter) * 4.2,
    soc: r(12) * 100,
    remaining: r(12) * 9.6,
  };
}

/** 30-second readings of a node over [from, to), leaving out [gapFrom, gapTo). */
function readings(nodeId: number, from: number, to: number, seed: number, dt = 30, gap: [number, number] = [0, 0]): Sample[] {
  const out: Sample[] = [];
  for (let ts = from; ts < to; ts += dt) if (ts < gap[0] || ts >= gap[1]) out.push(reading(nodeId, ts, dt, seed));
  return out;
}

/** Time-weighted averages of samples per bucket, as a user would compute them from the raw readings. */
function averages(samples: Sample[], bucketOf: (ts: number) => number, cols: readonly MetricColumn[]) {
  const sums = new Map<number, { cov: number; v: Record<string, number | null> }>();
  for (const s of samples) {
    const b = bucketOf(s.ts);
    const acc = sums.get(b) ?? { cov: 0, v: Object.fromEntries(cols.map((c) => [c, null])) };
    acc.cov += s.dt;
    for (const c of cols) {
      const v = s[c];
      if (v !== null && v !== undefined) acc.v[c] = (acc.v[c] ?? 0) + v * s.dt;
    }
    sums.set(b, acc);
  }
  return new Map([...sums].map(([b, acc]) => [b, Object.fromEntries(cols.map((c) => [c, acc.v[c] === null ? null : (acc.v[c] as number) / acc.cov]))]));
}

/** kWh from power samples: import and export split by the sign of the grid meter. */
function energy(samples: Sample[]) {
  const e = { meterImport: 0, meterExport: 0, solarGeneration: 0, houseConsumption: 0 };
  for (const s of samples) {
    const h = s.dt / 3600;
    e.meterImport += Math.max(0, s.meter_p ?? 0) * h;
    e.meterExport += Math.max(0, -(s.meter_p ?? 0)) * h;
    e.solarGeneration += Math.max(0, s.solar_p ?? 0) * h;
    e.houseConsumption += Math.max(0, s.house_p ?? 0) * h;
  }
  return e;
}

/** Close enough for REAL columns (single precision on PostgreSQL). */
function expectClose(actual: number | null | undefined, expected: number | null, what: string) {
  if (expected === null) return expect(actual ?? null, what).toBeNull();
  expect(actual, what).not.toBeNull();
  expect(Math.abs((actual as number) - expected), `${what}: ${actual} vs ${expected}`).toBeLessThanOrEqual(1e-4 * Math.max(1, Math.abs(expected)));
}

function expectSeries(actual: Map<number, Record<string, number | null>>, expected: Map<number, Record<string, number | null>>, what: string) {
  expect([...actual.keys()], what).toEqual([...expected.keys()].sort((a, b) => a - b));
  for (const [ts, point] of expected) for (const [c, v] of Object.entries(point)) expectClose(actual.get(ts)?.[c], v, `${what} ${c} at ${ts}`);
}

it('reads a sample into the metric columns in their order, absent values as NaN', () => {
  const s = reading(1, 1_800_000_000, 30, 2);
  const out: number[] = [];
  metricValues({ ...s, sga_p: undefined }, out);
  expect(out).toEqual(METRIC_COLUMNS.map((c) => (c === 'sga_p' ? Number.NaN : (s[c] ?? Number.NaN))));
});

describeEachDatabase('telemetry store', (h) => {
  const end = Math.floor(nowS() / HOUR) * HOUR - HOUR;
  const start = end - 2 * HOUR;
  let org: number;
  let nodes: number[];
  let zones: Map<number, string>;
  let samples: Sample[];

  beforeAll(async () => {
    const { db, telemetry } = h().ctx;
    org = await h().org();
    const other = await h().org();
    const owners = { retailers: [org], networks: new Map<string, number>(), installers: [] };
    nodes = await buildFleet(db, { count: 7, seed: 11, owners, historyDays: 3 });
    // A node of another organisation reporting at the same times: never part of this fleet's sums.
    const [foreign] = await buildFleet(db, { count: 1, seed: 12, owners: { ...owners, retailers: [other] }, historyDays: 3 });
    // The daylight-saving and batch nodes keep Sydney's days.
    await db.updateTable('nodes').set({ timezone: SYDNEY }).where('id', 'in', nodes.slice(3)).execute();
    // A node on half-hour time (UTC+9:30 or +10:30): its hours start at half past the UTC hour.
    await db.updateTable('nodes').set({ timezone: 'Australia/Adelaide' }).where('id', '=', nodes[1]).execute();
    telemetry.invalidate();
    zones = new Map((await db.selectFrom('nodes').select(['id', 'timezone']).execute()).map((r) => [r.id, r.timezone]));
    samples = [
      ...readings(nodes[0], start, end, 1),
      ...readings(nodes[1], start, end, 2),
      // A node silent for ten minutes: its averages are of the time it reported.
      ...readings(nodes[2], start, end, 3, 30, [start + 40 * 60, start + 50 * 60]),
    ];
    await telemetry.ingest([...samples, ...readings(foreign, start, end, 4)]);
    // Their buckets have closed: the fold takes them into the history, as the reporting fleet's would.
    await telemetry.fold();
  });

  it('keeps the raw readings as they came', async () => {
    const raw = await h().ctx.telemetry.nodeSeries(nodes[0], METRIC_COLUMNS, start, end, 30);
    const mine = samples.filter((s) => s.nodeId === nodes[0]);
    expect(raw.size).toBe(mine.length);
    for (const s of mine) for (const c of METRIC_COLUMNS) expectClose(raw.get(s.ts)?.[c], s[c] ?? null, `${c} at ${s.ts}`);
  });

  it("answers 5-minute and hourly points that average the raw readings, in the node's local hours, nulls staying null", async () => {
    for (const node of nodes.slice(0, 3)) {
      const zone = zones.get(node) as string;
      const mine = samples.filter((s) => s.nodeId === node);
      for (const interval of [300, 3600]) {
        // Readings from an hour before `start`: the first local hour of a half-hour zone begins then.
        const series = await h().ctx.telemetry.nodeSeries(node, METRIC_COLUMNS, start - HOUR, end, interval);
        const bucketOf = (ts: number) => (interval === 3600 ? localBucketStart(ts, 3600, startOfPeriod(ts, 'day', zone)) : ts - (ts % 300));
        expectSeries(series, averages(mine, bucketOf, METRIC_COLUMNS), `node ${node} (${zone}) at ${interval} s`);
      }
    }
    // Adelaide's hours start at half past the UTC hour.
    const adelaide = await h().ctx.telemetry.nodeSeries(nodes[1], ['meter_p'], start - HOUR, end, 3600);
    expect([...adelaide.keys()].every((ts) => ts % 3600 === 1800)).toBe(true);
    // Ten silent minutes are two missing 5-minute points, and an hour averaged over the fifty that reported.
    expect((await h().ctx.telemetry.nodeSeries(nodes[2], ['meter_p'], start, end, 300)).size).toBe(22);
  });

  it('answers daily points for the local day of each node', async () => {
    for (const node of nodes.slice(0, 3)) {
      const zone = zones.get(node) as string;
      const mine = samples.filter((s) => s.nodeId === node);
      const dayStart = startOfPeriod(start, 'day', zone);
      const dayEnd = endOfPeriod(startOfPeriod(end - 1, 'day', zone), 'day', zone);
      const series = await h().ctx.telemetry.nodeSeries(node, METRIC_COLUMNS, dayStart, dayEnd, 86400);
      expectSeries(
        series,
        averages(mine, (ts) => startOfPeriod(ts, 'day', zone), METRIC_COLUMNS),
        `node ${node} (${zone}) daily`,
      );
    }
  });

  it('counts energy as power × time, import and export split by sign, in every rollup', async () => {
    for (const node of nodes.slice(0, 3)) {
      const zone = zones.get(node) as string;
      const expected = energy(samples.filter((s) => s.nodeId === node));
      expect(expected.meterImport).toBeGreaterThan(0);
      expect(expected.meterExport).toBeGreaterThan(0);
      const days: [number, number] = [startOfPeriod(start, 'day', zone), endOfPeriod(startOfPeriod(end - 1, 'day', zone), 'day', zone)];
      for (const [span, range] of [
        ['readings', [start, end]],
        ['hours around', [start - HOUR, end + HOUR]],
        ['local days', days],
      ] as const) {
        const e = await h().ctx.telemetry.nodeEnergy(node, range[0], range[1]);
        for (const k of Object.keys(expected) as (keyof typeof expected)[]) expectClose(e[k], expected[k], `node ${node} ${k} over the ${span}`);
      }
    }
  });

  it("sums the organisation's nodes, and only them, into the fleet series", async () => {
    const cols = FLEET_COLUMNS as readonly FleetColumn[];
    for (const interval of [300, 3600]) {
      const expected = new Map<number, Record<string, number>>();
      for (const s of samples) {
        const b = s.ts - (s.ts % interval);
        const point = expected.get(b) ?? Object.fromEntries(cols.map((c) => [c, 0]));
        // Each node adds its average power over the bucket.
        for (const c of cols) point[c] += ((s[c] ?? 0) * s.dt) / interval;
        expected.set(b, point);
      }
      expectSeries(await h().ctx.telemetry.fleetSeries(org, cols, start, end, interval, SYDNEY), expected, `fleet at ${interval} s`);
    }
    // A local day of the fleet is the mean of its 5-minute sums.
    const five = await h().ctx.telemetry.fleetSeries(org, cols, start, end, 300, SYDNEY);
    const days = new Map<number, { n: number; sum: number }>();
    for (const [ts, p] of five) {
      const d = days.get(startOfPeriod(ts, 'day', SYDNEY)) ?? { n: 0, sum: 0 };
      d.n++;
      d.sum += p.meter_p as number;
      days.set(startOfPeriod(ts, 'day', SYDNEY), d);
    }
    const daily = await h().ctx.telemetry.fleetSeries(org, ['meter_p'], start, end, 86400, SYDNEY);
    expect([...daily.keys()]).toEqual([...days.keys()]);
    for (const [day, d] of days) expectClose(daily.get(day)?.meter_p, d.sum / d.n, `fleet day ${day}`);

    // Two and a half minutes into a bucket, that bucket is not shown at a fraction of its power.
    const midway = start + HOUR + 150;
    const open = await h().ctx.telemetry.fleetSeries(org, cols, start, end, 300, SYDNEY, midway);
    expect(Math.max(...open.keys())).toBe(start + HOUR - 300);
    expect(open.get(start + HOUR - 300)).toEqual(five.get(start + HOUR - 300));
    // Nor, once it has closed, before the fold has moved its last readings in.
    const late = reading(nodes[0], start + HOUR - 30, 30, 77);
    await h().ctx.telemetry.ingest([late], midway);
    const unfolded = await h().ctx.telemetry.fleetSeries(org, cols, start, end, 300, SYDNEY, midway);
    expect(Math.max(...unfolded.keys())).toBe(start + HOUR - 600);
    await h().ctx.db.deleteFrom('tel_open').where('ts', '=', late.ts).execute();
    expect(Math.max(...(await h().ctx.telemetry.fleetSeries(org, cols, start, end, 300, SYDNEY, midway)).keys())).toBe(start + HOUR - 300);
  });

  it.each([
    ['October', Date.UTC(2025, 9, 5, 2) / 1000, 23],
    ['April', Date.UTC(2025, 3, 6, 3) / 1000, 25],
  ])('gives the Sydney day of the %s daylight-saving change %i hourly points and one daily point at local midnight', async (_, within, hours) => {
    const node = nodes[3];
    const dayStart = startOfPeriod(within, 'day', SYDNEY);
    const dayEnd = endOfPeriod(dayStart, 'day', SYDNEY);
    expect(dayEnd - dayStart).toBe(hours * HOUR);
    // 5-minute readings from an hour before the day to an hour after it.
    const all = readings(node, dayStart - HOUR, dayEnd + HOUR, 5, 300);
    await h().ctx.telemetry.ingest(all);
    const day = all.filter((s) => s.ts >= dayStart && s.ts < dayEnd);

    const hourly = await h().ctx.telemetry.nodeSeries(node, ['meter_p'], dayStart, dayEnd, 3600);
    expect(hourly.size).toBe(hours);
    expect([...hourly.keys()]).toEqual(Array.from({ length: hours }, (_, i) => dayStart + i * HOUR));

    const daily = await h().ctx.telemetry.nodeSeries(node, ['meter_p', 'house_p'], dayStart - 86400, dayEnd + 86400, 86400);
    expect([...daily.keys()]).toEqual([startOfPeriod(dayStart - 1, 'day', SYDNEY), dayStart, dayEnd]);
    const avg = averages(day, () => dayStart, ['meter_p', 'house_p']).get(dayStart);
    expectClose(daily.get(dayStart)?.meter_p, avg?.meter_p ?? null, 'daily meter power');
    expectClose(daily.get(dayStart)?.house_p, avg?.house_p ?? null, 'daily house power');

    const ofDay = await h().ctx.telemetry.nodeEnergy(node, dayStart, dayEnd);
    const expected = energy(day);
    for (const k of Object.keys(expected) as (keyof typeof expected)[]) expectClose(ofDay[k], expected[k], `${k} of the day`);
  });

  it('gives the same rollups whether readings arrive in one batch or in two, shuffled and out of order', async () => {
    const [one, two] = [nodes[4], nodes[5]];
    const from = start;
    const to = end;
    const batch = readings(one, from, to, 6);
    await h().ctx.telemetry.ingest(batch);
    await h().ctx.telemetry.fold();
    const same = batch.map((s) => ({ ...s, nodeId: two }));
    // Split in the middle of a 5-minute bucket; the later half arrives first.
    const cut = same.findIndex((s) => s.ts === from + HOUR + 150);
    const shuffled = (xs: Sample[]) =>
      xs
        .map((s, i) => ({ s, k: hash01(i, 99) }))
        .sort((a, b) => a.k - b.k)
        .map((x) => x.s);
    await h().ctx.telemetry.ingest(shuffled(same.slice(cut)));
    await h().ctx.telemetry.ingest(shuffled(same.slice(0, cut)));
    await h().ctx.telemetry.fold();

    for (const interval of [30, 300, 3600, 86400]) {
      const a = await h().ctx.telemetry.nodeSeries(one, METRIC_COLUMNS, from - 86400, to + 86400, interval);
      const b = await h().ctx.telemetry.nodeSeries(two, METRIC_COLUMNS, from - 86400, to + 86400, interval);
      expectSeries(b, a, `two batches at ${interval} s`);
    }
    for (const [a0, a1] of [
      [from, to],
      [from - 86400, to + 86400],
    ]) {
      const a = await h().ctx.telemetry.nodeEnergy(one, a0, a1);
      const b = await h().ctx.telemetry.nodeEnergy(two, a0, a1);
      for (const k of Object.keys(a) as (keyof typeof a)[]) expectClose(b[k], a[k], `${k} over [${a0}, ${a1})`);
    }
    // The latest value is the newest reading, not the last one to arrive.
    const latest = await h()
      .ctx.db.selectFrom('tel_latest')
      .select(['node_id', 'ts', 'meter_p'])
      .where('node_id', 'in', [one, two])
      .orderBy('node_id')
      .execute();
    const last = batch.at(-1) as Sample;
    expect(latest.map((r) => Number(r.ts))).toEqual([last.ts, last.ts]);
    for (const r of latest) expectClose(r.meter_p, last.meter_p ?? null, 'latest meter power');
  });

  it('keeps live readings open until their 5-minute bucket closes, then folds them into the same rollups', async () => {
    const { db, telemetry } = h().ctx;
    const node = nodes[6];
    // A bucket of its own, a day before the others' readings.
    const bucket = start - 86400;
    const live = readings(node, bucket, bucket + 300, 7);
    const fiveMinutes = async () =>
      (await db.selectFrom('tel_5m').select(['ts', 'cov']).where('node_id', '=', node).where('ts', '=', bucket).execute()).map((r) => ({
        ts: Number(r.ts),
        cov: r.cov,
      }));
    // Half the bucket, reported while it is open: the 30-second graph shows it, the rollups not yet.
    await telemetry.ingest(live.slice(0, 5), bucket + 150);
    expect(await fiveMinutes()).toEqual([]);
    expect([...(await telemetry.nodeSeries(node, ['meter_p'], bucket, bucket + 300, 30)).keys()]).toEqual(live.slice(0, 5).map((s) => s.ts));
    const [latest] = await db.selectFrom('tel_latest').select('ts').where('node_id', '=', node).execute();
    expect(Number(latest.ts)).toBe(bucket + 120);
    // The rest of the bucket: still open until a fold of the closed buckets, which a store that has
    // forgotten its nodes does reading their facts inside its own transaction.
    await telemetry.ingest(live.slice(5), bucket + 295);
    expect(await fiveMinutes()).toEqual([]);
    telemetry.invalidate();
    expect(await telemetry.fold(bucket + 300, bucket + 300)).toBe(10);
    expect(await fiveMinutes()).toEqual([{ ts: bucket, cov: 300 }]);
    const open = await db.selectFrom('tel_open').select('ts').where('node_id', '=', node).execute();
    expect(open).toEqual([]);
    const raw = await telemetry.nodeSeries(node, METRIC_COLUMNS, bucket, bucket + 300, 30);
    expect(raw.size).toBe(10);
    for (const s of live) for (const c of METRIC_COLUMNS) expectClose(raw.get(s.ts)?.[c], s[c] ?? null, `${c} at ${s.ts}`);
    for (const interval of [300, 3600]) {
      const zone = zones.get(node) as string;
      const bucketOf = (ts: number) => (interval === 3600 ? localBucketStart(ts, 3600, startOfPeriod(ts, 'day', zone)) : ts - (ts % 300));
      const series = await telemetry.nodeSeries(node, METRIC_COLUMNS, bucket, bucket + 300, interval);
      expectSeries(series, averages(live, bucketOf, METRIC_COLUMNS), `folded bucket at ${interval} s`);
    }
    const e = await telemetry.nodeEnergy(node, bucket, bucket + 300);
    const expected = energy(live);
    for (const k of Object.keys(expected) as (keyof typeof expected)[]) expectClose(e[k], expected[k], `${k} of the folded bucket`);

    // The next bucket's first reading stays open until a fold of the closed buckets takes it.
    await telemetry.ingest([reading(node, bucket + 300, 30, 7)], bucket + 300);
    expect(await telemetry.fold(bucket + 300, bucket + 330)).toBe(0);
    expect(await telemetry.fold(bucket + 600, bucket + 600)).toBe(1);
    const next = await db
      .selectFrom('tel_5m')
      .select('cov')
      .where('node_id', '=', node)
      .where('ts', '=', bucket + 300)
      .execute();
    expect(next).toEqual([{ cov: 30 }]);
  });

  it('folds each closed bucket once through the fold job shared by two workers, and takes over a fold whose worker died', async () => {
    const { db, telemetry } = h().ctx;
    const node = nodes[5];
    const kind = telemetryFoldJob.kind;
    // Buckets of their own, two days before the others' readings.
    const first = start - 2 * 86400;
    const fiveMinutes = async () =>
      (
        await db.selectFrom('tel_5m').select(['ts', 'cov']).where('node_id', '=', node).where('ts', '>=', first).where('ts', '<', start).orderBy('ts').execute()
      ).map((r) => ({ ts: Number(r.ts), cov: r.cov }));
    const open = async () => (await db.selectFrom('tel_open').select('ts').where('node_id', '=', node).where('ts', '<', start).execute()).length;
    const run = async (at: number) =>
      db.selectFrom('jobs').select(['status', 'attempts', 'locked_by']).where('unique_key', '=', `${kind}@${at}`).executeTakeFirstOrThrow();
    const workers = [1, 2].map(() => createWorker(h().ctx, [telemetryFoldJob], { concurrency: 2 }));

    // A bucket reported live, then the runs of the bucket that closed it and of the next, both due
    // (as after a pause): four lanes of two workers take them at once, each run once, and the
    // bucket's readings enter the history once, though both runs fold them.
    await telemetry.ingest(readings(node, first, first + 300, 9), first + 295);
    await ensureRecurring(db, TELEMETRY_FOLD_RECURRING, first + 305);
    await Promise.all(workers.map((w) => w.runUntilIdle()));
    for (const at of [first + 300, first + 600]) expect(await run(at)).toEqual({ status: 'done', attempts: 1, locked_by: null });
    expect(await fiveMinutes()).toEqual([{ ts: first, cov: 300 }]);
    expect(await open()).toBe(0);

    // The next bucket's run, claimed by a worker that then dies (a console killed mid-fold): its
    // readings stay open while the lease holds, and the other worker folds them once it runs out.
    const second = first + 600;
    await telemetry.ingest(readings(node, second, second + 300, 9), second + 295);
    await enqueueJob(db, telemetryFoldJob, { at: second + 300 }, { runAt: second + 300, uniqueKey: `${kind}@${second + 300}` });
    const claimed = await claimJob(h().ctx, 'killed-console', [kind], 1);
    expect(claimed?.payload).toBe(JSON.stringify({ at: second + 300 }));
    const [survivor] = workers;
    expect(await survivor.runUntilIdle()).toBe(0);
    expect(await open()).toBe(10);
    const { locked_until } = await db
      .selectFrom('jobs')
      .select('locked_until')
      .where('id', '=', claimed?.id as number)
      .executeTakeFirstOrThrow();
    await waitFor('the killed worker’s lease to run out', () => nowS() > Number(locked_until));
    expect(await survivor.runUntilIdle()).toBe(1);
    expect(await run(second + 300)).toEqual({ status: 'done', attempts: 2, locked_by: null });
    expect(await fiveMinutes()).toEqual([
      { ts: first, cov: 300 },
      { ts: second, cov: 300 },
    ]);
    expect(await open()).toBe(0);
  });

  it('folds again on a fresh snapshot when PostgreSQL refuses a fold that met another (could not serialize), and enters the bucket once', async (t) => {
    if (h().dialect !== 'postgres') t.skip();
    const { db, telemetry } = h().ctx;
    const node = nodes[6];
    // A bucket of its own, three days before the others' readings.
    const bucket = start - 3 * 86400;
    const live = readings(node, bucket, bucket + 300, 13);
    await telemetry.ingest(live, bucket + 295);
    const openBefore = sql<{ n: string }>`select count(*) as n from tel_open where ts < ${bucket + 300}`;
    // Nothing else is open before the bucket's end: the two folds below fold only these ten.
    expect(Number((await openBefore.execute(db)).rows[0].n)).toBe(10);
    const blockedBy = async (pid: number) =>
      (await sql<{ pid: number }>`select pid from pg_stat_activity where ${pid} = any(pg_blocking_pids(pid))`.execute(db)).rows.map((r) => r.pid);

    // Two folds of the same readings at once (two lanes, or two consoles, after a pause), ordered
    // by a third connection holding the open readings' rows locked: the first fold reads them and
    // writes the history, and waits at their removal; the second reads them on its own snapshot,
    // before the first commits, and waits at its first write behind the first's. The lock let go,
    // the first commits and PostgreSQL refuses the second's write (40001): it must fold again on a
    // fresh snapshot, where the readings are gone, and not fail nor add the bucket a second time.
    let first: Promise<number> | undefined;
    let second: Promise<number> | undefined;
    await db.transaction().execute(async (trx) => {
      const holder = (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx)).rows[0].pid;
      await sql`select ts from tel_open where node_id = ${node} for update`.execute(trx);
      first = telemetry.fold(bucket + 300, bucket + 300);
      const [folder] = await waitFor('the first fold waiting at the locked open readings', async () => {
        const pids = await blockedBy(holder);
        return pids.length ? pids : undefined;
      });
      second = telemetry.fold(bucket + 300, bucket + 300);
      await waitFor('the second fold waiting behind the first', async () => (await blockedBy(folder)).length > 0);
    });
    expect(await first).toBe(10);
    // Had it not folded again, the second would have failed with PostgreSQL's "could not serialize access".
    expect(await second).toBe(0);

    const fiveMinutes = await db.selectFrom('tel_5m').select(['ts', 'cov']).where('node_id', '=', node).where('ts', '=', bucket).execute();
    expect(fiveMinutes.map((r) => ({ ts: Number(r.ts), cov: r.cov }))).toEqual([{ ts: bucket, cov: 300 }]);
    expect(Number((await openBefore.execute(db)).rows[0].n)).toBe(0);
    const raw = await telemetry.nodeSeries(node, METRIC_COLUMNS, bucket, bucket + 300, 30);
    expect(raw.size).toBe(10);
    const series = await telemetry.nodeSeries(node, METRIC_COLUMNS, bucket, bucket + 300, 300);
    expectSeries(
      series,
      averages(live, (ts) => ts - (ts % 300), METRIC_COLUMNS),
      'the bucket folded once',
    );
  });

  describe('raw retention and time partitions', () => {
    let node: number;
    // Long before the fleet's history: a month no partition covers yet on PostgreSQL.
    const old = Math.floor((nowS() - 400 * 86400) / 300) * 300;

    beforeAll(async () => {
      const { db, telemetry } = h().ctx;
      const owner = await h().org();
      [node] = await buildFleet(db, { count: 1, seed: 21, owners: { retailers: [owner], networks: new Map(), installers: [] }, historyDays: 1 });
      telemetry.invalidate();
      // Readings sent while they were recent, so that raw keeps them.
      await telemetry.ingest(readings(node, old, old + 600, 5), old + 600);
      await telemetry.fold(old + 600, old + 600);
    });

    it('drops raw readings older than the retention, and keeps their rollups', async () => {
      const { telemetry } = h().ctx;
      expect((await telemetry.nodeSeries(node, ['meter_p'], old, old + 600, 30)).size).toBe(20);
      // Three days on (the retention), less a minute: every reading is still inside it.
      await telemetry.pruneRaw(old + 3 * 86400 - 60);
      expect((await telemetry.nodeSeries(node, ['meter_p'], old, old + 600, 30)).size).toBe(20);
      // The store's hourly upkeep job prunes them now.
      await enqueueJob(h().ctx.db, telemetryUpkeepJob, { at: nowS() });
      expect(await createWorker(h().ctx, [telemetryUpkeepJob]).runUntilIdle()).toBe(1);
      expect((await telemetry.nodeSeries(node, ['meter_p'], old, old + 600, 30)).size).toBe(0);
      expect((await telemetry.nodeSeries(node, ['meter_p'], old, old + 600, 300)).size).toBe(2);
    });

    it('keeps a month readable when it gets its own partition (PostgreSQL: moved out of the default one, attached)', async () => {
      const { db, telemetry } = h().ctx;
      const dialect = h().dialect;
      const tag = new Date(old * 1000).toISOString().slice(0, 7).replace('-', '_');
      const count = async (table: string) =>
        Number((await sql<{ n: string }>`select count(*) as n from ${sql.table(table)} where node_id = ${node}`.execute(db)).rows[0].n);
      if (dialect === 'postgres') expect(await count('tel_5m_default')).toBe(2);
      await telemetry.ensurePartitions(old, old + 1);
      expect((await telemetry.nodeSeries(node, ['meter_p'], old, old + 600, 300)).size).toBe(2);
      if (dialect !== 'postgres') return;
      const parts = await sql<{ name: string }>`
        select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid join pg_class p on p.oid = i.inhparent
        where p.relname = 'tel_5m' and p.relnamespace = current_schema()::regnamespace`.execute(db);
      expect(parts.rows.map((r) => r.name)).toContain(`tel_5m_${tag}`);
      expect(await count(`tel_5m_${tag}`)).toBe(2);
      expect(await count('tel_5m_default')).toBe(0);
    });
  });
});
