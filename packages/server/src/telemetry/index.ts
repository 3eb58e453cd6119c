/**
 * The telemetry store: every reading of every node, kept in the console's database (SQLite or
 * PostgreSQL), behind this one face. Tables (epoch seconds, UTC; power kW, energy kWh):
 *
 * - tel_open, sub_open: live readings (shorter than 5 minutes) whose 5-minute bucket is still open;
 *   a fold moves them into the history once it closes (the 5-minute fold job, fold.ts: once per bucket
 *   across all console processes). tel_latest: each node's latest values.
 * - tel_raw: the raw samples, kept TELEMETRY_RAW_RETENTION_DAYS (30-second graphs).
 * - tel_5m, sub_5m: the recent 5-minute history, a row per node (submeter) and bucket: each metric's
 *   time integral (value × seconds), the energies, and `cov`, the seconds of data in the bucket.
 * - tel_day, sub_day: the 5-minute history of local days that have ended, compacted (codec.ts):
 *   a row per node, local day and column group (sub_day: per submeter and day), the day's buckets
 *   as float32 averages and energies packed with zstd. Format version 1 (the first byte of `data`).
 *   The hourly upkeep job (compact.ts, this store's own module) moves tel_5m rows in an hour after
 *   their node's local day ends; a late reading for a compacted day waits in tel_5m until the next run.
 * - org_5m, org_1h: per organisation, the sums over its nodes of the fleet columns' integrals.
 *
 * One read path (stream.ts) yields the history as one stream of 5-minute buckets, a bucket in both
 * tel_day and tel_5m added up into one; graphs at 5 minutes, local hours and days, VPP sums, energies,
 * bills and exports are all added up from it (read.ts), through one cache of unpacked days.
 *
 * Exact, as stored: the raw samples and the recent rows' integrals, energies and seconds (8-byte
 * reals on SQLite, 4-byte on PostgreSQL). Every average is sum(value × seconds) / sum(seconds) over
 * whole 5-minute buckets, so a missing reading shortens its bucket rather than counting as zero.
 * Approximate: a compacted day holds float32 averages and energies (about 7 significant digits; the
 * columns stored against a prediction lose nothing more); the fleet's series divide an organisation's
 * sums by the bucket's length (a node silent for part of a bucket counts as zero there), and a local
 * day of the fleet's graph averages its 5-minute points.
 */

import { type Database, type DialectName, nowS } from '../db/database.ts';
import type { FeatureModule } from '../platform/module.ts';
import { type CompactProgress, compactHistory, TELEMETRY_COMPACT_RECURRING, telemetryCompactJob } from './compact.ts';
import { TELEMETRY_FOLD_RECURRING, telemetryFoldJob } from './fold.ts';
import { type IngestExtras, TelemetryIngest } from './ingest.ts';
import type { FleetColumn, MetricColumn, Sample } from './metrics.ts';
import { ensurePartitions, pruneRaw, TELEMETRY_UPKEEP_RECURRING, telemetryUpkeepJob } from './partitions.ts';
import * as read from './read.ts';
import { type BucketVisitor, type HistoryColumn, readBuckets } from './stream.ts';

export { decodeDay } from './codec.ts';
export { TELEMETRY_FOLD_RECURRING, telemetryFoldJob } from './fold.ts';
export {
  ENERGY_COLUMNS,
  type EnergyColumn,
  FLEET_COLUMNS,
  FLEET_METRIC_TO_COLUMN,
  type FleetColumn,
  METRIC_COLUMNS,
  METRIC_TO_COLUMN,
  type MetricColumn,
  metricValues,
  type Sample,
} from './metrics.ts';
export { type BucketSums, type HistoryRow, nodeSeries } from './read.ts';
export type { SubmeterSample } from './rows.ts';
export { bucketTimes, buildSeries, roundValue, type Series, type SeriesPoint, submeterBuckets, submeterMeans } from './series.ts';
export type { BucketVisitor, HistoryColumn } from './stream.ts';

/**
 * The store's own upkeep, recurring jobs: it folds each closed 5-minute bucket, and every hour prunes
 * the raw readings, makes the coming partitions and compacts the ended days of the history.
 */
export const telemetryModule: FeatureModule = {
  name: 'telemetry',
  jobs: [telemetryFoldJob, telemetryUpkeepJob, telemetryCompactJob],
  recurring: [TELEMETRY_FOLD_RECURRING, TELEMETRY_UPKEEP_RECURRING, TELEMETRY_COMPACT_RECURRING],
};

/** The telemetry store, as the console and the fleet reach it: ingest, reads, upkeep. */
export class TelemetryStore {
  private readonly writer: TelemetryIngest;
  private compacting: Promise<{ nodes: number; days: number }> | null = null;
  private compactProgress: CompactProgress | null = null;
  private readonly compactListeners = new Set<(p: CompactProgress) => void>();

  constructor(
    private readonly db: Database,
    private readonly dialect: DialectName,
    private readonly rawRetentionS: number,
  ) {
    this.writer = new TelemetryIngest(db, dialect, rawRetentionS);
  }

  /** Forgets cached node facts (time zone, fleets) after nodes change. */
  invalidate(nodeId?: number) {
    this.writer.invalidate(nodeId);
  }

  /**
   * Stores samples, with the submeter readings and the `alongside` writes given in `extras`, in one
   * transaction: live readings (shorter than 5 minutes) wait in the open tables until a fold, longer
   * ones go straight into the history and the rollups. Returns the samples stored.
   */
  ingest(samples: readonly Sample[], now?: number, extras?: IngestExtras): Promise<number> {
    return this.writer.ingest(samples, now, extras);
  }

  /**
   * Folds the open readings before `before`, a 5-minute boundary (by default the last one the clock
   * has passed), into the history and the rollups, in transactions of its own; the fold job
   * (telemetryFoldJob) calls it once per closed bucket, the simulator once its report has closed one.
   * Returns the node readings folded.
   */
  fold(before?: number, now = nowS()): Promise<number> {
    return this.writer.fold(before ?? now - (now % 300), now);
  }

  nodeSeries(nodeId: number, cols: readonly MetricColumn[], start: number, end: number, interval: number) {
    return read.nodeSeries(this.db, nodeId, cols, start, end, interval);
  }

  /** Several nodes at a rollup interval, in (ts, node) order. */
  nodesSeries(nodeIds: readonly number[], cols: readonly MetricColumn[], start: number, end: number, interval: number) {
    return read.nodesSeries(this.db, nodeIds, cols, start, end, interval);
  }

  /**
   * The nodes' 5-minute history over [start, end) as the one stream every read is built on: each
   * bucket with data once, node by node and in time order within a node (stream.ts, readBuckets).
   */
  buckets(nodeIds: readonly number[], cols: readonly HistoryColumn[], start: number, end: number, visit: BucketVisitor) {
    return readBuckets(this.db, { of: 'nodes', cols }, nodeIds, start, end, visit);
  }

  /** Nodes' 5-minute history (integrals, energies, covered seconds), in (ts, node) order. */
  historyRows(nodeIds: readonly number[], cols: readonly HistoryColumn[], start: number, end: number) {
    return read.historyRows(this.db, nodeIds, cols, start, end);
  }

  /** At each 5-minute bucket or UTC hour, the sum over nodes of each metric's average, and the nodes with data. */
  historySums(nodeIds: readonly number[], cols: readonly MetricColumn[], start: number, end: number, step: 300 | 3600) {
    return read.historySums(this.db, nodeIds, cols, start, end, step);
  }

  nodeEnergy(nodeId: number, start: number, end: number) {
    return read.nodeEnergy(this.db, nodeId, start, end);
  }

  /**
   * Packs the recent 5-minute rows of local days that have ended into compacted days (at start, so
   * an existing database upgrades in place, and every hour). One run at a time in this process.
   */
  compact(now?: number, onProgress?: (p: CompactProgress) => void) {
    // A caller that joins a run under way is told its progress too, from the latest figure on.
    if (onProgress) {
      this.compactListeners.add(onProgress);
      if (this.compactProgress) onProgress(this.compactProgress);
    }
    this.compacting ??= compactHistory(this.db, now, (p) => {
      this.compactProgress = p;
      for (const f of this.compactListeners) f(p);
    }).finally(() => {
      this.compacting = null;
      this.compactProgress = null;
      this.compactListeners.clear();
    });
    return this.compacting;
  }

  fleetSeries(orgId: number, cols: readonly FleetColumn[], start: number, end: number, interval: number, zone: string, now?: number) {
    return read.fleetSeries(this.db, orgId, cols, start, end, interval, zone, now);
  }

  /** Solar held back by export limits (kWh) per node and 5-minute bucket over [start, end), where there was any. */
  curtailedEnergy(nodeIds: readonly number[], start: number, end: number) {
    return read.curtailedEnergy(this.db, nodeIds, start, end);
  }

  submeterSeries(submeterId: number, start: number, end: number) {
    return read.submeterSeries(this.db, submeterId, start, end);
  }

  submetersSeries(submeterIds: readonly number[], start: number, end: number) {
    return read.submetersSeries(this.db, submeterIds, start, end);
  }

  /** Deletes raw samples older than the retention period. */
  pruneRaw(now?: number) {
    return pruneRaw(this.db, this.rawRetentionS, now);
  }

  /** On PostgreSQL, monthly partitions of the raw and 5-minute tables covering [from, to); nothing on SQLite. */
  async ensurePartitions(from: number, to: number) {
    if (this.dialect === 'postgres') await ensurePartitions(this.db, from, to);
  }
}
