import { z } from 'zod';
import { nowS } from '../db/database.ts';
import { defineJob, type Recurring } from '../platform/jobs.ts';

/** How often the compaction's progress is logged while it runs (an upgrade of a large history). */
const PROGRESS_LOG_MS = 10_000;

/**
 * Packs the nodes' 5-minute history of local days that have ended into compacted days (issue 19),
 * every hour; after an upgrade the first run (at start: the worker runs the current hour's run at
 * once) moves the whole existing history, its progress in the log.
 */
export const telemetryCompactJob = defineJob('telemetry.compact', z.object({ at: z.number() }), async (ctx, _payload, run) => {
  let logged = Date.now();
  const done = await ctx.telemetry.compact(nowS(), (p) => {
    if (p.nodes === 0) run.log.info(`Compacting the telemetry history of ${p.of} ${p.of === 1 ? 'node' : 'nodes'}`);
    if (p.nodes === 0 || Date.now() - logged < PROGRESS_LOG_MS) return;
    logged = Date.now();
    run.log.info(`Compacting the telemetry history: ${p.nodes} of ${p.of} nodes, ${p.days} node-days packed`);
    void run.progress(p.nodes / p.of).catch(() => undefined);
  });
  if (done.days) run.log.info(`Compacted the telemetry history: ${done.days} node-days of ${done.nodes} ${done.nodes === 1 ? 'node' : 'nodes'}`);
});

export const TELEMETRY_COMPACT_RECURRING: Recurring = { kind: telemetryCompactJob.kind, periodS: 3600 };
