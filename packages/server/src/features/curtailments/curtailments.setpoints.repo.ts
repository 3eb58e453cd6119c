import type { Database } from '../../db/database.ts';

// The default setpoints' SQL.

function setpointQuery(db: Database, orgId: number) {
  return db
    .selectFrom('curtailment_setpoints as s')
    .leftJoin('powerstations as ps', 'ps.id', 's.powerstation_id')
    .select((eb) => [
      's.id',
      's.powerstation_id',
      'ps.name as powerstation_name',
      's.created_at',
      's.ramp_duration',
      's.solar_limit',
      's.grid_limit',
      's.removed_at',
      // A newer setpoint of the same VPP makes this one INACTIVE; so does its removal.
      eb
        .case()
        .when('s.removed_at', 'is not', null)
        .then(1)
        .when(
          eb.exists(
            eb
              .selectFrom('curtailment_setpoints as n')
              .select('n.id')
              .whereRef('n.powerstation_id', '=', 's.powerstation_id')
              .where((w) =>
                w.or([w('n.created_at', '>', w.ref('s.created_at')), w.and([w('n.created_at', '=', w.ref('s.created_at')), w('n.id', '>', w.ref('s.id'))])]),
              ),
          ),
        )
        .then(1)
        .else(0)
        .end()
        .as('inactive'),
    ])
    .where('s.organisation_id', '=', orgId)
    .where('s.powerstation_id', 'is not', null);
}

/** One setpoint of the organisation, with whether it is inactive. */
export async function findSetpoint(db: Database, orgId: number, id: number) {
  return setpointQuery(db, orgId).where('s.id', '=', id).executeTakeFirst();
}

/** The organisation's setpoints (of one VPP when given), newest first, within the same creation time the ACTIVE one first: a page, and how many there are. */
export async function pageSetpoints(db: Database, orgId: number, q: { limit: number; offset: number }, powerstationId?: number) {
  let rows = setpointQuery(db, orgId);
  let count = db
    .selectFrom('curtailment_setpoints')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('organisation_id', '=', orgId)
    .where('powerstation_id', 'is not', null);
  if (powerstationId !== undefined) {
    rows = rows.where('s.powerstation_id', '=', powerstationId);
    count = count.where('powerstation_id', '=', powerstationId);
  }
  const [list, total] = await Promise.all([
    rows.orderBy('s.created_at', 'desc').orderBy('inactive').orderBy('s.id', 'desc').limit(q.limit).offset(q.offset).execute(),
    count.executeTakeFirstOrThrow(),
  ]);
  return { list, total: Number(total.n) };
}

/** A new setpoint of the organisation's VPP; answers its id. */
export async function insertSetpoint(
  db: Database,
  row: {
    organisation_id: number;
    powerstation_id: number;
    created_at: number;
    created_by: number;
    ramp_duration: number;
    solar_limit: number;
    grid_limit: number;
  },
): Promise<number> {
  const { id } = await db
    .insertInto('curtailment_setpoints')
    .values({ ...row, orders_sent_at: null, checked_at: null, removed_at: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** Marks a setpoint removed at `now`, once: answers whether this call removed it. */
export async function markRemoved(db: Database, id: number, now: number): Promise<boolean> {
  const done = await db.updateTable('curtailment_setpoints').set({ removed_at: now }).where('id', '=', id).where('removed_at', 'is', null).executeTakeFirst();
  return Number(done.numUpdatedRows) === 1;
}

/** The newest setpoint of each VPP (by creation time, then id): the ACTIVE ones. */
export async function activeSetpoints(db: Database) {
  return db
    .selectFrom('curtailment_setpoints as s')
    .innerJoin('powerstations as ps', 'ps.id', 's.powerstation_id')
    .selectAll('s')
    .select('ps.organisation_id')
    .where('s.removed_at', 'is', null)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('curtailment_setpoints as n')
            .select('n.id')
            .whereRef('n.powerstation_id', '=', 's.powerstation_id')
            .where((w) =>
              w.or([w('n.created_at', '>', w.ref('s.created_at')), w.and([w('n.created_at', '=', w.ref('s.created_at')), w('n.id', '>', w.ref('s.id'))])]),
            ),
        ),
      ),
    )
    .orderBy('s.id')
    .execute();
}

export type SetpointRow = Awaited<ReturnType<typeof activeSetpoints>>[number];

/** The VPP's other setpoints whose limits were sent, newest first. */
export async function sentSetpoints(db: Database, powerstationId: number | null, exceptId: number) {
  return db
    .selectFrom('curtailment_setpoints')
    .select('id')
    .where('powerstation_id', '=', powerstationId)
    .where('id', '!=', exceptId)
    .where('orders_sent_at', 'is not', null)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/** The setpoints of deleted VPPs whose limits were sent. */
export async function orphanSetpoints(db: Database) {
  return db.selectFrom('curtailment_setpoints').select('id').where('powerstation_id', 'is', null).where('orders_sent_at', 'is not', null).execute();
}

/** Marks a setpoint's limits sent at `now` (checked in its bucket), once. */
export async function markSetpointSent(db: Database, id: number, now: number, bucket: number): Promise<boolean> {
  const mark = await db
    .updateTable('curtailment_setpoints')
    .set({ orders_sent_at: now, checked_at: bucket })
    .where('id', '=', id)
    .where('orders_sent_at', 'is', null)
    .executeTakeFirst();
  return Number(mark.numUpdatedRows) === 1;
}

/** Marks a setpoint checked in the 5-minute bucket `bucket`, once per bucket. */
export async function markSetpointChecked(db: Database, id: number, bucket: number): Promise<boolean> {
  const mark = await db
    .updateTable('curtailment_setpoints')
    .set({ checked_at: bucket })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('checked_at', 'is', null), eb('checked_at', '<', bucket)]))
    .executeTakeFirst();
  return Number(mark.numUpdatedRows) === 1;
}
