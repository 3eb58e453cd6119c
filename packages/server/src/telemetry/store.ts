import { type Database, type DialectName, nowS } from '../db/database.ts';
import { type CompactProgress, compactHistory } from './compact.ts';
import { type IngestExtras, TelemetryIngest } from './ingest.ts';
import type { FleetColumn, MetricColumn, Sample } from './metrics.ts';
import { ensurePartitions, pruneRaw } from './partitions.ts';
import * as read from './read.ts';

/**
 * The telemetry store, as the console and the fleet reach it: ingest (ingest.ts), reads
 * (read.ts, through Kysely on typed tables) and upkeep (partitions.ts, compact.ts).
 */
export class TelemetryStore {
  private readonly writer: TelemetryIngest;
  private compacting: Promise<{ nodes: number; days: number }> | null = null;

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
   * has passed), into the history and the rollups, in one transaction of its own; the sender of the
   * readings calls it once a report has closed a bucket. Returns the node readings folded.
   */
  fold(before?: number, now = nowS()): Promise<number> {
    return this.writer.fold(before ?? now - (now % 300), now);
  }

  nodeSeries(nodeId: number, cols: readonly MetricColumn[], start: number, end: number, interval: number) {
    return read.nodeSeries(this.db, nodeId, cols, start, end, interval);
  }

  /** Several nodes at a rollup interval, in (ts, node) order (exports). */
  nodesSeries(nodeIds: readonly number[], cols: readonly MetricColumn[], start: number, end: number, interval: number, cache?: read.DayCache) {
    return read.nodesSeries(this.db, nodeIds, cols, start, end, interval, cache);
  }

  /** Nodes' history run by run (a compacted day, a recent row), read in one snapshot per chunk of nodes (exports). */
  visitRuns(
    nodeIds: readonly number[],
    cols: readonly read.HistoryColumn[],
    start: number,
    end: number,
    visit: (run: read.HistoryRun) => void,
    cache?: read.DayCache,
  ) {
    return read.visitRuns(this.db, nodeIds, cols, start, end, visit, cache);
  }

  /** Nodes' 5-minute history as stored (integrals, energies, covered seconds), in (ts, node) order: the one read every other is built on. */
  historyRows(nodeIds: readonly number[], cols: readonly read.HistoryColumn[], start: number, end: number) {
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
    this.compacting ??= compactHistory(this.db, now, onProgress).finally(() => {
      this.compacting = null;
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
