import type { Insertable } from 'kysely';
import type { Database, DialectName } from '../../db/database.ts';
import { fleetNodes } from '../nodes/index.ts';
import type { SupportRequestTable } from './support.tables.ts';

const listed = ['id', 'reference', 'subject', 'category', 'node_id', 'created_at'] as const;

/** A node of the organisation's fleet, with what the help desk needs to find it. */
export async function findFleetNode(db: Database, organisationId: number, nodeId: number) {
  return fleetNodes(db, organisationId)
    .select(['nodes.id', 'nodes.nmi', 'nodes.serial_number', 'nodes.street', 'nodes.suburb', 'nodes.state', 'nodes.postcode', 'fm.site_label'])
    .where('nodes.id', '=', nodeId)
    .executeTakeFirst();
}

/**
 * Holds the user's row until the transaction ends on PostgreSQL, so that two server processes
 * counting the same user's recent requests take turns. SQLite needs nothing: its one connection runs
 * one transaction at a time.
 */
export async function lockUser(db: Database, dialect: DialectName, userId: number): Promise<void> {
  if (dialect === 'postgres') await db.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
}

/** When the user's requests since a time were sent, oldest first. */
export async function sentSince(db: Database, userId: number, since: number): Promise<number[]> {
  const rows = await db
    .selectFrom('support_requests')
    .select('created_at')
    .where('user_id', '=', userId)
    .where('created_at', '>', since)
    .orderBy('created_at')
    .execute();
  return rows.map((r) => Number(r.created_at));
}

export async function insertRequest(db: Database, row: Insertable<SupportRequestTable>) {
  return db.insertInto('support_requests').values(row).returning(listed).executeTakeFirstOrThrow();
}

/** A page of the user's own requests in their organisation, newest first, and how many there are. */
export async function listRequests(db: Database, organisationId: number, userId: number, limit: number, offset: number) {
  const mine = db.selectFrom('support_requests').where('organisation_id', '=', organisationId).where('user_id', '=', userId);
  const [rows, count] = await Promise.all([
    mine.select(listed).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).offset(offset).execute(),
    mine.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.total) };
}
