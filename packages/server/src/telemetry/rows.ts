import { ENERGY_COLUMNS, FLEET_COLUMNS, METRIC_COLUMNS, metricValues, type Sample } from './metrics.ts';

/** What the history rows of a node need to know about it. */
export interface NodeInfo {
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

/**
 * The rows a batch of node readings adds to the history, each table's laid end to end (see
 * RollupRows): raw readings finer than 5 minutes, node rollups of 5 minutes (hours and days are
 * added up from them when read), organisation rollups of 5 minutes and hours.
 */
export interface HistoryRows {
  raw: number[];
  r5: number[];
  o5: number[];
  o1h: number[];
  /** Readings of nodes the store knows (the others are dropped). */
  stored: number;
}

/** Where the energies' powers sit among the metric values. */
const METER = METRIC_COLUMNS.indexOf('meter_p');
const SOLAR = METRIC_COLUMNS.indexOf('solar_p');
const HOUSE = METRIC_COLUMNS.indexOf('house_p');

/**
 * Builds the history rows of readings added in (node, ts) order: raw keeps readings finer than the
 * 5-minute rollup from `rawFrom` on (a 5-minute reading is its own rollup row); every rollup adds
 * the time-weighted sums and the energies. Readings of nodes missing from `info` are left out.
 */
export class HistoryBuilder {
  private readonly raw: number[] = [];
  private readonly r5 = new RollupRows(METRIC_COLUMNS.length + ENERGY_COLUMNS.length);
  private readonly o5 = new OrgRollupRows(FLEET_COLUMNS.length, 300);
  private readonly o1h = new OrgRollupRows(FLEET_COLUMNS.length, 3600);
  private readonly fleetValues: number[] = new Array(FLEET_COLUMNS.length).fill(Number.NaN);
  private readonly energy = [0, 0, 0, 0, Number.NaN];
  private stored = 0;

  constructor(
    private readonly info: ReadonlyMap<number, NodeInfo>,
    private readonly rawFrom: number,
  ) {}

  /** One reading: its values in METRIC_COLUMNS order (NaN where absent) and the solar curtailed (kW, NaN: none). */
  add(nodeId: number, ts: number, dt: number, values: readonly number[], curtailedP: number) {
    const node = this.info.get(nodeId);
    if (!node) return;
    this.stored++;
    if (ts >= this.rawFrom && dt < 300) this.raw.push(nodeId, ts, dt, ...values);
    const energy = this.energy;
    const h = dt / 3600;
    const meter = Number.isNaN(values[METER]) ? 0 : values[METER];
    energy[0] = Math.max(0, meter) * h;
    energy[1] = Math.max(0, -meter) * h;
    energy[2] = Math.max(0, Number.isNaN(values[SOLAR]) ? 0 : values[SOLAR]) * h;
    energy[3] = Math.max(0, Number.isNaN(values[HOUSE]) ? 0 : values[HOUSE]) * h;
    // None held back is no value (null), not 0: the column stays empty but for curtailments.
    energy[4] = curtailedP > 0 ? curtailedP * h : Number.NaN;
    this.r5.add(this.r5.row(nodeId, ts - (ts % 300)), dt, values, energy);
    if (node.orgs.length) {
      const fleetValues = this.fleetValues;
      for (let i = 0; i < FLEET_COLUMNS.length; i++) fleetValues[i] = values[FLEET_VALUE_INDEX[i]];
      for (const org of node.orgs) {
        this.o5.addSample(org, ts, dt, fleetValues);
        this.o1h.addSample(org, ts, dt, fleetValues);
      }
    }
  }

  rows(): HistoryRows {
    return { raw: this.raw, r5: this.r5.flat, o5: this.o5.flat, o1h: this.o1h.flat, stored: this.stored };
  }
}

/** The history rows of samples given in (node, ts) order (see HistoryBuilder). */
export function historyRows(sorted: readonly Sample[], info: ReadonlyMap<number, NodeInfo>, rawFrom: number): HistoryRows {
  const builder = new HistoryBuilder(info, rawFrom);
  const values: number[] = new Array(METRIC_COLUMNS.length).fill(Number.NaN);
  for (const s of sorted) {
    metricValues(s, values);
    builder.add(s.nodeId, s.ts, s.dt, values, s.curtailed_p ?? Number.NaN);
  }
  return builder.rows();
}

/** One submeter reading: power and reactive power over [ts, ts + dt). */
export interface SubmeterSample {
  submeterId: number;
  ts: number;
  dt: number;
  p: number;
  q: number;
}

/** The 5-minute submeter rollup rows of readings in any order. */
export function submeterRows(samples: readonly SubmeterSample[]): number[] {
  const sorted = [...samples].sort((a, b) => a.submeterId - b.submeterId || a.ts - b.ts);
  const rows = new RollupRows(2);
  for (const s of sorted) rows.add(rows.row(s.submeterId, s.ts - (s.ts % 300)), s.dt, [s.p, s.q]);
  return rows.flat;
}
