import type { BillingEventKind, BillingItemType } from '@vpp/shared/billing/schemas';
import { epochToLocalDate } from '@vpp/shared/time';
import { type Database, nowS } from '../../db/database.ts';
import { planVersions } from '../plans/index.ts';
import { insertItems, nodeNmisAndZones, plansHeld } from './billing.repo.ts';

// Grid credits (issue 15 item 1): what the retailer credits each customer for the energy their
// battery gave in a settled event. Written by the settlement, in its transaction, once.
//
// Sign: a line item's `cost` is a credit to the customer, positive when the customer is owed money,
// and never negative: an event the operator ordered is never a debit to the customer. `amount` is the
// energy the battery gave (kWh exported, −delivered; negative when it charged). A dispatch's node-day
// carries its credit (`credit`: the spot value of its discharge beyond the feed-in tariff the bill
// already pays for it, and what charging earned at negative prices; docs/settlement.md). A
// curtailment's settlement gives its nodes' days as kWh −curtailed, value −credit; an import limit
// (a curtailment of component import, a network protection service that loses no feed-in) writes none.

/** One node's part of a settled event on one of its local days. */
export interface SettledNodeDay {
  nodeId: number;
  /** 00:00 of the node's local day. */
  dayStart: number;
  /** kWh delivered, signed like battery power (negative: discharged). */
  kwh: number;
  /** AUD at the spot price, signed like the settlement's cost; null when unpriced (outside the NEM). */
  value: number | null;
  /**
   * The customer's credit, AUD, never negative, when it is not simply −value: a dispatch credits the
   * part of the spot value the customer's bill does not already pay (docs/settlement.md).
   */
  credit?: number;
  /** A spot credit's two sides (AUD): the spot value of the energy credited from (the discharge's, and what charging earned at negative prices) and the feed-in the bill already pays on the kWh discharged. */
  sides?: { spotValue: number; feedIn: number };
}

export interface SettledEvent {
  organisationId: number;
  eventId: number;
  kind: BillingEventKind;
  /** The line items' type: 'Spot Price' for a credit at the market price, 'Curtailment' at a fixed rate. */
  type: BillingItemType;
  startTime: number;
  /** The event's settled value in AUD (the settlement's cost convention). */
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
  const facts = await nodeNmisAndZones(trx, [...new Set(priced.map((n) => n.nodeId))]);
  const lines = new Map<string, { nmi: string; day: string; ts: number; kwh: number; credit: number; spot: number | null; feedIn: number | null }>();
  for (const n of priced) {
    const f = facts.get(n.nodeId);
    if (!f) continue;
    const day = epochToLocalDate(n.dayStart, f.timezone);
    const key = `${f.nmi}|${day}`;
    const line = lines.get(key) ?? { nmi: f.nmi, day, ts: Math.max(e.startTime, n.dayStart), kwh: 0, credit: 0, spot: null, feedIn: null };
    line.kwh += n.kwh;
    line.credit += n.credit ?? -(n.value as number);
    if (n.sides) {
      line.spot = (line.spot ?? 0) + n.sides.spotValue;
      line.feedIn = (line.feedIn ?? 0) + n.sides.feedIn;
    }
    lines.set(key, line);
  }
  const all = [...lines.values()].sort((a, b) => (a.nmi < b.nmi ? -1 : a.nmi > b.nmi ? 1 : a.day < b.day ? -1 : a.day > b.day ? 1 : 0));
  // The items' cents sum exactly to the event's total credit, rounded once.
  const cents = allocateCents(
    all.map((l) => l.credit * 100),
    toCents(all.reduce((sum, l) => sum + l.credit, 0)),
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
      rate: Math.abs(amount) > 1e-9 ? l.credit / amount : 0,
      cost_cents: cents[i],
      created_at: now,
      spot_value: l.spot,
      feed_in_deduction: l.feedIn,
    };
  });
  return insertItems(trx, rows);
}

/** $/kWh per node and local date (YYYY-MM-DD): the feed-in tariff of the plan the customer held with the organisation, else `fallback`. */
export async function feedInRates(db: Database, orgId: number, wanted: readonly { nodeId: number; date: string }[], fallback: number) {
  const ids = [...new Set(wanted.map((w) => w.nodeId))];
  const held = await plansHeld(db, orgId, ids);
  const versions = await planVersions(db, [...new Set([...held.values()].flat().map((h) => h.plan_id))]);
  return (nodeId: number, date: string): number => {
    // A plan runs from its start date to the day before its end date (the next plan's start).
    const plan = held.get(nodeId)?.find((h) => h.start_date <= date && (h.end_date === null || date < h.end_date));
    const version = plan ? (versions.get(plan.plan_id) ?? []).filter((v) => v.start_date <= date).at(-1) : undefined;
    return version ? Number(version.prices.feedInTariff) : fallback;
  };
}
