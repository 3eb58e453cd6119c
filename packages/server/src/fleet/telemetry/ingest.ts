import { localBucketStart } from '@vpp/shared';
import { CompiledQuery, type Transaction } from 'kysely';
import { bulkWriter, type Database, type DialectName, nowS } from '../../db/database.ts';
import type { DB } from '../../db/schema.ts';
import { crashPoint } from '../../platform/crash-points.ts';
import { ENERGY_COLUMNS, FLEET_COLUMNS, METRIC_COLUMNS, metricValues, type Sample } from '../metrics.ts';
import { localMidnight } from '../physics.ts';

type Exec = Database | Transaction<DB>;

interface NodeInfo {
  timezone: string;
  orgs: number[];
}

/**
 * Rollup rows under construction, laid end to end in one array of doubles ready to bind: each row
 * is [key, ts, cov, ...time-weighted sums], NaN standing for null (SQLite binds NaN as NULL; the
 * PostgreSQL path converts it) so the array stays unboxed. Fed samples in (key, ts) order, a
 * bucket's samples arrive together, so a row is continued while its bucket lasts.
 */
class RollupRows {
  readonly flat: number[] = [];
  private key = Number.NaN;
  private bucket = Number.NaN;
  private at = -1;
  constructor(readonly width: number) {}

  /** Offset of the row for (key, bucket), started when the bucket changes. */
  row(key: number, bucket: number): number {
    if (key !== this.key || bucket !== this.bucket) {
      this.key = key;
      this.bucket = bucket;
      this.at = this.flat.length;
      this.flat.push(key, bucket, 0);
      for (let i = 0; i < this.width; i++) this.flat.push(Number.NaN);
    }
    return this.at;
  }

  /** Adds value × dt for each column, then the energies as they are (NaN, no value, stays NaN until a value arrives). */
  add(at: number, dt: number, values: readonly number[], energy?: readonly number[]) {
    const f = this.flat;
    f[at + 2] += dt;
    const n = values.length;
    for (let i = 0; i < n; i++) {
      const v = values[i];
      if (!Number.isNaN(v)) {
        const cur = f[at + 3 + i];
        f[at + 3 + i] = Number.isNaN(cur) ? v * dt : cur + v * dt;
      }
    }
    if (energy) {
      for (let i = 0; i < energy.length; i++) {
        const e = energy[i];
        if (Number.isNaN(e)) continue;
        const cur = f[at + 3 + n + i];
        f[at + 3 + n + i] = Number.isNaN(cur) ? e : cur + e;
      }
    }
  }
}

/** Organisation rollups: many nodes share a bucket, so rows are found through a map per organisation. */
class OrgRollupRows extends RollupRows {
  private readonly index = new Map<number, Map<number, number>>();
  constructor(
    width: number,
    private readonly bucketS: number,
  ) {
    super(width);
  }

  addSample(org: number, ts: number, dt: number, values: readonly number[]) {
    const bucket = ts - (ts % this.bucketS);
    let byBucket = this.index.get(org);
    if (!byBucket) {
      byBucket = new Map();
      this.index.set(org, byBucket);
    }
    const slot = bucket / this.bucketS;
    let at = byBucket.get(slot);
    if (at === undefined) {
      at = this.row(org, bucket);
      byBucket.set(slot, at);
    }
    this.add(at, dt, values);
  }
}

/** Where each fleet column sits among the metric values. */
const FLEET_VALUE_INDEX = FLEET_COLUMNS.map((c) => METRIC_COLUMNS.indexOf(c));

type UpsertMode = 'ignore' | 'add' | 'latest';

/**
 * What an upsert does with a row already there: raw readings are kept as first stored, rollups add
 * the new sums to theirs (null + x = x), the latest values are replaced by newer ones only.
 */
function conflictSql(table: string, cols: string[], mode: UpsertMode): string {
  const key = cols.slice(0, 2);
  const rest = cols.slice(2);
  if (mode === 'ignore') return `on conflict (${key.join(',')}) do nothing`;
  if (mode === 'latest')
    return `on conflict (node_id) do update set ${['ts', ...rest].map((c) => `${c} = excluded.${c}`).join(', ')} where excluded.ts >= ${table}.ts`;
  return `on conflict (${key.join(',')}) do update set ${rest.map((c) => `${c} = coalesce(${table}.${c} + excluded.${c}, ${table}.${c}, excluded.${c})`).join(', ')}`;
}

const bySample = (a: Sample, b: Sample) => a.nodeId - b.nodeId || a.ts - b.ts;

/** One submeter reading: power and reactive power over [ts, ts + dt). */
export interface SubmeterSample {
  submeterId: number;
  ts: number;
  dt: number;
  p: number;
  q: number;
}

/** What an ingest writes besides the node readings, in the same transaction. */
export interface IngestExtras {
  submeters?: readonly SubmeterSample[];
  /**
   * Further writes that must commit with the readings or not at all: the sender's position (the
   * simulator's state), so that a crash never leaves readings stored that the sender will send
   * again, which the rollups would add twice.
   */
  alongside?: (trx: Transaction<DB>) => Promise<void>;
}

function submeterRows(samples: readonly SubmeterSample[]): number[] {
  const sorted = [...samples].sort((a, b) => a.submeterId - b.submeterId || a.ts - b.ts);
  const rows = new RollupRows(2);
  for (const s of sorted) rows.add(rows.row(s.submeterId, s.ts - (s.ts % 300)), s.dt, [s.p, s.q]);
  return rows.flat;
}

/**
 * The write side of the telemetry store: raw samples, 5-minute, hourly and daily rollups per node
 * (days are the node's local days), 5-minute and hourly sums per organisation fleet, and the latest
 * values, all kept current by every ingest in one transaction. The hot path binds plain arrays of
 * doubles: SQLite through multi-row VALUES, PostgreSQL through unnest.
 */
export class TelemetryIngest {
  private readonly nodes = new Map<number, NodeInfo>();
  private readonly sqlCache = new Map<string, string>();

  constructor(
    private readonly db: Database,
    private readonly dialect: DialectName,
    private readonly rawRetentionS: number,
  ) {}

  /** Forgets cached node facts (time zone, fleets) after nodes change. */
  invalidate(nodeId?: number) {
    if (nodeId === undefined) this.nodes.clear();
    else this.nodes.delete(nodeId);
  }

  private async nodeInfo(ids: Iterable<number>): Promise<Map<number, NodeInfo>> {
    const missing = [...new Set(ids)].filter((id) => !this.nodes.has(id));
    for (let i = 0; i < missing.length; i += 5000) {
      const chunk = missing.slice(i, i + 5000);
      const rows = await this.db.selectFrom('nodes').select(['id', 'timezone']).where('id', 'in', chunk).execute();
      for (const r of rows) this.nodes.set(r.id, { timezone: r.timezone, orgs: [] });
      const members = await this.db.selectFrom('fleet_members').select(['node_id', 'organisation_id']).where('node_id', 'in', chunk).execute();
      for (const m of members) this.nodes.get(m.node_id)?.orgs.push(m.organisation_id);
    }
    return this.nodes;
  }

  /**
   * Stores samples (and submeter readings) and brings every rollup up to date, in one transaction,
   * with `alongside` run in it last. Returns the samples stored.
   */
  async ingest(samples: readonly Sample[], now = nowS(), extras: IngestExtras = {}): Promise<number> {
    const { submeters = [], alongside } = extras;
    if (!samples.length && !submeters.length && !alongside) return 0;
    let ordered = true;
    for (let i = 1; i < samples.length && ordered; i++) ordered = bySample(samples[i - 1], samples[i]) <= 0;
    const sorted = ordered ? samples : [...samples].sort(bySample);
    const info = await this.nodeInfo(sorted.map((s) => s.nodeId));
    const metricCount = METRIC_COLUMNS.length;
    const rollupWidth = metricCount + ENERGY_COLUMNS.length;
    const raw: number[] = [];
    const latest: number[] = [];
    const r5 = new RollupRows(rollupWidth);
    const r1h = new RollupRows(rollupWidth);
    const r1d = new RollupRows(rollupWidth);
    const o5 = new OrgRollupRows(FLEET_COLUMNS.length, 300);
    const o1h = new OrgRollupRows(FLEET_COLUMNS.length, 3600);
    const rawFrom = now - this.rawRetentionS;
    const values: number[] = new Array(metricCount).fill(Number.NaN);
    const fleetValues: number[] = new Array(FLEET_COLUMNS.length).fill(Number.NaN);
    const energy = [0, 0, 0, 0, Number.NaN];
    let stored = 0;
    // The current node's local day, [dayStart, dayEnd): most samples fall in the day of the one before.
    let dayNode = -1;
    let dayStart = 0;
    let dayEnd = 0;
    for (let k = 0; k < sorted.length; k++) {
      const s = sorted[k];
      const node = info.get(s.nodeId);
      if (!node) continue;
      stored++;
      metricValues(s, values);
      // Raw keeps readings finer than the 5-minute rollup (live reports); a 5-minute reading is its own rollup row.
      if (s.ts >= rawFrom && s.dt < 300) raw.push(s.nodeId, s.ts, s.dt, ...values);
      const h = s.dt / 3600;
      const meter = s.meter_p ?? 0;
      energy[0] = Math.max(0, meter) * h;
      energy[1] = Math.max(0, -meter) * h;
      energy[2] = Math.max(0, s.solar_p ?? 0) * h;
      energy[3] = Math.max(0, s.house_p ?? 0) * h;
      // None held back is no value (null), not 0: the column stays empty but for curtailments.
      const curtailed = s.curtailed_p ?? 0;
      energy[4] = curtailed > 0 ? curtailed * h : Number.NaN;
      r5.add(r5.row(s.nodeId, s.ts - (s.ts % 300)), s.dt, values, energy);
      if (s.nodeId !== dayNode || s.ts < dayStart || s.ts >= dayEnd) {
        dayNode = s.nodeId;
        dayStart = localMidnight(node.timezone, s.ts);
        // 26 hours on is inside the next local day, even after a 25-hour day.
        dayEnd = localMidnight(node.timezone, dayStart + 26 * 3600);
      }
      // The node's local hours (half past the UTC hour in Adelaide and Darwin), so weeks add up.
      r1h.add(r1h.row(s.nodeId, localBucketStart(s.ts, 3600, dayStart)), s.dt, values, energy);
      r1d.add(r1d.row(s.nodeId, dayStart), s.dt, values, energy);
      if (node.orgs.length) {
        for (let i = 0; i < FLEET_COLUMNS.length; i++) fleetValues[i] = values[FLEET_VALUE_INDEX[i]];
        for (const org of node.orgs) {
          o5.addSample(org, s.ts, s.dt, fleetValues);
          o1h.addSample(org, s.ts, s.dt, fleetValues);
        }
      }
      // In (node, ts) order the node's last sample is its latest.
      if (k === sorted.length - 1 || sorted[k + 1].nodeId !== s.nodeId) latest.push(s.nodeId, s.ts, ...values);
    }
    const rollupCols = [...METRIC_COLUMNS, ...ENERGY_COLUMNS];
    await this.db.transaction().execute(async (trx) => {
      // Telemetry can be sent again: on PostgreSQL its commits need not wait for the WAL flush (a
      // database crash loses at most the last fraction of a second of readings, and the sender's
      // position with them, so they are sent again: never consistency).
      if (this.dialect === 'postgres') await trx.executeQuery(CompiledQuery.raw('set local synchronous_commit = off'));
      await this.write(trx, 'tel_raw', ['node_id', 'ts', 'dt', ...METRIC_COLUMNS], raw, 'ignore');
      await this.write(trx, 'tel_5m', ['node_id', 'ts', 'cov', ...rollupCols], r5.flat, 'add');
      await this.write(trx, 'tel_1h', ['node_id', 'ts', 'cov', ...rollupCols], r1h.flat, 'add');
      await this.write(trx, 'tel_1d', ['node_id', 'ts', 'cov', ...rollupCols], r1d.flat, 'add');
      await this.write(trx, 'org_5m', ['organisation_id', 'ts', 'cov', ...FLEET_COLUMNS], o5.flat, 'add');
      await this.write(trx, 'org_1h', ['organisation_id', 'ts', 'cov', ...FLEET_COLUMNS], o1h.flat, 'add');
      await this.write(trx, 'tel_latest', ['node_id', 'ts', ...METRIC_COLUMNS], latest, 'latest');
      await this.write(trx, 'sub_5m', ['submeter_id', 'ts', 'cov', 'p', 'q'], submeterRows(submeters), 'add');
      // Rollups add what they are given: a batch counted here must not be sent again, so the
      // sender's record of what it has sent commits with it.
      crashPoint('telemetry-write');
      if (alongside) await alongside(trx);
    });
    return stored;
  }

  /**
   * Upserts rows laid end to end. SQLite: multi-row VALUES statements bound straight on the
   * connection. PostgreSQL: one array per column through unnest, which pg sends as a handful of
   * parameters instead of thousands. SQL texts are built once per shape.
   */
  private async write(trx: Exec, table: string, cols: string[], flat: readonly number[], mode: UpsertMode) {
    const width = cols.length;
    if (!flat.length) return;
    if (this.dialect === 'postgres') {
      const perChunk = 20_000 * width;
      const text = this.cachedSql(`${table}|unnest|${mode}`, () => {
        const arrays = cols.map((c, i) => `$${i + 1}::${i === 0 ? 'integer' : c === 'ts' ? 'bigint' : 'real'}[]`);
        return `insert into ${table} (${cols.join(',')}) select * from unnest(${arrays.join(',')}) ${conflictSql(table, cols, mode)}`;
      });
      for (let i = 0; i < flat.length; i += perChunk) {
        const n = Math.min(perChunk, flat.length - i) / width;
        // NaN is how the rows say null.
        const columns = cols.map((_, c) => {
          const out: (number | null)[] = new Array(n);
          for (let r = 0; r < n; r++) {
            const v = flat[i + r * width + c];
            out[r] = Number.isNaN(v) ? null : v;
          }
          return out;
        });
        await trx.executeQuery(CompiledQuery.raw(text, columns));
      }
      return;
    }
    const bulk = bulkWriter(this.db);
    if (!bulk) throw new Error('The SQLite connection is not open');
    const perChunk = Math.max(1, Math.floor(4_000 / width)) * width;
    for (let i = 0; i < flat.length; i += perChunk) {
      const chunk = flat.slice(i, i + perChunk);
      const n = chunk.length / width;
      const text = this.cachedSql(`${table}|${n}|${mode}`, () => {
        const tuple = `(${cols.map(() => '?').join(',')})`;
        return `insert into ${table} (${cols.join(',')}) values ${new Array(n).fill(tuple).join(',')} ${conflictSql(table, cols, mode)}`;
      });
      // SQLite binds NaN as NULL.
      bulk(text, chunk);
    }
  }

  private cachedSql(key: string, build: () => string): string {
    let text = this.sqlCache.get(key);
    if (!text) {
      text = build();
      if (this.sqlCache.size > 200) this.sqlCache.clear();
      this.sqlCache.set(key, text);
    }
    return text;
  }
}
