import { z } from 'zod';
import type { AppContext } from '../../platform/context.ts';
import { defineJob, enqueue, type Recurring } from '../../platform/jobs.ts';
import { pruneRun } from './openadr.repo.ts';
import { DELIVERY_BATCH, deliver, hasSubscriptions, queueScan, SCAN_KIND, SCAN_PERIOD_S, scanChanges, useDeliveryJob } from './openadr.service.ts';
import { syncWithVtn, VEN_SYNC_KIND } from './openadr.ven.service.ts';

const target = z.object({ subscriptionId: z.number().int(), callback: z.number().int().min(0) });

/** Delivers one notification to its callbacks (a batch of a fan-out, or one retried with the queue's backoff). */
export const deliverNotificationJob = defineJob(
  'openadr.deliver',
  z.union([
    z.object({ targets: z.array(target).min(1).max(DELIVERY_BATCH), notification: z.unknown() }),
    // A job queued before the batches: one callback.
    target
      .extend({ notification: z.unknown() })
      .transform(({ notification, ...t }: { subscriptionId: number; callback: number; notification: unknown }) => ({ targets: [t], notification })),
  ]),
  async (ctx, payload) => deliver(ctx, payload),
);
useDeliveryJob(deliverNotificationJob);

/** A scan looks back this far before its own run (a change stamped before its commit, a late run). */
const SCAN_OVERLAP_S = 15;
/** How long a finished scan run is kept (the queue's own sweep keeps finished jobs a week). */
const SCAN_KEEP_S = 600;

/**
 * Looks for the console's changed events and VPPs and queues their notifications. While any
 * subscription is active it queues its own next run 5 s on (the queue's housekeeping otherwise
 * makes sure of one a minute), and it deletes its run of ten minutes before, so that the jobs table
 * holds about 120 of its rows instead of a week's 120,000.
 */
export const scanChangesJob = defineJob(SCAN_KIND, z.object({ at: z.number() }).loose(), async (ctx, payload) => {
  await scanChanges(ctx, undefined, payload.at - SCAN_PERIOD_S - SCAN_OVERLAP_S);
  await pruneRun(ctx.db, SCAN_KIND, payload.at - SCAN_KEEP_S);
  if (await hasSubscriptions(ctx)) await queueScan(ctx.db, payload.at + SCAN_PERIOD_S);
});
export const SCAN_RECURRING: Recurring = { kind: SCAN_KIND, periodS: SCAN_PERIOD_S };

/**
 * The console as a VEN (OPENADR_VTN_URL): one poll of the VTN. The recurring run comes every
 * minute; with OPENADR_POLL_S under a minute each run queues the next, and a notification from the
 * VTN queues one at once.
 */
export const venSyncJob = defineJob(VEN_SYNC_KIND, z.object({ at: z.number() }).loose(), async (ctx, payload) => {
  const settings = ctx.config.openadrVtn;
  if (!settings) return;
  await syncWithVtn(ctx);
  await pruneRun(ctx.db, VEN_SYNC_KIND, payload.at - SCAN_KEEP_S);
  if (settings.pollS < VEN_SYNC_RECURRING.periodS) await queueVenSync(ctx.db, Math.ceil((payload.at + 1) / settings.pollS) * settings.pollS);
});
export const VEN_SYNC_RECURRING: Recurring = { kind: VEN_SYNC_KIND, periodS: 60 };

/** Queues a poll of the VTN at `at` (once per second, whoever asks). */
export async function queueVenSync(db: AppContext['db'], at: number): Promise<void> {
  await enqueue(db, VEN_SYNC_KIND, { at }, { runAt: at, uniqueKey: `${VEN_SYNC_KIND}@${at}` });
}
