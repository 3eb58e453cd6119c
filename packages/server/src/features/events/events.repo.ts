import type { VppEventState } from '@vpp/shared';
import { sql } from 'kysely';
import type { Database } from '../../db/database.ts';

/** Events of the organisation (or of one VPP) in a state; INCOMPLETE is upcoming or in progress. Cancelled events are left out. */
export async function listEvents(db: Database, orgId: number, opts: { powerstationId?: number; state?: VppEventState | 'INCOMPLETE'; now: number }) {
  let q = db
    .selectFrom('events')
    .leftJoin('powerstations', 'powerstations.id', 'events.powerstation_id')
    .select(['events.id', 'events.type', 'events.start_time', 'events.duration', 'events.powerstation_id', 'powerstations.name as powerstation_name'])
    .where('events.organisation_id', '=', orgId)
    .where('events.cancelled_at', 'is', null);
  if (opts.powerstationId !== undefined) q = q.where('events.powerstation_id', '=', opts.powerstationId);
  const end = sql<number>`events.start_time + events.duration`;
  if (opts.state === 'INCOMPLETE') q = q.where(end, '>', opts.now);
  else if (opts.state === 'UPCOMING') q = q.where('events.start_time', '>', opts.now);
  else if (opts.state === 'INPROGRESS') q = q.where('events.start_time', '<=', opts.now).where(end, '>', opts.now);
  else if (opts.state === 'COMPLETED') q = q.where(end, '<=', opts.now);
  return q.orderBy('events.start_time').orderBy('events.id').execute();
}
