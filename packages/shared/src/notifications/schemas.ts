import { z } from 'zod';
import { okReply } from '../api/envelope.ts';
import { pagingFields, recordId } from '../api/inputs.ts';
import { DEFAULT_PAGE_SIZE } from '../constants.ts';

/** The texts of the notification screens (spec 1 §2, §8). */
export const NOTIFICATION_MESSAGES = {
  empty: 'You currently have no notifications.',
  listFailed: 'Unable to load notifications.',
  oneFailed: 'Unable to load notification.',
  markReadFailed: 'Unable to mark notification as read.',
  markUnreadFailed: 'Unable to mark notification as unread.',
  markAllFailed: 'Unable to mark notifications as read.',
  markAllRequired: 'Send {"markRead": true} to mark every notification as read.',
} as const;

/** Notification polling (spec 1 §9): first fetch 1 s after mount, then every 5 minutes. */
export const NOTIFICATION_FIRST_FETCH_MS = 1000;
export const NOTIFICATION_POLL_MS = 300_000;
/** An unread notification that is opened is marked read after about a second. */
export const NOTIFICATION_AUTO_READ_MS = 1000;

export const notification = z.object({
  id: z.number(),
  /** Epoch seconds. */
  createdAt: z.number(),
  summary: z.string(),
  /** Markdown. */
  body: z.string(),
  read: z.boolean(),
});
export type Notification = z.infer<typeof notification>;

export const notificationsQuery = z.object(pagingFields(200, DEFAULT_PAGE_SIZE));

export const notificationParams = z.object({ id: recordId('notification') });

export const notificationsReply = okReply(z.object({ notifications: z.array(notification), total: z.number(), unread: z.number() }));
export const notificationReply = okReply(notification);

export const markAllBody = z.object({ markRead: z.literal(true, { error: NOTIFICATION_MESSAGES.markAllRequired }) });
