import { z } from 'zod';
import { defineJob, type Recurring } from '../../platform/jobs.ts';
import { pruneRun } from './openadr.repo.ts';
import { deliver, hasSubscriptions, queueScan, SCAN_KIND, SCAN_PERIOD_S, scanChanges, useDeliveryJob } from './openadr.service.ts';

/** Delivers one notification to one callback; retried with the queue's backoff when it fails. */
export const deliverNotificationJob = defineJob(
  'openadr.deliver',
  z.object({ subscriptionId: z.number().int(), callback: z.number().int().min(0), notification: z.unknown() }),
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
