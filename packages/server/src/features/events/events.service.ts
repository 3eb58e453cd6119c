import { eventStateAt, type VppEvent, type VppEventState } from '@vpp/shared';
import { nowS } from '../../db/database.ts';
import type { AppContext } from '../../platform/context.ts';
import type { AuthUser } from '../../platform/guard.ts';
import { requirePowerstation } from '../vpps/index.ts';
import * as repo from './events.repo.ts';

/** Events of the organisation, or of one of its VPPs, in a state (INCOMPLETE: upcoming and in progress). */
export async function listEvents(
  ctx: AppContext,
  user: AuthUser,
  opts: { powerstationId?: number; state?: VppEventState | 'INCOMPLETE' },
): Promise<VppEvent[]> {
  if (opts.powerstationId !== undefined) await requirePowerstation(ctx, user, opts.powerstationId);
  const now = nowS();
  const rows = await repo.listEvents(ctx.db, user.organisationId, { ...opts, now });
  return rows.map((r) => ({
    id: r.id,
    type: r.type,
    startTime: Number(r.start_time),
    duration: Number(r.duration),
    state: eventStateAt(Number(r.start_time), Number(r.duration), now),
    powerstation: r.powerstation_id !== null ? { id: r.powerstation_id, name: r.powerstation_name ?? '' } : null,
  }));
}
