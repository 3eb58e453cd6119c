import { KIT_MESSAGES } from '@vpp/shared/kit-designer/messages';
import { designOrder } from '@vpp/shared/kit-designer/rules';
import type { BatteryType, InverterType, KitDesign, KitOrder, KitOrderLine, kitEmailBody } from '@vpp/shared/kit-designer/schemas';
import type { z } from 'zod';
import { nowS } from '../../db/database.ts';
import type { AppContext } from '../../platform/context.ts';
import { badRequest, notFound } from '../../platform/errors.ts';
import type { AuthUser } from '../../platform/guard.ts';
import { sendMail } from '../../platform/mail.ts';
import * as repo from './kit-designer.repo.ts';

/**
 * The catalogue, or the part of it that fits one inverter type (it and its batteries) or one battery
 * type (it and the inverters that take it); both: the pair, if they fit.
 */
export async function options(
  ctx: AppContext,
  q: { inverterTypeId?: number; batteryTypeId?: number },
): Promise<{ inverterTypes: InverterType[]; batteryTypes: BatteryType[] }> {
  const all = await repo.catalogue(ctx.db);
  let inverterTypes = [...all.inverterTypes];
  let batteryTypes = [...all.batteryTypes];
  if (q.inverterTypeId !== undefined) {
    const inverter = inverterTypes.find((t) => t.id === q.inverterTypeId);
    if (!inverter) throw notFound('inverter type');
    inverterTypes = [inverter];
    batteryTypes = batteryTypes.filter((b) => inverter.compatibleBatteryTypes.includes(b.id));
  }
  if (q.batteryTypeId !== undefined) {
    const battery = all.batteryTypes.find((t) => t.id === q.batteryTypeId);
    if (!battery) throw notFound('battery type');
    inverterTypes = inverterTypes.filter((t) => t.compatibleBatteryTypes.includes(battery.id));
    batteryTypes = batteryTypes.filter((b) => b.id === battery.id);
  }
  return { inverterTypes, batteryTypes };
}

export async function design(ctx: AppContext, d: KitDesign) {
  return designOrder(d, await repo.catalogue(ctx.db));
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
const cell = (v: number | null) => (v === null ? '' : String(v));
const COLUMNS: [keyof KitOrderLine, string][] = [
  ['code', 'Code'],
  ['description', 'Description'],
  ['qty', 'Qty'],
  ['poles', 'Poles'],
  ['solarPhases', 'Solar phases'],
  ['gridPhases', 'Grid phases'],
];

/** The order as a plain-text table: columns padded to their widest value. */
export function textTable(lines: readonly KitOrderLine[]): string {
  const rows = [
    COLUMNS.map(([, h]) => h),
    ...lines.map((l) => COLUMNS.map(([k]) => (typeof l[k] === 'string' ? (l[k] as string) : cell(l[k] as number | null)))),
  ];
  const widths = COLUMNS.map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  const fmt = (r: string[]) =>
    r
      .map((v, i) => v.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  return [fmt(rows[0]), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.slice(1).map(fmt)].join('\n');
}

function htmlTable(lines: readonly KitOrderLine[]): string {
  const th = COLUMNS.map(([, h]) => `<th style="text-align:left;border-bottom:1px solid #999;padding:4px 8px">${h}</th>`).join('');
  const trs = lines
    .map(
      (l) =>
        `<tr>${COLUMNS.map(([k]) => `<td style="padding:4px 8px;border-bottom:1px solid #ddd">${escapeHtml(typeof l[k] === 'string' ? (l[k] as string) : cell(l[k] as number | null))}</td>`).join('')}</tr>`,
    )
    .join('');
  return `<table style="border-collapse:collapse;font-family:sans-serif;font-size:14px"><thead><tr>${th}</tr></thead><tbody>${trs}</tbody></table>`;
}

/**
 * E-mails the order to the caller and the organisation's ordering address. The order is written again
 * from the design on the server: one that does not match it (changed in the browser, or from an
 * older catalogue) is refused, so that what is ordered is always what the rules allow.
 */
export async function email(ctx: AppContext, user: AuthUser, body: z.output<typeof kitEmailBody>): Promise<{ sentTo: string[] }> {
  const result = await design(ctx, body.design);
  if ('errors' in result) throw badRequest(KIT_MESSAGES.orderMismatch);
  const order: KitOrder = result.order;
  if (JSON.stringify(order) !== JSON.stringify(body.order)) throw badRequest(KIT_MESSAGES.orderMismatch);
  const u = user.row;
  const ordering = await repo.orderingEmail(ctx.db, user.organisationId);
  const sentTo = [u.email, ...(ordering && ordering.toLowerCase() !== u.email.toLowerCase() ? [ordering] : [])];
  const header = order.lines[0].code;
  const notes = body.referenceNotes.trim();
  const sent = new Date(nowS() * 1000).toISOString();
  const subject = `Kit order ${header} from ${u.given_name} ${u.surname} (${u.organisation_name})`;
  const text = [
    `Kit order from ${u.given_name} ${u.surname} <${u.email}> of ${u.organisation_name}, ${sent}`,
    '',
    textTable(order.lines),
    '',
    'Design notes:',
    ...order.referenceNotes.map((n) => `- ${n}`),
    '',
    'Reference notes:',
    notes || '(none)',
  ].join('\n');
  const html = [
    `<p>Kit order from ${escapeHtml(`${u.given_name} ${u.surname}`)} &lt;${escapeHtml(u.email)}&gt; of ${escapeHtml(u.organisation_name)}, ${sent}</p>`,
    htmlTable(order.lines),
    `<p><strong>Design notes</strong></p><ul>${order.referenceNotes.map((n) => `<li>${escapeHtml(n)}</li>`).join('')}</ul>`,
    `<p><strong>Reference notes</strong></p><p style="white-space:pre-wrap">${escapeHtml(notes || '(none)')}</p>`,
  ].join('\n');
  await ctx.db.transaction().execute(async (trx) => {
    for (const to of sentTo) await sendMail(trx, { to, subject, text, html });
  });
  return { sentTo };
}
