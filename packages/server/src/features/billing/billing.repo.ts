import type { BillingInterval } from '@vpp/shared/billing/schemas';
import type { Insertable } from 'kysely';
import { sql } from 'kysely';
import type { ArrayReader, CopyReader, Database, DialectName } from '../../db/database.ts';
import type { BillingItemTable, InvoiceLineTable, InvoiceTable } from './billing.tables.ts';
import './billing.tables.ts';

// The SQL of billing: grid-credit line items and the platform's invoices, scoped to the organisation.

const inRange = (db: Database, orgId: number, start: string, end: string) =>
  db.selectFrom('billing_items').where('organisation_id', '=', orgId).where('day', '>=', start).where('day', '<=', end);

export const ITEM_COLUMNS = ['id', 'nmi', 'day', 'ts', 'type', 'amount', 'rate', 'cost_cents', 'event_kind', 'event_id'] as const;

/** The count, sum of cents and distinct events of the organisation's line items in [start, end]. */
export const itemTotals = (db: Database, orgId: number, start: string, end: string) =>
  inRange(db, orgId, start, end)
    .select([sql<number>`count(*)`.as('total'), sql<number | null>`sum(cost_cents)`.as('cents'), sql<number>`count(distinct event_id)`.as('events')])
    .executeTakeFirstOrThrow();

/** A page of the organisation's line items in [start, end], by day then NMI. */
export const itemPage = (db: Database, orgId: number, start: string, end: string, limit: number, offset: number) =>
  inRange(db, orgId, start, end).select(ITEM_COLUMNS).orderBy('day').orderBy('nmi').orderBy('id').limit(limit).offset(offset).execute();

/** Distinct customers (NMIs) credited per interval of their items' local days, latest first. */
export function customersPerInterval(db: Database, dialect: DialectName, orgId: number, interval: BillingInterval) {
  const bucket =
    interval === 'day'
      ? sql<string>`day`
      : interval === 'month'
        ? sql<string>`substr(day, 1, 7) || '-01'`
        : dialect === 'postgres'
          ? sql<string>`to_char(date_trunc('week', day::date), 'YYYY-MM-DD')`
          : sql<string>`date(day, '-6 days', 'weekday 1')`;
  return db
    .selectFrom('billing_items')
    .where('organisation_id', '=', orgId)
    .select([bucket.as('date'), sql<number>`count(distinct nmi)`.as('customers')])
    .groupBy(bucket)
    .orderBy(bucket, 'desc')
    .execute();
}

/** The organisation's credits by month (YYYY-MM) of their local days, latest first. */
export function monthlyTotals(db: Database, orgId: number) {
  const month = sql<string>`substr(day, 1, 7)`;
  return db
    .selectFrom('billing_items')
    .where('organisation_id', '=', orgId)
    .select([
      month.as('month'),
      sql<number>`sum(cost_cents)`.as('cents'),
      sql<number>`count(*)`.as('count'),
      sql<number>`count(distinct event_id)`.as('events'),
      sql<number>`count(distinct nmi)`.as('customers'),
    ])
    .groupBy(month)
    .orderBy(month, 'desc')
    .execute();
}

/** A keyset page of the range's summary per customer (NMI order), after the NMI `after`. */
export function summaryPage(db: Database, orgId: number, start: string, end: string, after: string | null, size: number) {
  let q = inRange(db, orgId, start, end);
  if (after !== null) q = q.where('nmi', '>', after);
  return q
    .select(['nmi', sql<number>`count(distinct event_id)`.as('events'), sql<number>`sum(amount)`.as('amount'), sql<number>`sum(cost_cents)`.as('cents')])
    .groupBy('nmi')
    .orderBy('nmi')
    .limit(size)
    .execute();
}

/**
 * SQLite: a page of one day's line items as arrays straight off the connection (no object per row),
 * by keyset through the (organisation, day, id) index: ids after `afterId` and before `beforeId`. The
 * day is known: not reading it back saves a string per row (a third of the read's time). The type
 * and event_kind are null where they equal `sameType` and `sameKind` (the last page's last line's):
 * they repeat, and each string the driver makes costs as much as reading three numbers. Columns:
 * nmi, ts, type, amount, rate, cost_cents, id, event_kind, event_id, spot_value, feed_in_deduction.
 */
export const itemArraysOfDay = (
  read: ArrayReader,
  orgId: number,
  day: string,
  afterId: number,
  beforeId: number,
  size: number,
  sameType: string,
  sameKind: string,
) =>
  read(
    'select nmi, ts, nullif(type, ?), amount, rate, cost_cents, id, nullif(event_kind, ?), event_id, spot_value, feed_in_deduction from billing_items where organisation_id = ? and day = ? and id > ? and id < ? order by id limit ?',
    [sameType, sameKind, orgId, day, afterId, beforeId, size],
  );

/** Line items of the days `start` to `end` in (day, id) order: those of day `start` from id `fromId`, those of day `end` before id `toId` (null: all). */
export interface ItemKeyRange {
  orgId: number;
  start: string;
  end: string;
  fromId: number;
  toId: number | null;
}

/**
 * PostgreSQL: one COPY of the key range's line items in (day, id) order through the (organisation,
 * day, id) index, streamed in COPY's binary format: numbers as the server holds them, so that the
 * reader neither parses their text nor makes a string of each field. Columns, each cast to the type
 * the reader expects (a later change of a column's type cannot be misread): nmi, day (text), ts
 * (int8), type (text), amount, rate (float8), cost_cents (int8), event_kind (text), event_id (int8),
 * spot_value, feed_in_deduction (float8, null on most lines). The bounds are inlined (COPY takes no
 * parameters): they are checked first.
 */
export function copyItems(copy: CopyReader, r: ItemKeyRange): AsyncGenerator<Buffer> {
  const date = /^\d{4}-\d{2}-\d{2}$/;
  if (
    !Number.isSafeInteger(r.orgId) ||
    !date.test(r.start) ||
    !date.test(r.end) ||
    !Number.isSafeInteger(r.fromId) ||
    !(r.toId === null || Number.isSafeInteger(r.toId))
  )
    throw new Error('Invalid events CSV range');
  // Row comparisons on (day, id) bound the index scan itself.
  const from = r.fromId > 0 ? ` and (day, id) >= ('${r.start}', ${r.fromId})` : '';
  const to = r.toId !== null ? ` and (day, id) < ('${r.end}', ${r.toId})` : '';
  return copy(`copy (select nmi::text, day::text, ts::int8, type::text, amount::float8, rate::float8, cost_cents::int8, event_kind::text, event_id::int8,
      spot_value::float8, feed_in_deduction::float8 from billing_items
    where organisation_id = ${r.orgId} and day >= '${r.start}' and day <= '${r.end}'${from}${to} order by day, id) to stdout (format binary)`);
}

/**
 * The days of [start, end] that have line items, each with its first and last item's id: a few index
 * seeks a day (the next day found from the last, not each calendar day tried), whatever the items'
 * number. How a download is split between the streaming workers.
 */
export async function itemDaySpans(read: ArrayReader, orgId: number, start: string, end: string): Promise<{ day: string; lo: number; hi: number }[]> {
  const rows = await read(
    `with recursive d(day) as (
       select (select min(day) from billing_items where organisation_id = ? and day >= ? and day <= ?)
       union all
       select (select min(day) from billing_items where organisation_id = ? and day > d.day and day <= ?) from d where d.day is not null)
     select day,
       (select id from billing_items b where b.organisation_id = ? and b.day = d.day order by id limit 1),
       (select id from billing_items b where b.organisation_id = ? and b.day = d.day order by id desc limit 1)
     from d where day is not null`,
    [orgId, start, end, orgId, end, orgId, orgId],
  );
  return rows.map((r) => ({ day: String(r[0]), lo: Number(r[1]), hi: Number(r[2]) }));
}

/** Writes line items; an (event, NMI, day, type) already written is left alone. Answers how many were written. */
export async function insertItems(trx: Database, rows: Insertable<BillingItemTable>[]): Promise<number> {
  let written = 0;
  for (let i = 0; i < rows.length; i += 500) {
    const r = await trx
      .insertInto('billing_items')
      .values(rows.slice(i, i + 500))
      .onConflict((oc) => oc.columns(['event_id', 'nmi', 'day', 'type']).doNothing())
      .executeTakeFirst();
    written += Number(r.numInsertedOrUpdatedRows ?? 0);
  }
  return written;
}

/** The NMI and time zone of each node (any organisation's: the settlement has already scoped them). */
export async function nodeNmisAndZones(db: Database, ids: readonly number[]) {
  const facts = new Map<number, { nmi: string; timezone: string }>();
  for (let i = 0; i < ids.length; i += 1000)
    for (const n of await db
      .selectFrom('nodes')
      .select(['id', 'nmi', 'timezone'])
      .where('id', 'in', ids.slice(i, i + 1000))
      .execute())
      facts.set(n.id, n);
  return facts;
}

/** Every plan each node held with the organisation, by node. */
export async function plansHeld(db: Database, orgId: number, ids: readonly number[]) {
  const held = new Map<number, { plan_id: number; start_date: string; end_date: string | null }[]>();
  for (let i = 0; i < ids.length; i += 1000)
    for (const r of await db
      .selectFrom('customer_plans')
      .select(['node_id', 'plan_id', 'start_date', 'end_date'])
      .where('organisation_id', '=', orgId)
      .where('node_id', 'in', ids.slice(i, i + 1000))
      .execute())
      held.set(r.node_id, [...(held.get(r.node_id) ?? []), r]);
  return held;
}

// Invoices.

export const INVOICE_COLUMNS = ['id', 'number', 'issue_date', 'period', 'total_cents', 'gst_cents', 'paid'] as const;

/** The id of the organisation's invoice for a month, if issued. */
export const invoiceIdOf = (db: Database, orgId: number, period: string) =>
  db.selectFrom('invoices').select('id').where('organisation_id', '=', orgId).where('period', '=', period).executeTakeFirst();

/** Every organisation's id, in order. */
export const organisationIds = (db: Database) => db.selectFrom('organisations').select('id').orderBy('id').execute();

/** An organisation's id and name. */
export const organisationOf = (db: Database, orgId: number) => db.selectFrom('organisations').select(['id', 'name']).where('id', '=', orgId).executeTakeFirst();

/** Nodes in the organisation's fleet at some time in [from, to) (the membership history) and commissioned before `to`. */
export const countNodesUnderManagement = (db: Database, orgId: number, from: number, to: number) =>
  db
    .selectFrom('fleet_membership_history as mh')
    .innerJoin('nodes as n', 'n.id', 'mh.node_id')
    .where('mh.organisation_id', '=', orgId)
    .where('mh.joined_at', '<', to)
    .where((eb) => eb.or([eb('mh.left_at', 'is', null), eb('mh.left_at', '>', from)]))
    .where('n.commissioned_at', 'is not', null)
    .where('n.commissioned_at', '<', to)
    .select(sql<number>`count(distinct n.id)`.as('n'))
    .executeTakeFirstOrThrow();

/** The organisation's events of the types that started in [from, to) and were not cancelled before their start. */
export const countEventsRun = (db: Database, orgId: number, types: readonly string[], from: number, to: number) =>
  db
    .selectFrom('events')
    .where('organisation_id', '=', orgId)
    .where('type', 'in', types)
    .where('start_time', '>=', from)
    .where('start_time', '<', to)
    .where((eb) => eb.or([eb('cancelled_at', 'is', null), eb('cancelled_at', '>', eb.ref('start_time'))]))
    .select(sql<number>`count(*)`.as('n'))
    .executeTakeFirstOrThrow();

/**
 * Writes an invoice and its lines in the caller's transaction, unless the organisation's invoice of
 * that period exists (the unique key): then nothing, and null.
 */
export async function insertInvoice(trx: Database, invoice: Insertable<InvoiceTable>, lines: Omit<Insertable<InvoiceLineTable>, 'invoice_id'>[]) {
  const row = await trx
    .insertInto('invoices')
    .values(invoice)
    .onConflict((oc) => oc.columns(['organisation_id', 'period']).doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!row) return null;
  await trx
    .insertInto('invoice_lines')
    .values(lines.map((l) => ({ invoice_id: row.id, ...l })))
    .execute();
  return row.id;
}

/** The organisations that existed before `end` and have no invoice of the period. */
export const organisationsWithoutInvoice = (db: Database, period: string, end: number) =>
  db
    .selectFrom('organisations as o')
    .leftJoin('invoices as i', (j) => j.onRef('i.organisation_id', '=', 'o.id').on('i.period', '=', period))
    .where('i.id', 'is', null)
    .where('o.created_at', '<', end)
    .select('o.id')
    .execute();

/** The organisation's invoices, latest period first. */
export const listInvoiceRows = (db: Database, orgId: number) =>
  db.selectFrom('invoices').select(INVOICE_COLUMNS).where('organisation_id', '=', orgId).orderBy('period', 'desc').execute();

/** The organisation's invoice with its lines, or undefined. */
export async function invoiceWithLines(db: Database, orgId: number, id: number) {
  const row = await db.selectFrom('invoices').selectAll().where('id', '=', id).where('organisation_id', '=', orgId).executeTakeFirst();
  if (!row) return undefined;
  const lines = await db.selectFrom('invoice_lines').selectAll().where('invoice_id', '=', id).orderBy('position').execute();
  return { ...row, lines };
}

/** Any organisation's invoice's listed columns (the platform's operator marks any invoice paid). */
export const invoiceRowOfAnyOrganisation = (db: Database, id: number) =>
  db.selectFrom('invoices').select(INVOICE_COLUMNS).where('id', '=', id).executeTakeFirst();

/** Sets an invoice's paid flag, when and by whom. */
export const setInvoicePaid = (db: Database, id: number, paid: { paid: 0 | 1; paid_at: number | null; paid_by: number | null }) =>
  db.updateTable('invoices').set(paid).where('id', '=', id).execute();
