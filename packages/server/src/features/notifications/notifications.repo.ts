import { type Database, nowS } from '../../db/database.ts';

const columns = ['id', 'created_at', 'summary', 'body', 'read_at'] as const;

export async function insertNotifications(db: Database, rows: { organisationId: number; userId: number; summary: string; body: string }[]) {
  if (!rows.length) return [];
  const now = nowS();
  return db
    .insertInto('notifications')
    .values(rows.map((r) => ({ organisation_id: r.organisationId, user_id: r.userId, summary: r.summary, body: r.body, created_at: now })))
    .returning(['id', 'user_id', 'created_at'])
    .execute();
}

/** One page of a user's notifications, newest first, with the total and the unread count. */
export async function listForUser(db: Database, userId: number, page: { limit: number; offset: number }) {
  const [rows, counts] = await Promise.all([
    db
      .selectFrom('notifications')
      .select(columns)
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    db
      .selectFrom('notifications')
      .select((eb) => [eb.fn.countAll<number>().as('total'), eb.fn.count<number>('id').filterWhere('read_at', 'is', null).as('unread')])
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(counts.total), unread: Number(counts.unread) };
}

export async function findForUser(db: Database, userId: number, id: number) {
  return db.selectFrom('notifications').select(columns).where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
}

export async function setRead(db: Database, userId: number, id: number, read: boolean): Promise<boolean> {
  const r = await db
    .updateTable('notifications')
    .set({ read_at: read ? nowS() : null })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function markAllRead(db: Database, userId: number): Promise<void> {
  await db.updateTable('notifications').set({ read_at: nowS() }).where('user_id', '=', userId).where('read_at', 'is', null).execute();
}

/** Active users of an organisation with their alert settings, optionally only some of them. */
export async function recipients(db: Database, organisationId: number) {
  return db
    .selectFrom('users')
    .select(['id', 'organisation_id', 'email', 'given_name', 'alert_email_frequency', 'timezone', 'alert_digest_at'])
    .where('organisation_id', '=', organisationId)
    .where('active', '=', 1)
    .execute();
}

export async function recipient(db: Database, userId: number) {
  return db
    .selectFrom('users')
    .select(['id', 'organisation_id', 'email', 'given_name', 'alert_email_frequency', 'timezone', 'alert_digest_at'])
    .where('id', '=', userId)
    .where('active', '=', 1)
    .executeTakeFirst();
}
export type Recipient = Awaited<ReturnType<typeof recipients>>[number];

export async function digestUsers(db: Database) {
  return db
    .selectFrom('users')
    .select(['id', 'organisation_id', 'email', 'given_name', 'alert_email_frequency', 'timezone', 'alert_digest_at'])
    .where('active', '=', 1)
    .where('alert_email_frequency', 'in', ['HOURLY', 'DAILY', 'WEEKLY'])
    .execute();
}

/** Notifications of a user not e-mailed yet, created in (after, until]. */
export async function unemailed(db: Database, userId: number, after: number, until: number) {
  return db
    .selectFrom('notifications')
    .select(['id', 'created_at', 'summary', 'body'])
    .where('user_id', '=', userId)
    .where('emailed_at', 'is', null)
    .where('created_at', '>', after)
    .where('created_at', '<=', until)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function markEmailed(db: Database, ids: number[]): Promise<void> {
  if (ids.length) await db.updateTable('notifications').set({ emailed_at: nowS() }).where('id', 'in', ids).execute();
}

export async function setDigestAt(db: Database, userId: number, at: number): Promise<void> {
  await db.updateTable('users').set({ alert_digest_at: at }).where('id', '=', userId).execute();
}
