import { z } from 'zod';
import { nowS } from '../../db/database.ts';
import { defineJob, type Recurring } from '../../platform/jobs.ts';
import { runOutageEngine } from './outages.orders.service.ts';

export const outageEngineJob = defineJob('outage-engine', z.object({ at: z.number() }), async (ctx, payload) => {
  await runOutageEngine(ctx, Math.max(payload.at, nowS()));
});

/** Every minute: orders go out within a minute of entering the 24-hour window. */
export const OUTAGE_ENGINE_RECURRING: Recurring = { kind: outageEngineJob.kind, periodS: 60 };
