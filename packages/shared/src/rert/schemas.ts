import { z } from 'zod';
import { okReply } from '../api/envelope.ts';
import { createDispatchBody, DISPATCH_MESSAGE_LIMITS } from '../dispatches/schemas.ts';

/** `POST /api/rert-dispatches` (spec 3 §3.4): a dispatch's request without power factor or title. */
export const createRertBody = createDispatchBody.pick({
  powerstation: true,
  startTime: true,
  duration: true,
  realPowerP: true,
  customerMessage: true,
  strategy: true,
});
export type CreateRertBody = z.infer<typeof createRertBody>;

/** `POST /api/rert-dispatches/{id}/reschedule`: the new window and, optionally, a new customer message. */
export const rescheduleRertBody = z.object({
  startTime: createDispatchBody.shape.startTime,
  duration: createDispatchBody.shape.duration,
  customerAppMessage: z
    .string({ error: 'customerAppMessage must be text.' })
    .trim()
    .max(DISPATCH_MESSAGE_LIMITS.text, `customerAppMessage must be at most ${DISPATCH_MESSAGE_LIMITS.text} characters.`)
    .nullable()
    .optional(),
});
export type RescheduleRertBody = z.infer<typeof rescheduleRertBody>;
export const rescheduleRertReply = okReply(z.object({ id: z.number() }));
