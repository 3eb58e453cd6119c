import { z } from 'zod';
import { okReply } from '../api/envelope.ts';
import { pagingFields } from '../api/inputs.ts';

/** The kinds of event a customer hears of in the app, and may opt out of (issue 34 item 12). */
export const CUSTOMER_APP_EVENT_TYPES = ['DISPATCH', 'RERT', 'GRID_OUTAGE'] as const;
export type CustomerAppEventType = (typeof CUSTOMER_APP_EVENT_TYPES)[number];

/** A message as the customer app shows it: the event it tells of, when it came and what the customer did. */
export const customerAppMessageSchema = z.object({
  event: z.number(),
  type: z.enum(CUSTOMER_APP_EVENT_TYPES),
  title: z.string(),
  message: z.string(),
  startTime: z.number(),
  duration: z.number(),
  sentAt: z.number(),
  deliveredAt: z.number().nullable(),
  readAt: z.number().nullable(),
  optedOutAt: z.number().nullable(),
  /** True while the event has not ended nor been cancelled and the customer has not opted out. */
  canOptOut: z.boolean(),
});
export type CustomerAppMessage = z.infer<typeof customerAppMessageSchema>;
export const customerAppMessagesReply = okReply(z.object({ messages: z.array(customerAppMessageSchema) }));
export const customerAppDeliveredReply = okReply(z.object({ deliveredAt: z.number() }));
export const customerAppReadReply = okReply(z.object({ readAt: z.number() }));
export const optOutReply = okReply(z.object({ optedOutAt: z.number() }));

/** One node's copy of an event's customer message, as the console sees it. */
export const messageReceiptSchema = z.object({
  deployment_uid: z.number(),
  nmi: z.string(),
  sentAt: z.number(),
  deliveredAt: z.number().nullable(),
  readAt: z.number().nullable(),
  optedOutAt: z.number().nullable(),
});
export type MessageReceipt = z.infer<typeof messageReceiptSchema>;

export const messageReceiptsQuery = z.object(pagingFields(100, 10));
export const messageReceiptsSchema = z.object({
  /** Nodes sent the message; of those, the ones whose app received it, read it, and opted out. */
  summary: z.object({ sent: z.number(), delivered: z.number(), read: z.number(), optedOut: z.number() }),
  receipts: z.array(messageReceiptSchema),
  total: z.number(),
});
export type MessageReceipts = z.infer<typeof messageReceiptsSchema>;
export const messageReceiptsReply = okReply(messageReceiptsSchema);
