import type { Insertable } from 'kysely';
import type { Database } from '../../db/database.ts';
import { fleetNodes } from '../nodes/index.ts';
import { memberNodes, type PowerstationRow } from '../vpps/index.ts';
import type { ExportJobTable } from './exports.tables.ts';
import './exports.tables.ts';

// The SQL of data exports: their rows, and what an export reads of the fleet to write its files.

const IN_FLIGHT = ['PENDING', 'PROGRESS'] as const;

/** An export's row by id (the caller checks the organisation: a job runs without one). */
export const findExport = (db: Database, id: number) => db.selectFrom('export_jobs').selectAll().where('id', '=', id).executeTakeFirst();

/** Writes a new export's row (in the caller's transaction, with its job). Answers its id. */
export async function insertExport(trx: Database, values: Insertable<ExportJobTable>): Promise<number> {
  const row = await trx.insertInto('export_jobs').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

/** A page of the organisation's exports, newest first, and how many it has. */
export const exportPage = (db: Database, orgId: number, limit: number, offset: number) =>
  Promise.all([
    db.selectFrom('export_jobs').selectAll().where('organisation_id', '=', orgId).orderBy('id', 'desc').limit(limit).offset(offset).execute(),
    db
      .selectFrom('export_jobs')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('organisation_id', '=', orgId)
      .executeTakeFirstOrThrow(),
  ]);

/** The unique keys among `keys` whose job failed for good: failed, or its last allowed attempt's lease ran out. */
export const jobsFailedForGood = (db: Database, keys: readonly string[], now: number) =>
  db
    .selectFrom('jobs')
    .select('unique_key')
    .where('unique_key', 'in', keys)
    .where((eb) =>
      eb.or([eb('status', '=', 'failed'), eb.and([eb('status', '=', 'pending'), eb('attempts', '>=', eb.ref('max_attempts')), eb('locked_until', '<', now)])]),
    )
    .execute();

const updated = (r: { numUpdatedRows: bigint }) => Number(r.numUpdatedRows) === 1;

/** Marks an export FAILURE with `error` if it is still in `from`. Answers whether it did. */
export const failExport = async (db: Database, id: number, error: string, now: number, from: readonly ('PENDING' | 'PROGRESS')[] = IN_FLIGHT) =>
  updated(
    await db
      .updateTable('export_jobs')
      .set({ status: 'FAILURE', error, finished_at: now, time_remaining_ms: null })
      .where('id', '=', id)
      .where('status', 'in', from)
      .executeTakeFirst(),
  );

/** Marks an in-flight export CANCELLED. Answers whether it was in flight. */
export const cancelExportRow = async (db: Database, id: number, now: number) =>
  updated(
    await db
      .updateTable('export_jobs')
      .set({ status: 'CANCELLED', finished_at: now, time_remaining_ms: null })
      .where('id', '=', id)
      .where('status', 'in', IN_FLIGHT)
      .executeTakeFirst(),
  );

/** Marks an in-flight export PROGRESS from the start. Answers whether it was in flight (not cancelled). */
export const startExportRow = async (db: Database, id: number, now: number) =>
  updated(
    await db
      .updateTable('export_jobs')
      .set({ status: 'PROGRESS', started_at: now, progress: 0, time_remaining_ms: null })
      .where('id', '=', id)
      .where('status', 'in', IN_FLIGHT)
      .executeTakeFirst(),
  );

/** Writes a running export's progress and time left. Answers false when it is no longer running (cancelled). */
export const writeProgress = async (db: Database, id: number, progress: number, remainingMs: number | null) =>
  updated(
    await db
      .updateTable('export_jobs')
      .set({ progress, time_remaining_ms: remainingMs })
      .where('id', '=', id)
      .where('status', '=', 'PROGRESS')
      .executeTakeFirst(),
  );

/** Marks a running export SUCCESS with its files. Answers false when it was cancelled meanwhile. */
export const finishExportRow = async (db: Database, id: number, files: string, now: number, expiresAt: number) =>
  updated(
    await db
      .updateTable('export_jobs')
      .set({ status: 'SUCCESS', progress: 1, time_remaining_ms: 0, files, finished_at: now, expires_at: expiresAt })
      .where('id', '=', id)
      .where('status', '=', 'PROGRESS')
      .executeTakeFirst(),
  );

/** The SUCCESS exports whose retention has passed. */
export const expiredExports = (db: Database, now: number) =>
  db.selectFrom('export_jobs').select(['id', 'reference_id']).where('status', '=', 'SUCCESS').where('expires_at', '<=', now).execute();

/** Marks a SUCCESS export REMOVED (its files are gone). */
export const markRemoved = (db: Database, id: number) =>
  db.updateTable('export_jobs').set({ status: 'REMOVED' }).where('id', '=', id).where('status', '=', 'SUCCESS').execute();

/** The ids of every export in flight. */
export const inFlightExportIds = (db: Database) => db.selectFrom('export_jobs').select('id').where('status', 'in', IN_FLIGHT).execute();

// What an export reads.

const NODE_COLUMNS = ['nodes.id', 'nodes.nmi', 'nodes.timezone'] as const;

/** The VPP's member nodes now (id, NMI, time zone), in id order. */
export const memberNodesOf = (db: Database, ps: PowerstationRow) => memberNodes(db, ps).select(NODE_COLUMNS).orderBy('nodes.id').execute();

/** The VPP's member nodes' ids now. */
export const memberNodeIds = async (db: Database, ps: PowerstationRow) => (await memberNodes(db, ps).select('nodes.id').execute()).map((r) => r.id);

/** Those of `ids` in the organisation's fleet (id, NMI, time zone), at most 1,000 ids a call. */
export const fleetNodesIn = (db: Database, orgId: number, ids: readonly number[]) =>
  fleetNodes(db, orgId).select(NODE_COLUMNS).where('nodes.id', 'in', ids).execute();

/** The ids among `ids` in the organisation's fleet, at most 1,000 ids a call. */
export const fleetNodeIdsIn = (db: Database, orgId: number, ids: readonly number[]) =>
  fleetNodes(db, orgId).select('nodes.id').where('nodes.id', 'in', ids).execute();

/** The submeters of the nodes, by node then id, at most 1,000 nodes a call. */
export const submetersOf = (db: Database, nodeIds: readonly number[]) =>
  db.selectFrom('submeters').select(['id', 'node_id', 'name']).where('node_id', 'in', nodeIds).orderBy('node_id').orderBy('id').execute();

/** The organisation's id and type. */
export const organisationType = (db: Database, orgId: number) =>
  db.selectFrom('organisations').select(['id', 'suborg_type']).where('id', '=', orgId).executeTakeFirstOrThrow();

/** The nodes the organisation holds as their network. */
export const networkNodeIds = async (db: Database, orgId: number) =>
  (await db.selectFrom('fleet_members').select('node_id').where('organisation_id', '=', orgId).where('role', '=', 'NETWORK').execute()).map((r) => r.node_id);
