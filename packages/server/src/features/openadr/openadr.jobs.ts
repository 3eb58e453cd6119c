import { z } from 'zod';
import { defineJob, type Recurring } from '../../platform/jobs.ts';
import { deliver, scanChanges, useDeliveryJob } from './openadr.service.ts';

/** Delivers one notification to one callback; retried with the queue's backoff when it fails. */
export const deliverNotificationJob = defineJob(
  'openadr.deliver',
  z.object({ subscriptionId: z.number().int(), callback: z.number().int().min(0), notification: z.unknown() }),
  async (ctx, payload) => deliver(ctx, payload),
);
useDeliveryJob(deliverNotificationJob);

/** Looks for the console's changed events every 5 s and queues their notifications. */
export const scanChangesJob = defineJob('openadr.scan', z.object({ at: z.number() }).loose(), async (ctx) => {
  await scanChanges(ctx);
});
export const SCAN_RECURRING: Recurring = { kind: scanChangesJob.kind, periodS: 5 };
