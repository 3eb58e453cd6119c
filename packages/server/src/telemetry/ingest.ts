import { CompiledQuery, type Transaction } from 'kysely';
import { bulkWriter, type Database, type DialectName, isSerializationConflict, nowS } from '../db/database.ts';
import type { DB } from '../db/schema.ts';
import { crashPoint } from '../platform/crash-points.ts';
import { closeOpenReadings, closeOpenSubmeterReadings, nextOpenNode, OPEN_COLUMNS, openReadings, openSubmeterReadings } from './fold.ts';
import { ENERGY_COLUMNS, FLEET_COLUMNS, METRIC_COLUMNS, metricValues, type Sample } from './metrics.ts';
import { conflictSql, pgUpsert, type UpsertMode } from './pg-write.ts';
import { HistoryBuilder, type HistoryRows, historyRows, type NodeInfo, type SubmeterSample, submeterRows } from './rows.ts';

export type { SubmeterSample } from './rows.ts';

type Exec = Database | Transaction<DB>;

const bySample = (a: Sample, b: Sample) => a.nodeId - b.nodeId || a.ts - b.ts;

/** Readings shorter than this are live: they wait in the open tables until their bucket closes. */
const LIVE_BELOW_S = 300;

/** Nodes per transaction of a fold: about a tenth of a second of writes each, so other requests wait no longer. */
const FOLD_NODES = 500;
/** Tries of a fold's transaction refused for another fold of the same readings (the third finds them folded). */
const FOLD_ATTEMPTS = 3;

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

const ROLLUP_COLS = [...METRIC_COLUMNS, ...ENERGY_COLUMNS];

/**
 * The write side of the telemetry store. A report of live readings (shorter than 5 minutes) appends
 * them to the open tables (tel_open, sub_open: keyed by time) and updates the latest values, nothing
 * else; a fold later moves the open readings of closed 5-minute buckets into the history: raw
 * samples, the 5-minute rollups per node (the recent rows, until compact.ts packs their day), 5-minute
 * and hourly sums per organisation fleet, submeter 5-minute rollups, and deletes them from the open
 * tables, in one transaction. Readings of 5 minutes or more (the backfill) go straight into the
 * history, as the fold would add them. The hot path binds plain arrays of doubles: SQLite through
 * multi-row VALUES, PostgreSQL through unnest.
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

  /** The facts of these nodes, read through `exec` (inside a transaction, its own: SQLite has one connection). */
  private async nodeInfo(ids: Iterable<number>, exec: Exec = this.db): Promise<Map<number, NodeInfo>> {
    const missing = [...new Set(ids)].filter((id) => !this.nodes.has(id));
    for (let i = 0; i < missing.length; i += 5000) {
      const chunk = missing.slice(i, i + 5000);
      const rows = await exec.selectFrom('nodes').select(['id', 'timezone']).where('id', 'in', chunk).execute();
      for (const r of rows) this.nodes.set(r.id, { timezone: r.timezone, orgs: [] });
      const members = await exec.selectFrom('fleet_members').select(['node_id', 'organisation_id']).where('node_id', 'in', chunk).execute();
      for (const m of members) this.nodes.get(m.node_id)?.orgs.push(m.organisation_id);
    }
    return this.nodes;
  }

  /**
   * Stores samples (and submeter readings) in one transaction, with `alongside` run in it last: live
   * readings into the open tables, longer ones straight into the history, and every node's newest
   * reading as its latest values. Returns the samples stored (those of known nodes).
   */
  async ingest(samples: readonly Sample[], now = nowS(), extras: IngestExtras = {}): Promise<number> {
    const { submeters = [], alongside } = extras;
    if (!samples.length && !submeters.length && !alongside) return 0;
    let ordered = true;
    for (let i = 1; i < samples.length && ordered; i++) ordered = bySample(samples[i - 1], samples[i]) <= 0;
    const sorted = ordered ? samples : [...samples].sort(bySample);
    const info = await this.nodeInfo(sorted.map((s) => s.nodeId));
    const bulk: Sample[] = [];
    const open: number[] = [];
    const latest: number[] = [];
    const values: number[] = new Array(METRIC_COLUMNS.length).fill(Number.NaN);
    let stored = 0;
    for (let k = 0; k < sorted.length; k++) {
      const s = sorted[k];
      if (!info.has(s.nodeId)) continue;
      stored++;
      if (s.dt < LIVE_BELOW_S) {
        metricValues(s, values);
        open.push(s.nodeId, s.ts, s.dt, ...values, s.curtailed_p ?? Number.NaN);
      } else bulk.push(s);
      // In (node, ts) order the node's last sample is its latest.
      if (k === sorted.length - 1 || sorted[k + 1].nodeId !== s.nodeId) {
        if (s.dt >= LIVE_BELOW_S) metricValues(s, values);
        latest.push(s.nodeId, s.ts, ...values);
      }
    }
    const history = historyRows(bulk, info, now - this.rawRetentionS);
    const subOpen: number[] = [];
    const subBulk: SubmeterSample[] = [];
    for (const s of submeters) {
      if (s.dt < LIVE_BELOW_S) subOpen.push(s.submeterId, s.ts, s.dt, s.p, s.q);
      else subBulk.push(s);
    }
    await this.db.transaction().execute(async (trx) => {
      // Telemetry can be sent again: on PostgreSQL its commits need not wait for the WAL flush (a
      // database crash loses at most the last fraction of a second of readings, and the sender's
      // position with them, so they are sent again: never consistency).
      if (this.dialect === 'postgres') await trx.executeQuery(CompiledQuery.raw('set local synchronous_commit = off'));
      await this.writeHistory(trx, history);
      // A reading sent twice while its bucket is open is kept once, as raw keeps it.
      await this.write(trx, 'tel_open', [...OPEN_COLUMNS], open, 'ignore');
      await this.write(trx, 'tel_latest', ['node_id', 'ts', ...METRIC_COLUMNS], latest, 'latest');
      await this.write(trx, 'sub_open', ['submeter_id', 'ts', 'dt', 'p', 'q'], subOpen, 'ignore');
      await this.write(trx, 'sub_5m', ['submeter_id', 'ts', 'cov', 'p', 'q'], submeterRows(subBulk), 'add');
      // Rollups add what they are given: a batch counted here must not be sent again, so the
      // sender's record of what it has sent commits with it.
      crashPoint('telemetry-write');
      if (alongside) await alongside(trx);
    });
    return stored;
  }

  /**
   * Folds the open readings before `before` (a 5-minute boundary: their buckets have closed) into
   * the history, exactly as an ingest of them would have, and deletes them from the open tables: a
   * transaction per FOLD_NODES nodes, other requests served between them (SQLite answers
   * synchronously: a fold of a large fleet in one go held every reader for seconds). A crash leaves
   * each range all open or all folded, never counted twice nor lost (the rollups add, and a range's
   * readings leave the open table with its additions). On PostgreSQL a range's transaction reads one
   * snapshot, so a reading that arrives meanwhile is neither folded nor deleted (it waits for the
   * next fold). Returns the node readings folded.
   */
  async fold(before: number, now = nowS()): Promise<number> {
    let folded = 0;
    for (let lo = await nextOpenNode(this.db, before, 0); lo !== null; lo = await nextOpenNode(this.db, before, lo + FOLD_NODES)) {
      folded += await this.inFoldTransaction(async (trx) => {
        const chunk = await openReadings(this.db, this.dialect, trx, before, lo, lo + FOLD_NODES);
        if (!chunk.length) return 0;
        const info = await this.nodeInfo(
          chunk.map((r) => Number(r[0])),
          trx,
        );
        const builder = new HistoryBuilder(info, now - this.rawRetentionS);
        const values: number[] = new Array(METRIC_COLUMNS.length).fill(Number.NaN);
        const last = OPEN_COLUMNS.length - 1;
        for (const r of chunk) {
          for (let i = 0; i < values.length; i++) values[i] = r[3 + i] === null ? Number.NaN : Number(r[3 + i]);
          builder.add(Number(r[0]), Number(r[1]), Number(r[2]), values, r[last] === null ? Number.NaN : Number(r[last]));
        }
        await this.writeHistory(trx, builder.rows());
        await closeOpenReadings(trx, before, lo, lo + FOLD_NODES);
        // The fold's writes are in, its commit not yet: a crash here must leave these readings open.
        crashPoint('telemetry-fold');
        return chunk.length;
      });
      await new Promise((resolve) => setImmediate(resolve));
    }
    await this.inFoldTransaction(async (trx) => {
      const subs = await openSubmeterReadings(trx, before);
      if (!subs.length) return;
      await this.write(trx, 'sub_5m', ['submeter_id', 'ts', 'cov', 'p', 'q'], submeterRows(subs), 'add');
      await closeOpenSubmeterReadings(trx, before);
    });
    return folded;
  }

  /**
   * One transaction of a fold: on PostgreSQL one snapshot, committed without waiting for the disk (a
   * fold lost with a database crash leaves its readings open, to be folded again). Two folds of the
   * same readings at once (two due runs of the fold job taken by two lanes or processes after a
   * pause, or the simulator's fold beside the job's) meet here: the later to commit is refused
   * (40001) and runs again on a fresh snapshot, where the readings the other folded are gone.
   */
  private async inFoldTransaction<T>(work: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.foldTransaction(work);
      } catch (err) {
        if (attempt >= FOLD_ATTEMPTS || !isSerializationConflict(err)) throw err;
      }
    }
  }

  private foldTransaction<T>(work: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
    if (this.dialect === 'sqlite') return this.db.transaction().execute(work);
    return this.db
      .transaction()
      .setIsolationLevel('repeatable read')
      .execute(async (trx) => {
        await trx.executeQuery(CompiledQuery.raw('set local synchronous_commit = off'));
        return work(trx);
      });
  }

  /** Adds history rows to the raw table and the rollups. */
  private async writeHistory(trx: Transaction<DB>, rows: HistoryRows) {
    await this.write(trx, 'tel_raw', ['node_id', 'ts', 'dt', ...METRIC_COLUMNS], rows.raw, 'ignore');
    await this.write(trx, 'tel_5m', ['node_id', 'ts', 'cov', ...ROLLUP_COLS], rows.r5, 'add');
    await this.write(trx, 'org_5m', ['organisation_id', 'ts', 'cov', ...FLEET_COLUMNS], rows.o5, 'add');
    await this.write(trx, 'org_1h', ['organisation_id', 'ts', 'cov', ...FLEET_COLUMNS], rows.o1h, 'add');
  }

  /**
   * Upserts rows laid end to end (NaN for null) into `table`, as `mode` says (see conflictSql).
   * SQLite: multi-row VALUES statements bound straight on the connection, their texts built once
   * per shape. PostgreSQL: binary COPY (pgUpsert).
   */
  async write(trx: Exec, table: string, cols: string[], flat: readonly number[], mode: UpsertMode) {
    const width = cols.length;
    if (!flat.length) return;
    if (this.dialect === 'postgres') {
      await pgUpsert(trx, table, cols, flat, mode);
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
