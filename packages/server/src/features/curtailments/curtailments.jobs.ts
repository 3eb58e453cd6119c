import { z } from 'zod';
import { nowS } from '../../db/database.ts';
import { defineJob, type Recurring } from '../../platform/jobs.ts';
import { runCurtailmentEngine } from './curtailments.orders.service.ts';

export const curtailmentEngineJob = defineJob('curtailment-engine', z.object({ at: z.number() }), async (ctx, payload) => {
  await runCurtailmentEngine(ctx, Math.max(payload.at, nowS()));
});

/** Every minute: limits go out within a minute of entering the 24-hour window, and re-splits happen every 5 minutes. */
export const CURTAILMENT_ENGINE_RECURRING: Recurring = { kind: curtailmentEngineJob.kind, periodS: 60 };
