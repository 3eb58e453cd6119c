import { type BillingEventKind, type BillingItemType, epochToLocalDate } from '@vpp/shared';
import { type Database, nowS } from '../../db/database.ts';

// Grid credits (issue 15 item 1): what the retailer credits each customer for the energy their
// battery gave in a settled event. Written by the settlement, in its transaction, once.
//
// Sign: a line item's `cost` is a credit to the customer, positive when the customer is owed money.
// A dispatch's settled value (dispatch_settlements.cost) is what the energy cost the VPP at the spot
// price: discharging at a positive price earns (negative cost). The customer is credited that
// earning, so credit = −settled value, and `amount` is the energy the battery gave (kWh exported,
// −delivered). A charging dispatch at a positive price gives a negative credit (a charge). A
// curtailment's settlement gives its nodes' days in the same convention: kWh −curtailed, value −credit.

/** One node's part of a settled event on one of its local days. */
export interface SettledNodeDay {
  nodeId: number;
  /** 00:00 of the node's local day. */
  dayStart: number;
  /** kWh delivered, signed like battery power (negative: discharged). */
  kwh: number;
  /** AUD at the spot price, signed like the settlement's cost; null when unpriced (outside the NEM). */
  value: number | null;
}

export interface SettledEvent {
  organisationId: number;
  eventId: number;
  kind: BillingEventKind;
  /** The line items' type: 'Spot Price' for a credit at the market price, 'Curtailment' at a fixed rate. */
  type: BillingItemType;
  startTime: number;
  /** The event's settled value in AUD (the settlement's cost convention): the items sum to −its cents. */
  settledValue: number;
  /** The complete nodes' days only: an incomplete node is not credited (its energy is not in the settled value). */
  nodes: SettledNodeDay[];
}

/**
 * Rounds `values` (cents, unrounded) to whole cents that sum exactly to `target` by the largest
 * remainder: each is floored, and the cents still missing go to the largest fractional parts (ties
 * to the earlier). `target` must lie within [Σ floor, Σ floor + n] (as Math.round of the sum does).
 */
export function allocateCents(values: readonly number[], target: number): number[] {
  const floors = values.map((v) => Math.floor(v));
  let missing = target - floors.reduce((a, b) => a + b, 0);
  if (missing < 0 || missing > values.length) throw new Error(`Cannot round ${values.length} values to ${target} cents`);
  const order = values.map((v, i) => ({ i, r: v - floors[i] })).sort((a, b) => b.r - a.r || a.i - b.i);
  for (const { i } of order) {
    if (missing === 0) break;
    floors[i] += 1;
    missing--;
  }
  return floors.map((c) => c + 0);
}

/** The whole cents of an amount in AUD, half away from zero, never −0. */
export const toCents = (aud: number) => {
  const c = Math.sign(aud) * Math.round(Math.abs(aud) * 100);
  return c === 0 ? 0 : c;
};

/**
 * Writes an event's grid-credit line items: one per NMI (the customer of the node) per local day,
 * within the caller's transaction (the settlement's). Keyed by event, NMI, day and type: a second
 * run inserts nothing. Answers how many it wrote.
 */
export async function writeGridCredits(trx: Database, e: SettledEvent, now = nowS()): Promise<number> {
  const priced = e.nodes.filter((n) => n.value !== null);
  if (!priced.length) return 0;
  const facts = new Map<number, { nmi: string; timezone: string }>();
  const ids = [...new Set(priced.map((n) => n.nodeId))];
  for (let i = 0; i < ids.length; i += 1000)
    for (const n of await trx
      .selectFrom('nodes')
      .select(['id', 'nmi', 'timezone'])
      .where('id', 'in', ids.slice(i, i + 1000))
      .execute())
      facts.set(n.id, n);
  const lines = new Map<string, { nmi: string; day: string; ts: number; kwh: number; value: number }>();
  for (const n of priced) {
    const f = facts.get(n.nodeId);
    if (!f) continue;
    const day = epochToLocalDate(n.dayStart, f.timezone);
    const key = `${f.nmi}|${day}`;
    const line = lines.get(key) ?? { nmi: f.nmi, day, ts: Math.max(e.startTime, n.dayStart), kwh: 0, value: 0 };
    line.kwh += n.kwh;
    line.value += n.value as number;
    lines.set(key, line);
  }
  const all = [...lines.values()].sort((a, b) => (a.nmi < b.nmi ? -1 : a.nmi > b.nmi ? 1 : a.day < b.day ? -1 : a.day > b.day ? 1 : 0));
  const cents = allocateCents(
    all.map((l) => -l.value * 100),
    toCents(-e.settledValue),
  );
  const rows = all.map((l, i) => {
    const amount = -l.kwh;
    return {
      organisation_id: e.organisationId,
      event_id: e.eventId,
      event_kind: e.kind,
      nmi: l.nmi,
      day: l.day,
      ts: l.ts,
      type: e.type,
      amount,
      rate: Math.abs(amount) > 1e-9 ? -l.value / amount : 0,
      cost_cents: cents[i],
      created_at: now,
    };
  });
  let written = 0;
  for (let i = 0; i < rows.length; i += 500) {
    const r = await trx
      .insertInto('billing_items')
      .values(rows.slice(i, i + 500))
      .onConflict((oc) => oc.columns(['event_id', 'nmi', 'day', 'type']).doNothing())
      .executeTakeFirst();
    written += Number(r.numInsertedOrUpdatedRows ?? 0);
  }
  return written;
}
