import { defineEndpoints, endpoint } from '../api/endpoint.ts';
import { statusReply } from '../api/envelope.ts';
import { markAllBody, notificationParams, notificationReply, notificationsQuery, notificationsReply } from './schemas.ts';

/** A user's own notifications: any signed-in user, and only theirs. */
export const notificationEndpoints = defineEndpoints('notifications', {
  list: endpoint({
    method: 'GET',
    access: 'read',
    path: '/account/notifications',
    summary: 'The caller’s notifications, newest first, with the unread count',
    permission: null,
    query: notificationsQuery,
    reply: notificationsReply,
  }),
  markAllRead: endpoint({
    method: 'PUT',
    access: 'write',
    path: '/account/notifications',
    summary: 'Mark every notification read',
    permission: null,
    body: markAllBody,
    reply: statusReply,
  }),
  get: endpoint({
    method: 'GET',
    access: 'read',
    path: '/account/notifications/:id',
    summary: 'One notification',
    permission: null,
    params: notificationParams,
    reply: notificationReply,
  }),
  markRead: endpoint({
    method: 'POST',
    access: 'write',
    path: '/account/notifications/:id/mark-read',
    summary: 'Mark a notification read',
    permission: null,
    params: notificationParams,
    reply: statusReply,
  }),
  markUnread: endpoint({
    method: 'POST',
    access: 'write',
    path: '/account/notifications/:id/mark-unread',
    summary: 'Mark a notification unread',
    permission: null,
    params: notificationParams,
    reply: statusReply,
  }),
});
