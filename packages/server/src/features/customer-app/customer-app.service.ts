import { CUSTOMER_APP_MESSAGES } from '@vpp/shared/customer-app/messages';
import type { CustomerAppEventType, CustomerAppMessage, MessageReceipts } from '@vpp/shared/customer-app/schemas';
import { DISPATCH_MESSAGES } from '@vpp/shared/dispatches/messages';
import { DISPATCH_VIEW } from '@vpp/shared/dispatches/permissions';
import { OUTAGE_VIEW } from '@vpp/shared/outages/permissions';
import { type PermissionRequirement, satisfies } from '@vpp/shared/permissions/registry';
import { RERT_VIEW } from '@vpp/shared/rert/permissions';
import { nowS } from '../../db/database.ts';
import type { AppContext } from '../../platform/context.ts';
import { forbidden, notFound, unauthorized } from '../../platform/errors.ts';
import type { AuthUser } from '../../platform/guard.ts';
import { optOutOfDispatch } from '../dispatches/index.ts';
import { nodeOfAppToken, optOutOfOutage } from '../outages/index.ts';
import * as repo from './customer-app.repo.ts';

/** How many messages the app is answered: the newest. */
export const APP_MESSAGES_LIMIT = 100;

/** The node the bearer token pairs (401 when it names none). */
async function appNode(ctx: AppContext, authorization: string | undefined): Promise<number> {
  const token = /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1];
  const nodeId = token ? await nodeOfAppToken(ctx.db, token) : null;
  if (nodeId === null) throw unauthorized('unauthorized', CUSTOMER_APP_MESSAGES.badNodeToken);
  return nodeId;
}

function present(r: repo.AppMessageRow, now: number): CustomerAppMessage {
  const type = r.type as CustomerAppEventType;
  const dispatch = type !== 'GRID_OUTAGE';
  return {
    event: r.event,
    type,
    // A dispatch's empty title and text are the standard ones (spec 3 §4.1); an outage stored its own at creation.
    title: r.title || (dispatch ? DISPATCH_MESSAGES.defaultMessageTitle : ''),
    message: r.message || (dispatch ? DISPATCH_MESSAGES.defaultMessageText : ''),
    startTime: r.start_time,
    duration: r.duration,
    sentAt: r.sent_at,
    deliveredAt: r.delivered_at,
    readAt: r.read_at,
    optedOutAt: r.opted_out_at,
    canOptOut: r.opted_out_at === null && r.cancelled_at === null && r.start_time + r.duration > now,
  };
}

/** The app's messages, newest first. */
export async function appMessages(ctx: AppContext, authorization: string | undefined): Promise<{ messages: CustomerAppMessage[] }> {
  const nodeId = await appNode(ctx, authorization);
  const rows = await repo.nodeMessages(ctx.db, nodeId, { limit: APP_MESSAGES_LIMIT });
  const now = nowS();
  return { messages: rows.map((r) => present(r, now)) };
}

/** The app received an event's message (404 when none was sent to the home); the first time stands. */
export async function markDelivered(ctx: AppContext, authorization: string | undefined, eventId: number): Promise<{ deliveredAt: number }> {
  const nodeId = await appNode(ctx, authorization);
  const [row] = await repo.nodeMessages(ctx.db, nodeId, { event: eventId, limit: 1 });
  if (!row) throw notFound('event');
  if (row.delivered_at !== null) return { deliveredAt: row.delivered_at };
  const now = nowS();
  await repo.markReceipts(ctx.db, nodeId, [eventId], now);
  const [after] = await repo.nodeMessages(ctx.db, nodeId, { event: eventId, limit: 1 });
  return { deliveredAt: after?.delivered_at ?? now };
}

/** The customer read an event's message (404 when none was sent to the home); the first time stands. */
export async function markRead(ctx: AppContext, authorization: string | undefined, eventId: number): Promise<{ readAt: number }> {
  const nodeId = await appNode(ctx, authorization);
  const [row] = await repo.nodeMessages(ctx.db, nodeId, { event: eventId, limit: 1 });
  if (!row) throw notFound('event');
  if (row.read_at !== null) return { readAt: row.read_at };
  const now = nowS();
  await repo.markReceipts(ctx.db, nodeId, [eventId], now, true);
  const [after] = await repo.nodeMessages(ctx.db, nodeId, { event: eventId, limit: 1 });
  return { readAt: after?.read_at ?? now };
}

/** The app opts its home out of an event, by the event's kind: a grid outage, a dispatch or a RERT dispatch. */
export async function optOut(ctx: AppContext, authorization: string | undefined, eventId: number): Promise<{ optedOutAt: number }> {
  const nodeId = await appNode(ctx, authorization);
  const event = await repo.eventType(ctx.db, eventId);
  if (event?.type === 'GRID_OUTAGE') return optOutOfOutage(ctx, nodeId, eventId);
  if (event?.type === 'DISPATCH' || event?.type === 'RERT') return optOutOfDispatch(ctx, nodeId, eventId);
  throw notFound('event');
}

const VIEW_OF: Record<CustomerAppEventType, PermissionRequirement> = { DISPATCH: DISPATCH_VIEW, RERT: RERT_VIEW, GRID_OUTAGE: OUTAGE_VIEW };

/** Each node's copy of one of the organisation's events' message (404 for another's or a curtailment; 403 without the kind's view permission). */
export async function eventReceipts(ctx: AppContext, user: AuthUser, eventId: number, page: { limit: number; offset: number }): Promise<MessageReceipts> {
  const event = await repo.orgEvent(ctx.db, user.organisationId, eventId);
  const type = event?.type as CustomerAppEventType | undefined;
  if (!type || !(type in VIEW_OF)) throw notFound('event');
  if (!satisfies(user.permissions, VIEW_OF[type])) throw forbidden();
  const { page: rows, counts } = await repo.eventReceipts(ctx.db, eventId, type, page.limit, page.offset);
  return {
    summary: { sent: Number(counts.sent), delivered: Number(counts.delivered), read: Number(counts.read), optedOut: Number(counts.opted_out) },
    receipts: rows.map((r) => ({
      deployment_uid: r.node_id,
      nmi: r.nmi,
      sentAt: Number(r.sent_at),
      deliveredAt: r.delivered_at === null ? null : Number(r.delivered_at),
      readAt: r.read_at === null ? null : Number(r.read_at),
      optedOutAt: r.opted_out_at === null ? null : Number(r.opted_out_at),
    })),
    total: Number(counts.sent),
  };
}
