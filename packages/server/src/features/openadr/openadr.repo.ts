import { type Selectable, sql } from 'kysely';
import { z } from 'zod';
import type { Database } from '../../db/database.ts';
import type { DB } from '../../db/schema.ts';
import './openadr.tables.ts';

const jsonList = z.array(z.unknown());
/** A JSON list column as stored. */
export const parseList = (json: string): unknown[] => jsonList.parse(JSON.parse(json));

// ---- clients (API keys with OpenADR scopes) ----

/** An API key as an OpenADR client: its organisation, owner, state and OpenADR scopes. */
export async function findClient(db: Database, keyId: number) {
  return db
    .selectFrom('api_keys')
    .innerJoin('users', 'users.id', 'api_keys.user_id')
    .select(['api_keys.id', 'api_keys.organisation_id', 'api_keys.user_id', 'api_keys.status', 'api_keys.openadr_scopes', 'users.active'])
    .where('api_keys.id', '=', keyId)
    .executeTakeFirst();
}

export async function keyNames(db: Database, organisationId: number, keyIds: number[]) {
  if (!keyIds.length) return new Map<number, string>();
  const rows = await db.selectFrom('api_keys').select(['id', 'key_name']).where('organisation_id', '=', organisationId).where('id', 'in', keyIds).execute();
  return new Map(rows.map((r) => [r.id, r.key_name]));
}

// ---- VPPs (programs) and the console's events ----

export async function vppsOf(db: Database, organisationId: number, ids?: number[]) {
  let q = db.selectFrom('powerstations').select(['id', 'name', 'type', 'state', 'created_at', 'updated_at']).where('organisation_id', '=', organisationId);
  if (ids) {
    if (!ids.length) return [];
    q = q.where('id', 'in', ids);
  }
  return q.orderBy('id').execute();
}

/** The postcodes of VPPs made by postcode (the VPPs' own rule), per VPP. */
export async function vppPostcodes(db: Database, ids: number[]): Promise<Map<number, string[]>> {
  const out = new Map<number, string[]>();
  if (!ids.length) return out;
  const rows = await db
    .selectFrom('powerstation_postcodes')
    .select(['powerstation_id', 'postcode'])
    .where('powerstation_id', 'in', ids)
    .orderBy('powerstation_id')
    .orderBy('postcode')
    .execute();
  for (const r of rows) out.set(r.powerstation_id, [...(out.get(r.powerstation_id) ?? []), r.postcode]);
  return out;
}

/** The organisation's VPPs created or changed at or after `since`. */
export async function changedVpps(db: Database, organisationId: number, since: number) {
  return db
    .selectFrom('powerstations')
    .select(['id', 'name', 'type', 'state', 'created_at', 'updated_at'])
    .where('organisation_id', '=', organisationId)
    .where('updated_at', '>=', since)
    .orderBy('id')
    .execute();
}

export interface ConsoleEventRow {
  id: number;
  powerstation_id: number | null;
  type: string;
  start_time: number;
  duration: number;
  cancelled_at: number | null;
  created_at: number;
  modified_at: number;
  dispatch_kw: number | null;
  curtail_kw: number | null;
  curtail_component: string | null;
  outage_reason: string | null;
}

/**
 * The organisation's events on VPPs, with what OpenADR needs of their details and the time of
 * their last change (created, cancelled or an audited change). `vppIds` null: every VPP's.
 */
export async function consoleEvents(
  db: Database,
  organisationId: number,
  opts: { vppIds: number[] | null; id?: number; changedSince?: number; withCancelled?: boolean; skip?: number; limit?: number },
): Promise<ConsoleEventRow[]> {
  if (opts.vppIds && !opts.vppIds.length) return [];
  // A page of a search: its ids first (an index range, skipped cheaply), then only those rows joined
  // with their kind's detail and audit. Joining first made PostgreSQL join every row up to the offset.
  let pageIds: number[] | null = null;
  if (opts.limit !== undefined && opts.changedSince === undefined) {
    let ids = db.selectFrom('events as e').select('e.id').where('e.organisation_id', '=', organisationId).where('e.powerstation_id', 'is not', null);
    if (opts.vppIds) ids = ids.where('e.powerstation_id', 'in', opts.vppIds);
    if (opts.id !== undefined) ids = ids.where('e.id', '=', opts.id);
    if (!opts.withCancelled) ids = ids.where('e.cancelled_at', 'is', null);
    pageIds = (
      await ids
        .orderBy('e.id')
        .limit(opts.limit)
        .offset(opts.skip ?? 0)
        .execute()
    ).map((r) => r.id);
    if (!pageIds.length) return [];
  }
  let auditQuery = db.selectFrom('event_audit').select(['event_id', sql<number>`max(at)`.as('at')]);
  if (pageIds) auditQuery = auditQuery.where('event_id', 'in', pageIds);
  const audited = auditQuery.groupBy('event_id').as('a');
  let q = db
    .selectFrom('events as e')
    .leftJoin('dispatches as d', 'd.event_id', 'e.id')
    .leftJoin('curtailments as c', 'c.event_id', 'e.id')
    .leftJoin('grid_outages as o', 'o.event_id', 'e.id')
    .leftJoin(audited, 'a.event_id', 'e.id')
    .select([
      'e.id',
      'e.powerstation_id',
      'e.type',
      'e.start_time',
      'e.duration',
      'e.cancelled_at',
      'e.created_at',
      'a.at as audited_at',
      'd.real_power_p as dispatch_kw',
      'c.real_power_p as curtail_kw',
      'c.component as curtail_component',
      'o.outage_reason',
    ])
    .where('e.organisation_id', '=', organisationId)
    .where('e.powerstation_id', 'is not', null);
  if (opts.vppIds) q = q.where('e.powerstation_id', 'in', opts.vppIds);
  if (opts.id !== undefined) q = q.where('e.id', '=', opts.id);
  if (pageIds) q = q.where('e.id', 'in', pageIds);
  if (!opts.withCancelled) q = q.where('e.cancelled_at', 'is', null);
  if (opts.changedSince !== undefined) {
    const since = opts.changedSince;
    q = q.where((eb) => eb.or([eb('e.created_at', '>=', since), eb('e.cancelled_at', '>=', since), eb('a.at', '>=', since)]));
  }
  q = q.orderBy('e.id');
  if (opts.limit !== undefined && !pageIds) q = q.limit(opts.limit).offset(opts.skip ?? 0);
  const rows = await q.execute();
  return rows.map(({ audited_at, ...r }) => ({
    ...r,
    modified_at: Math.max(Number(r.created_at), Number(r.cancelled_at ?? 0), Number(audited_at ?? 0)),
  }));
}

// ---- the client-written tables: one search shape ----

type OwnedTable = 'oadr_vens' | 'oadr_subscriptions' | 'oadr_reports';
type Filter = string | number | number[] | undefined;

/**
 * An organisation's rows of a client-written table by id: each filter given (a column's value, or
 * a list of ids) narrows them, an undefined one does not; `limit` pages them.
 */
async function owned<T extends OwnedTable>(
  db: Database,
  table: T,
  organisationId: number,
  filters: Record<string, Filter>,
  paging: { skip?: number; limit?: number } = {},
): Promise<Selectable<DB[T]>[]> {
  let q = db
    .selectFrom(table as OwnedTable)
    .selectAll()
    .where('organisation_id', '=', organisationId);
  for (const [column, value] of Object.entries(filters)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) {
      if (!value.length) return [];
      q = q.where(sql.ref(column), 'in', value);
    } else q = q.where(sql.ref(column), '=', value);
  }
  q = q.orderBy('id');
  if (paging.limit !== undefined) q = q.limit(paging.limit).offset(paging.skip ?? 0);
  return (await q.execute()) as Selectable<DB[T]>[];
}

// ---- VENs, their resources and their VPPs ----

/** The organisation of a console event. */
export async function eventOrganisation(db: Database, eventId: number): Promise<number | undefined> {
  return (await db.selectFrom('events').select('organisation_id').where('id', '=', eventId).executeTakeFirst())?.organisation_id;
}

/** The organisation's fleet nodes with one of the NMIs or serial numbers. */
export async function fleetNodesNamed(db: Database, organisationId: number, nmis: string[], serials: string[]) {
  if (!nmis.length && !serials.length) return [];
  return db
    .selectFrom('nodes as n')
    .innerJoin('fleet_members as f', 'f.node_id', 'n.id')
    .select(['n.id', 'n.nmi', 'n.serial_number'])
    .where('f.organisation_id', '=', organisationId)
    .where((eb) => eb.or([...(nmis.length ? [eb('n.nmi', 'in', nmis)] : []), ...(serials.length ? [eb('n.serial_number', 'in', serials)] : [])]))
    .orderBy('n.id')
    .execute();
}

export async function vens(
  db: Database,
  organisationId: number,
  opts: { clientKeyId?: number; venName?: string; ids?: number[]; skip?: number; limit?: number } = {},
) {
  return owned(db, 'oadr_vens', organisationId, { client_key_id: opts.clientKeyId, ven_name: opts.venName, id: opts.ids }, opts);
}

export async function insertVen(
  db: Database,
  v: { organisationId: number; clientKeyId: number; venName: string; attributes?: unknown; targets?: unknown; now: number },
) {
  return db
    .insertInto('oadr_vens')
    .values({
      organisation_id: v.organisationId,
      client_key_id: v.clientKeyId,
      ven_name: v.venName,
      attributes: JSON.stringify(v.attributes ?? []),
      targets: JSON.stringify(v.targets ?? []),
      created_at: v.now,
      modified_at: v.now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function updateVen(db: Database, id: number, v: { venName: string; attributes?: unknown; targets?: unknown; now: number }) {
  await db
    .updateTable('oadr_vens')
    .set({ ven_name: v.venName, attributes: JSON.stringify(v.attributes ?? []), targets: JSON.stringify(v.targets ?? []), modified_at: v.now })
    .where('id', '=', id)
    .execute();
}

export async function deleteVen(db: Database, id: number) {
  await db.deleteFrom('oadr_ven_vpps').where('ven_id', '=', id).execute();
  await db.deleteFrom('oadr_resources').where('ven_id', '=', id).execute();
  await db.deleteFrom('oadr_vens').where('id', '=', id).execute();
}

export async function resources(db: Database, venIds: number[], opts: { id?: number; resourceName?: string; skip?: number; limit?: number } = {}) {
  if (!venIds.length) return [];
  let q = db.selectFrom('oadr_resources').selectAll().where('ven_id', 'in', venIds);
  if (opts.id !== undefined) q = q.where('id', '=', opts.id);
  if (opts.resourceName !== undefined) q = q.where('resource_name', '=', opts.resourceName);
  q = q.orderBy('id');
  if (opts.limit !== undefined) q = q.limit(opts.limit).offset(opts.skip ?? 0);
  return q.execute();
}

export async function insertResource(db: Database, v: { venId: number; resourceName: string; attributes?: unknown; targets?: unknown; now: number }) {
  return db
    .insertInto('oadr_resources')
    .values({
      ven_id: v.venId,
      resource_name: v.resourceName,
      attributes: JSON.stringify(v.attributes ?? []),
      targets: JSON.stringify(v.targets ?? []),
      created_at: v.now,
      modified_at: v.now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function updateResource(db: Database, id: number, v: { resourceName: string; attributes?: unknown; targets?: unknown; now: number }) {
  await db
    .updateTable('oadr_resources')
    .set({ resource_name: v.resourceName, attributes: JSON.stringify(v.attributes ?? []), targets: JSON.stringify(v.targets ?? []), modified_at: v.now })
    .where('id', '=', id)
    .execute();
}

export async function deleteResource(db: Database, id: number) {
  await db.deleteFrom('oadr_resources').where('id', '=', id).execute();
}

/** The VPPs each of the given VENs takes part in. */
export async function venVpps(db: Database, venIds: number[]) {
  if (!venIds.length) return [];
  return db.selectFrom('oadr_ven_vpps').select(['ven_id', 'powerstation_id']).where('ven_id', 'in', venIds).execute();
}

/** The names of the VENs of an organisation taking part in each VPP. */
export async function venNamesByVpp(db: Database, organisationId: number) {
  const rows = await db
    .selectFrom('oadr_ven_vpps as vv')
    .innerJoin('oadr_vens as v', 'v.id', 'vv.ven_id')
    .select(['vv.powerstation_id', 'v.ven_name'])
    .where('v.organisation_id', '=', organisationId)
    .orderBy('v.ven_name')
    .execute();
  const map = new Map<number, string[]>();
  for (const r of rows) map.set(r.powerstation_id, [...(map.get(r.powerstation_id) ?? []), r.ven_name]);
  return map;
}

export async function setVenVpps(db: Database, venId: number, vppIds: number[]) {
  await db.deleteFrom('oadr_ven_vpps').where('ven_id', '=', venId).execute();
  if (vppIds.length)
    await db
      .insertInto('oadr_ven_vpps')
      .values(vppIds.map((p) => ({ ven_id: venId, powerstation_id: p })))
      .execute();
}

// ---- subscriptions ----

export async function subscriptions(
  db: Database,
  organisationId: number,
  opts: { clientKeyId?: number; id?: number; programId?: string; clientName?: string; skip?: number; limit?: number } = {},
) {
  return owned(
    db,
    'oadr_subscriptions',
    organisationId,
    { client_key_id: opts.clientKeyId, id: opts.id, program_id: opts.programId, client_name: opts.clientName },
    opts,
  );
}
export type SubscriptionRow = Awaited<ReturnType<typeof subscriptions>>[number];

// ---- the scan's own job rows ----

/**
 * Deletes the finished run of a recurring job due at `at` (by its unique key, an indexed row): a
 * run every 5 s would otherwise keep 17,280 rows a day for the week the queue keeps finished jobs.
 */
export async function pruneRun(db: Database, kind: string, at: number): Promise<void> {
  await db.deleteFrom('jobs').where('unique_key', '=', `${kind}@${at}`).where('status', 'in', ['done', 'failed']).execute();
}

/** The organisations that have active subscriptions. */
export async function subscribedOrganisations(db: Database): Promise<number[]> {
  const rows = await db.selectFrom('oadr_subscriptions').select('organisation_id').distinct().where('status', '=', 'ACTIVE').execute();
  return rows.map((r) => r.organisation_id);
}

export async function activeSubscriptions(db: Database, organisationId: number) {
  return db.selectFrom('oadr_subscriptions').selectAll().where('organisation_id', '=', organisationId).where('status', '=', 'ACTIVE').orderBy('id').execute();
}

export async function findSubscription(db: Database, id: number) {
  return db.selectFrom('oadr_subscriptions').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findSubscriptions(db: Database, ids: number[]) {
  if (!ids.length) return [];
  return db.selectFrom('oadr_subscriptions').selectAll().where('id', 'in', ids).execute();
}

export async function insertSubscription(
  db: Database,
  v: { organisationId: number; clientKeyId: number; clientName: string; programId: string; objectOperations: unknown; targets: unknown; now: number },
) {
  return db
    .insertInto('oadr_subscriptions')
    .values({
      organisation_id: v.organisationId,
      client_key_id: v.clientKeyId,
      client_name: v.clientName,
      program_id: v.programId,
      object_operations: JSON.stringify(v.objectOperations),
      targets: JSON.stringify(v.targets ?? []),
      status: 'ACTIVE',
      failing_since: null,
      last_delivery_at: null,
      last_delivery_result: null,
      created_at: v.now,
      modified_at: v.now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Replaces a subscription's content; a changed subscription is active again. */
export async function updateSubscription(
  db: Database,
  id: number,
  v: { clientName: string; programId: string; objectOperations: unknown; targets: unknown; now: number },
) {
  await db
    .updateTable('oadr_subscriptions')
    .set({
      client_name: v.clientName,
      program_id: v.programId,
      object_operations: JSON.stringify(v.objectOperations),
      targets: JSON.stringify(v.targets ?? []),
      status: 'ACTIVE',
      failing_since: null,
      modified_at: v.now,
    })
    .where('id', '=', id)
    .execute();
}

export async function deleteSubscription(db: Database, id: number) {
  await db.deleteFrom('oadr_subscriptions').where('id', '=', id).execute();
}

/** Records a delivery's outcome: a success ends a run of failures, a failure starts one (once). */
export async function recordDelivery(db: Database, id: number, v: { ok: boolean; result: string; at: number }) {
  await db
    .updateTable('oadr_subscriptions')
    .set((eb) => ({
      last_delivery_at: v.at,
      last_delivery_result: v.result,
      failing_since: v.ok ? null : eb.fn.coalesce('failing_since', eb.val(v.at)),
    }))
    .where('id', '=', id)
    .execute();
}

/** Records one successful delivery result for many subscriptions at once (a batch's successes). */
export async function recordDeliveries(db: Database, ids: number[], v: { result: string; at: number }) {
  if (!ids.length) return;
  await db
    .updateTable('oadr_subscriptions')
    .set({ last_delivery_at: v.at, last_delivery_result: v.result, failing_since: null })
    .where('id', 'in', ids)
    .execute();
}

/** Suspends an active subscription; answers whether this call did. */
export async function suspendSubscription(db: Database, id: number, now: number): Promise<boolean> {
  const r = await db
    .updateTable('oadr_subscriptions')
    .set({ status: 'SUSPENDED', modified_at: now })
    .where('id', '=', id)
    .where('status', '=', 'ACTIVE')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

// ---- reports VENs post ----

export async function reports(
  db: Database,
  organisationId: number,
  opts: { clientKeyId?: number; id?: number; programId?: string; eventId?: string; clientName?: string; skip?: number; limit?: number } = {},
) {
  return owned(
    db,
    'oadr_reports',
    organisationId,
    { client_key_id: opts.clientKeyId, id: opts.id, program_id: opts.programId, event_id: opts.eventId, client_name: opts.clientName },
    opts,
  );
}
export type ReportRow = Awaited<ReturnType<typeof reports>>[number];

export async function insertReport(
  db: Database,
  v: {
    organisationId: number;
    clientKeyId: number;
    programId: string;
    eventId: string;
    clientName: string;
    reportName: string | null;
    payloadDescriptors: unknown;
    resources: unknown;
    now: number;
  },
) {
  return db
    .insertInto('oadr_reports')
    .values({
      organisation_id: v.organisationId,
      client_key_id: v.clientKeyId,
      program_id: v.programId,
      event_id: v.eventId,
      client_name: v.clientName,
      report_name: v.reportName,
      payload_descriptors: JSON.stringify(v.payloadDescriptors ?? []),
      resources: JSON.stringify(v.resources),
      created_at: v.now,
      modified_at: v.now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function updateReport(
  db: Database,
  id: number,
  v: { programId: string; eventId: string; clientName: string; reportName: string | null; payloadDescriptors: unknown; resources: unknown; now: number },
) {
  await db
    .updateTable('oadr_reports')
    .set({
      program_id: v.programId,
      event_id: v.eventId,
      client_name: v.clientName,
      report_name: v.reportName,
      payload_descriptors: JSON.stringify(v.payloadDescriptors ?? []),
      resources: JSON.stringify(v.resources),
      modified_at: v.now,
    })
    .where('id', '=', id)
    .execute();
}

export async function deleteReport(db: Database, id: number) {
  await db.deleteFrom('oadr_reports').where('id', '=', id).execute();
}
