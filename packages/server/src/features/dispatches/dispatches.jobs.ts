import { z } from 'zod';
import { nowS } from '../../db/database.ts';
import { defineJob, type Recurring } from '../../platform/jobs.ts';
import { runDispatchEngine } from './dispatches.orders.service.ts';

export const dispatchEngineJob = defineJob('dispatch-engine', z.object({ at: z.number() }), async (ctx, payload) => {
  await runDispatchEngine(ctx, Math.max(payload.at, nowS()));
});

/** Every minute: orders go out within a minute of entering the 24-hour window, and drop-outs are caught every 5 minutes. */
export const DISPATCH_ENGINE_RECURRING: Recurring = { kind: dispatchEngineJob.kind, periodS: 60 };
