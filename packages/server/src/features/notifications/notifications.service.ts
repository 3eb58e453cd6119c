import type { AlertEmailFrequency } from '@vpp/shared/constants';
import { digestDueAt, digestPeriodS } from '@vpp/shared/notifications/digest';
import type { Notification } from '@vpp/shared/notifications/schemas';
import { type PermissionRequirement, satisfies } from '@vpp/shared/permissions/registry';
import { z } from 'zod';
import type { Database } from '../../db/database.ts';
import type { AppContext } from '../../platform/context.ts';
import { notFound } from '../../platform/errors.ts';
import { defineJob } from '../../platform/jobs.ts';
import { sendMail } from '../../platform/mail.ts';
import { getPermissions } from '../auth/index.ts';
import * as repo from './notifications.repo.ts';

/** What a notification says: a one-line summary and a markdown body. */
export interface NotificationContent {
  summary: string;
  body: string;
}

export const DIGEST_JOB = 'notifications.digest';
/** The digest job runs at the top of every hour and sends whichever users' digests are due. */
export const DIGEST_RECURRING = { kind: DIGEST_JOB, periodS: 3600 };

const DEFAULT_TIME_ZONE = 'Australia/Sydney';

function present(r: { id: number; created_at: number; summary: string; body: string; read_at: number | null }): Notification {
  return { id: r.id, createdAt: r.created_at, summary: r.summary, body: r.body, read: r.read_at !== null };
}

/**
 * Stores the notification for each recipient and, for those who want alerts at once (NOW),
 * queues the e-mail in the same transaction. Answers how many users were notified.
 */
async function deliver(ctx: AppContext, users: repo.Recipient[], content: NotificationContent): Promise<number> {
  if (!users.length) return 0;
  const summary = content.summary.slice(0, 500);
  await ctx.db.transaction().execute(async (trx) => {
    const rows = await repo.insertNotifications(
      trx,
      users.map((u) => ({ organisationId: u.organisation_id, userId: u.id, summary, body: content.body })),
    );
    const now = rows.filter((r) => users.find((u) => u.id === r.user_id)?.alert_email_frequency === 'NOW');
    for (const r of now) {
      const u = users.find((x) => x.id === r.user_id) as repo.Recipient;
      await sendMail(trx, alertMail(ctx, u, [{ id: r.id, summary, body: content.body }], 'NOW'));
    }
    await repo.markEmailed(
      trx,
      now.map((r) => r.id),
    );
  });
  return users.length;
}

/**
 * Notifies every active user of an organisation (for example: a node of its fleet went offline or
 * came back). With `permission`, only the users who hold it. E-mails follow each user's alert
 * frequency: NOW at once, HOURLY, DAILY and WEEKLY in digests, NEVER none.
 */
export async function notifyOrganisation(
  ctx: AppContext,
  organisationId: number,
  content: NotificationContent,
  opts: { permission?: PermissionRequirement } = {},
): Promise<number> {
  let users = await repo.recipients(ctx.db, organisationId);
  if (opts.permission) {
    const allowed = await Promise.all(users.map(async (u) => satisfies(await getPermissions(ctx.db, u.id), opts.permission as PermissionRequirement)));
    users = users.filter((_, i) => allowed[i]);
  }
  return deliver(ctx, users, content);
}

/** Notifies one user, by the same rules as notifyOrganisation. */
export async function notifyUser(ctx: AppContext, userId: number, content: NotificationContent): Promise<number> {
  const user = await repo.recipient(ctx.db, userId);
  return deliver(ctx, user ? [user] : [], content);
}

export async function listNotifications(ctx: AppContext, userId: number, page: { limit: number; offset: number }) {
  const { rows, total, unread } = await repo.listForUser(ctx.db, userId, page);
  return { notifications: rows.map(present), total, unread };
}

export async function getNotification(ctx: AppContext, userId: number, id: number): Promise<Notification> {
  const row = await repo.findForUser(ctx.db, userId, id);
  if (!row) throw notFound('notification');
  return present(row);
}

export async function setRead(ctx: AppContext, userId: number, id: number, read: boolean): Promise<void> {
  if (!(await repo.setRead(ctx.db, userId, id, read))) throw notFound('notification');
}

export async function markAllRead(ctx: AppContext, userId: number): Promise<void> {
  await repo.markAllRead(ctx.db, userId);
}

const PERIOD_WORD: Record<AlertEmailFrequency, string> = { NOW: 'immediately', HOURLY: 'hourly', DAILY: 'daily', WEEKLY: 'weekly', NEVER: 'never' };

function alertMail(ctx: AppContext, user: repo.Recipient, items: { id: number; summary: string; body: string }[], frequency: AlertEmailFrequency) {
  const base = ctx.config.publicUrl;
  const footer = ['', `You receive these emails ${PERIOD_WORD[frequency]}. Change how often in User Settings: ${base}/user/settings`];
  if (frequency === 'NOW') {
    const [n] = items;
    return {
      to: user.email,
      subject: `VPP Console alert: ${n.summary}`,
      text: [n.summary, '', n.body, '', `Open it in the console: ${base}/user/notifications/${n.id}`, ...footer].join('\n'),
    };
  }
  const lines = items.flatMap((n) => [`- ${n.summary}`, `  ${base}/user/notifications/${n.id}`]);
  return {
    to: user.email,
    subject: `VPP Console ${PERIOD_WORD[frequency]} alert digest: ${items.length} notification${items.length === 1 ? '' : 's'}`,
    text: [
      `Hello ${user.given_name},`,
      '',
      `${items.length === 1 ? 'One notification' : `${items.length} notifications`} since your last digest:`,
      '',
      ...lines,
      ...footer,
    ].join('\n'),
  };
}

/**
 * One run of the hourly digest job (`at` is its hour). A user with HOURLY, DAILY or WEEKLY alerts
 * has a digest due at each top of the hour, each 07:00 local, or each Monday 07:00 local; the
 * latest due time not yet handled gets one e-mail with the notifications created since the one
 * before (and not e-mailed yet). A run missed while no server was up is caught up by the next one.
 */
export async function sendDigests(ctx: AppContext, at: number): Promise<number> {
  let sent = 0;
  for (const user of await repo.digestUsers(ctx.db)) {
    const frequency = user.alert_email_frequency as AlertEmailFrequency;
    const due = digestDueAt(frequency, at, user.timezone ?? DEFAULT_TIME_ZONE);
    if (due === null || (user.alert_digest_at !== null && user.alert_digest_at >= due)) continue;
    const after = user.alert_digest_at ?? due - digestPeriodS(frequency);
    await ctx.db.transaction().execute(async (trx: Database) => {
      const items = await repo.unemailed(trx, user.id, after, due);
      if (items.length) {
        await sendMail(trx, alertMail(ctx, user, items, frequency));
        await repo.markEmailed(
          trx,
          items.map((n) => n.id),
        );
        sent++;
      }
      await repo.setDigestAt(trx, user.id, due);
    });
  }
  return sent;
}

/** The hourly run that e-mails each user the digest their setting asks for. */
export const digestJob = defineJob(DIGEST_JOB, z.object({ at: z.number().int() }), async (ctx, payload) => {
  await sendDigests(ctx, payload.at);
});
