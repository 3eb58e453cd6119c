import type { Selectable } from 'kysely';
import type { Database } from '../../db/database.ts';
import { memberNodes, type PowerstationRow } from '../vpps/index.ts';
import type { OadrVtnEventTable, OadrVtnStateTable } from './openadr.tables.ts';

// The console as a VEN of another VTN (issue 31 item 4): its connection and the events received.

export type VtnStateRow = Selectable<OadrVtnStateTable>;
export type VtnEventRow = Selectable<OadrVtnEventTable>;

export async function organisationByName(db: Database, name: string) {
  return db.selectFrom('organisations').select(['id', 'name']).where('name', '=', name).executeTakeFirst();
}

export async function state(db: Database, url: string): Promise<VtnStateRow | undefined> {
  return db.selectFrom('oadr_vtn_state').selectAll().where('vtn_url', '=', url).executeTakeFirst();
}

/**
 * Takes the poll's lease (one poll at a time across processes): true when this caller holds it until
 * `until`. The row is made on the first poll.
 */
export async function takeLease(db: Database, url: string, now: number, until: number): Promise<boolean> {
  await db
    .insertInto('oadr_vtn_state')
    .values({ vtn_url: url, ven_id: null, last_poll_at: null, last_ok_at: null, last_error: null, lease_until: null })
    .onConflict((oc) => oc.column('vtn_url').doNothing())
    .execute();
  const r = await db
    .updateTable('oadr_vtn_state')
    .set({ lease_until: until, last_poll_at: now })
    .where('vtn_url', '=', url)
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function saveState(db: Database, url: string, patch: Partial<Omit<VtnStateRow, 'vtn_url'>>): Promise<void> {
  await db.updateTable('oadr_vtn_state').set(patch).where('vtn_url', '=', url).execute();
}

export async function vtnEvents(db: Database, url: string): Promise<VtnEventRow[]> {
  return db.selectFrom('oadr_vtn_events').selectAll().where('vtn_url', '=', url).orderBy('id').execute();
}

/** The latest events received, for the OpenADR screen. */
export async function latestVtnEvents(db: Database, organisationId: number, limit: number): Promise<VtnEventRow[]> {
  return db
    .selectFrom('oadr_vtn_events')
    .selectAll()
    .where('organisation_id', '=', organisationId)
    .orderBy('updated_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

export async function insertVtnEvent(db: Database, row: Omit<VtnEventRow, 'id'>): Promise<void> {
  await db.insertInto('oadr_vtn_events').values(row).execute();
}

export async function updateVtnEvent(db: Database, id: number, patch: Partial<Omit<VtnEventRow, 'id' | 'vtn_url' | 'vtn_event_id'>>): Promise<void> {
  await db.updateTable('oadr_vtn_events').set(patch).where('id', '=', id).execute();
}

/** The organisation's VPPs (what a VTN's targets are matched against). */
export async function organisationVpps(db: Database, organisationId: number): Promise<PowerstationRow[]> {
  return db.selectFrom('powerstations').selectAll().where('organisation_id', '=', organisationId).orderBy('id').execute();
}

/** Whether the VPP has a member node with one of these NMIs or postcodes. */
export async function vppCovers(db: Database, ps: PowerstationRow, on: { nmis: string[]; postcodes: string[] }): Promise<boolean> {
  if (!on.nmis.length && !on.postcodes.length) return false;
  const hit = await memberNodes(db, ps)
    .select('nodes.id')
    .where((eb) =>
      eb.or([...(on.nmis.length ? [eb('nodes.nmi', 'in', on.nmis)] : []), ...(on.postcodes.length ? [eb('nodes.postcode', 'in', on.postcodes)] : [])]),
    )
    .limit(1)
    .executeTakeFirst();
  return hit !== undefined;
}
