import { billingEndpoints as E } from '@vpp/shared/billing/endpoints';
import { BILLING_MESSAGES } from '@vpp/shared/billing/messages';
import { GRIDCREDITS_VIEW, INVOICES_VIEW } from '@vpp/shared/billing/permissions';
import { satisfies } from '@vpp/shared/permissions/registry';
import type { FastifyReply } from 'fastify';
import { streamEncoding } from '../../platform/compression.ts';
import { downloadPathOf, issueDownloadToken } from '../../platform/downloads.ts';
import { ApiError, badRequest, forbidden } from '../../platform/errors.ts';
import { caller } from '../../platform/guard.ts';
import { type App, route } from '../../platform/http.ts';
import { eventsCsv, summaryCsv } from './billing.csv.service.ts';
import { invoiceFilename, listInvoices, requireInvoice, setPaid } from './billing.invoices.service.ts';
import { renderInvoicePdf } from './billing.pdf.ts';
import * as service from './billing.service.ts';

const ok = { status: 'OK' as const };

const attachment = (reply: FastifyReply, type: string, filename: string) =>
  reply.header('Content-Type', type).header('Content-Disposition', `attachment; filename="${filename}"`).header('Cache-Control', 'no-store');

/** The downloads a token may be asked for, and the permission each needs (checked again when the link is opened). */
function downloadPermission(path: string) {
  const pathname = path.split('?')[0];
  if (pathname === E.eventsCsv.path || pathname === E.monthCsv.path) return GRIDCREDITS_VIEW;
  if (/^\/invoices\/\d+\/[A-Za-z0-9][A-Za-z0-9._-]*\.pdf$/.test(pathname)) return INVOICES_VIEW;
  return null;
}

export function billingRoutes(app: App) {
  route(app, E.items, async (req) => ({ ...ok, data: await service.listItems(app.ctx, caller(req), req.query) }));
  route(app, E.customers, async (req) => ({ ...ok, data: await service.customerCounts(app.ctx, caller(req), req.query.interval) }));
  route(app, E.monthly, async (req) => ({ ...ok, data: await service.monthly(app.ctx, caller(req)) }));

  route(app, E.eventsCsv, async (req, reply) => {
    const user = caller(req);
    service.checkRange(user, req.query);
    attachment(reply, 'text/csv; charset=utf-8', `gridcredits-events-${req.query.start}-to-${req.query.end}.csv`);
    // In the worker the file is compressed there, in what the server's compression would choose.
    const inWorker = app.ctx.config.CSV_IN_WORKER;
    const encoding = inWorker && req.headers['x-no-compression'] === undefined ? streamEncoding(req.headers['accept-encoding']) : null;
    if (encoding) reply.header('content-encoding', encoding).header('vary', 'accept-encoding');
    return reply.send(
      eventsCsv(app.ctx.db, user.organisationId, req.query.start, req.query.end, { thread: inWorker ? 'worker' : 'request', encoding: encoding ?? undefined }),
    );
  });
  route(app, E.monthCsv, async (req, reply) => {
    const user = caller(req);
    service.checkRange(user, req.query);
    attachment(reply, 'text/csv; charset=utf-8', `gridcredits-summary-${req.query.start}-to-${req.query.end}.csv`);
    return reply.send(summaryCsv(app.ctx.db, user.organisationId, req.query.start, req.query.end));
  });

  route(app, E.invoices, async (req) => ({ ...ok, data: await listInvoices(app.ctx, caller(req)) }));
  route(app, E.invoicePaid, async (req) => ({ ...ok, data: await setPaid(app.ctx, caller(req), req.params.id, req.body.paid) }));
  route(app, E.invoicePdf, async (req, reply) => {
    const inv = await requireInvoice(app.ctx.db, caller(req), req.params.id);
    if (req.params.filename !== `${invoiceFilename(inv.number)}.pdf`) throw new ApiError(404, 'not_found', BILLING_MESSAGES.invoiceNotFound);
    const pdf = await renderInvoicePdf({
      ...inv,
      subtotal_cents: Number(inv.subtotal_cents),
      gst_cents: Number(inv.gst_cents),
      total_cents: Number(inv.total_cents),
      lines: inv.lines.map((l) => ({ ...l, unit_cents: Number(l.unit_cents), amount_cents: Number(l.amount_cents) })),
    });
    attachment(reply, 'application/pdf', req.params.filename);
    return reply.send(pdf);
  });

  route(app, E.downloadToken, async (req) => {
    const user = caller(req);
    const path = req.body.path.trim();
    if (!path.startsWith('/') || path.startsWith('//')) throw badRequest(BILLING_MESSAGES.downloadPathRefused);
    const permission = downloadPermission(downloadPathOf(path));
    if (!permission) throw badRequest(BILLING_MESSAGES.downloadPathRefused);
    if (!satisfies(user.permissions, permission)) throw forbidden();
    const t = await issueDownloadToken(app.ctx.db, { userId: user.id, organisationId: user.organisationId, path });
    return { ...ok, data: { token: t.token, expiresAt: t.expiresAt, url: `${t.path}${t.path.includes('?') ? '&' : '?'}token=${encodeURIComponent(t.token)}` } };
  });
}
