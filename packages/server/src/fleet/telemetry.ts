import type { Database, DialectName } from '../db/database.ts';
import type { FleetColumn, MetricColumn, Sample } from './metrics.ts';
import { type IngestExtras, TelemetryIngest } from './telemetry/ingest.ts';
import { ensurePartitions, pruneRaw } from './telemetry/partitions.ts';
import * as read from './telemetry/read.ts';

/**
 * The telemetry store, as the console and the fleet reach it: ingest (telemetry/ingest.ts), reads
 * (telemetry/read.ts, through Kysely on typed tables) and upkeep (telemetry/partitions.ts).
 */
export class TelemetryStore {
  private readonly writer: TelemetryIngest;

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
   * Stores samples and brings every rollup up to date, in one transaction that also holds the
   * submeter readings and the `alongside` writes given in `extras`. Returns the samples stored.
   */
  ingest(samples: readonly Sample[], now?: number, extras?: IngestExtras): Promise<number> {
    return this.writer.ingest(samples, now, extras);
  }

  nodeSeries(nodeId: number, cols: readonly MetricColumn[], start: number, end: number, interval: number) {
    return read.nodeSeries(this.db, nodeId, cols, start, end, interval);
  }

  /** Several nodes at a rollup interval, in (ts, node) order (exports). */
  nodesSeries(nodeIds: readonly number[], cols: readonly MetricColumn[], start: number, end: number, interval: number) {
    return read.nodesSeries(this.db, nodeIds, cols, start, end, interval);
  }

  /** Several nodes' stored rollup rows (integrals and covered seconds), in (ts, node) order (exports). */
  nodesRollupRows(table: 'tel_5m' | 'tel_1h' | 'tel_1d', nodeIds: readonly number[], cols: readonly MetricColumn[], start: number, end: number) {
    return read.nodesRollupRows(this.db, table, nodeIds, cols, start, end);
  }

  nodeEnergy(nodeId: number, start: number, end: number, table: 'tel_5m' | 'tel_1h' | 'tel_1d') {
    return read.nodeEnergy(this.db, nodeId, start, end, table);
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
