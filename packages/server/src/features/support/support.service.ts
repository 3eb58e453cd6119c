import { randomInt } from 'node:crypto';
import { formatDateTime } from '@vpp/shared/format';
import { supportRateLimitMessage } from '@vpp/shared/support/messages';
import { SUPPORT_CATEGORY_LABELS, type SupportRequest, type supportRequestBody } from '@vpp/shared/support/schemas';
import type { z } from 'zod';
import { nowS } from '../../db/database.ts';
import type { AppContext } from '../../platform/context.ts';
import { notFound, tooManyRequests } from '../../platform/errors.ts';
import type { AuthUser } from '../../platform/guard.ts';
import { sendMail } from '../../platform/mail.ts';
import * as repo from './support.repo.ts';

const HOUR = 3600;

// No 0/O or 1/I/L: a reference is read out over the phone and typed from an e-mail.
const REFERENCE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';

/**
 * A reference like SR-7K3M9QWD: random rather than the row's id, so that it tells nobody how many
 * requests there have been. 31^8 values make a clash vanishingly rare; the unique index refuses one.
 */
export function newReference(): string {
  let s = '';
  for (let i = 0; i < 8; i++) s += REFERENCE_ALPHABET[randomInt(REFERENCE_ALPHABET.length)];
  return `SR-${s}`;
}

type Row = Awaited<ReturnType<typeof repo.insertRequest>>;

/** What leaves the server of one request: no contact details or description, which the user already has. */
const present = (r: Row): SupportRequest => ({
  id: r.id,
  reference: r.reference,
  subject: r.subject,
  category: r.category,
  nodeId: r.node_id,
  createdAt: Number(r.created_at),
});

export function settings(ctx: AppContext) {
  return { formUrl: ctx.config.SUPPORT_FORM_URL ?? null, maxRequestsPerHour: ctx.config.SUPPORT_MAX_REQUESTS_PER_HOUR };
}

export async function listRequests(ctx: AppContext, user: AuthUser, limit: number, offset: number) {
  const { rows, total } = await repo.listRequests(ctx.db, user.organisationId, user.id, limit, offset);
  return { requests: rows.map(present), total };
}

/**
 * Stores the request and queues its e-mail to SUPPORT_EMAIL in one transaction (so a request is
 * never stored without its e-mail, nor e-mailed without being stored), after checking the hourly
 * limit inside that transaction.
 */
export async function createRequest(ctx: AppContext, user: AuthUser, body: z.output<typeof supportRequestBody>): Promise<SupportRequest> {
  const node = body.nodeId ? await repo.findFleetNode(ctx.db, user.organisationId, body.nodeId) : null;
  // A node outside the caller's fleet is as unknown as one that does not exist.
  if (body.nodeId && !node) throw notFound('node');
  const max = ctx.config.SUPPORT_MAX_REQUESTS_PER_HOUR;
  return ctx.db.transaction().execute(async (trx) => {
    await repo.lockUser(trx, ctx.dialect, user.id);
    const now = nowS();
    const recent = await repo.sentSince(trx, user.id, now - HOUR);
    if (recent.length >= max) {
      // The oldest request in the window leaves it first: that is when the next one may go.
      const waitS = recent[recent.length - max] + HOUR - now;
      throw tooManyRequests(supportRateLimitMessage(max, Math.max(1, Math.ceil(waitS / 60))));
    }
    const row = await repo.insertRequest(trx, {
      reference: newReference(),
      organisation_id: user.organisationId,
      user_id: user.id,
      subject: body.subject,
      category: body.category,
      node_id: node?.id ?? null,
      node_nmi: node?.nmi ?? null,
      node_serial: node?.serial_number ?? null,
      description: body.description,
      contact_name: body.contactName,
      contact_email: body.contactEmail,
      contact_phone: body.contactPhone,
      created_at: now,
    });
    const u = user.row;
    const zone = u.timezone ?? 'Australia/Sydney';
    // Plain text a help desk (Zendesk, Freshdesk) turns into a ticket: the reference leads the
    // subject so that the desk's replies and the user's follow-ups thread on it, and a reply goes to
    // the contact address given.
    await sendMail(trx, {
      to: ctx.config.SUPPORT_EMAIL,
      replyTo: `"${body.contactName.replace(/["\\]/g, '')}" <${body.contactEmail}>`,
      subject: `[${row.reference}] ${body.subject}`,
      text: [
        `Support request ${row.reference}`,
        '',
        `Category: ${SUPPORT_CATEGORY_LABELS[body.category]}`,
        `From: ${body.contactName} <${body.contactEmail}>${body.contactPhone ? `, phone ${body.contactPhone}` : ''}`,
        `Account: ${u.username} (${u.given_name} ${u.surname}, ${u.email}, user ${u.id}) of ${u.organisation_name} (${u.suborg_type}, organisation ${u.organisation_id})`,
        ...(node
          ? [
              `Node: id ${node.id}, NMI ${node.nmi}, serial ${node.serial_number}`,
              `Site: ${node.site_label ? `${node.site_label}, ` : ''}${node.street}, ${node.suburb} ${node.state} ${node.postcode}`,
              `Node page: ${ctx.config.publicUrl}/fleet-monitoring/nodes/${node.id}`,
            ]
          : ['Node: none chosen']),
        `Sent: ${new Date(now * 1000).toISOString()} (${formatDateTime(now, zone)} ${zone})`,
        '',
        body.description,
      ].join('\n'),
    });
    return present(row);
  });
}
