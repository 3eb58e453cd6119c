import { networkOfNmi, OPERATIONAL_NETWORKS, operationalNetwork, outsideNem } from '@vpp/shared/customers/networks';
import { MESSAGES } from '@vpp/shared/messages';
import { PLAN_MESSAGES } from '@vpp/shared/plans/messages';
import { validatePlan } from '@vpp/shared/plans/rules';
import type { Plan, PlanFormValues, PlanPrices, PlanSummary } from '@vpp/shared/plans/schemas';
import { type Database, nowS } from '../../db/database.ts';
import { onDuplicate } from '../../db/unique.ts';
import type { AppContext } from '../../platform/context.ts';
import { ApiError, conflict, formRefused, notFound } from '../../platform/errors.ts';
import type { AuthUser } from '../../platform/guard.ts';
import * as repo from './plans.repo.ts';

// Plans (spec 3 §2.9, §3.9, §5): listed, read, created and edited with their versions.

const networkNameOf = (uid: string) => operationalNetwork(uid)?.name ?? uid;

/** A version as the API names it, from its stored row. */
const pricesOf = (v: repo.VersionRow): PlanPrices => ({ ...v.prices, startDate: v.start_date });

/** The API's plan (spec 3 §3.9) from its row and versions: the top-level prices are the latest version's. */
export function presentPlan(plan: repo.PlanRow, versions: readonly repo.VersionRow[]): Plan {
  const all = versions.map(pricesOf);
  const latest = all[all.length - 1];
  return {
    uid: plan.id,
    name: plan.name,
    planCode: plan.plan_code,
    description: plan.description,
    tariffType: latest.tariffType,
    operationalNetworkUid: plan.operational_network_uid,
    operationalNetwork: networkNameOf(plan.operational_network_uid),
    startDate: latest.startDate,
    resetPeriod: latest.resetPeriod,
    dailyCharge: latest.dailyCharge,
    feedInTariff: latest.feedInTariff,
    discount: latest.discount,
    customersCount: plan.customers_count,
    versions: all.map((v, i) => ({ ...v, latest: i === all.length - 1, endDate: all[i + 1]?.startDate ?? null })),
    rates: latest.rates,
    demandRates: latest.demandRates,
    createdAt: Number(plan.created_at),
    updatedAt: Number(plan.updated_at),
  };
}

/** Every network, with whether it is in the NEM and, if not, why its homes are not offered plans (issue 33 item 8). */
export const listNetworks = () => ({
  networks: OPERATIONAL_NETWORKS.map((n) => ({ uid: n.uid, name: n.name, states: [...n.states], nem: n.market === 'NEM', outsideNem: outsideNem(n) })),
});

export async function listPlans(ctx: AppContext, user: AuthUser, q: repo.PlanListFilters): Promise<{ plans: PlanSummary[]; total: number }> {
  const { rows, total } = await repo.listPlans(ctx.db, user.organisationId, q);
  return {
    total,
    plans: rows.map((r) => ({
      uid: r.id,
      name: r.name,
      planCode: r.plan_code,
      description: r.description,
      tariffType: r.tariff_type,
      operationalNetworkUid: r.operational_network_uid,
      operationalNetwork: networkNameOf(r.operational_network_uid),
      startDate: r.start_date,
      customersCount: r.customers_count,
    })),
  };
}

async function requirePlan(db: Database, orgId: number, by: { id: number } | { code: string }) {
  const found = await repo.findPlan(db, orgId, by);
  if (!found) throw notFound('plan');
  return found;
}

export async function planDetail(ctx: AppContext, user: AuthUser, by: { id: number } | { code: string }): Promise<Plan> {
  const { plan, versions } = await requirePlan(ctx.db, user.organisationId, by);
  return presentPlan(plan, versions);
}

/** The refusal of a name or code another plan of the organisation has: 409, with the form's field messages. */
const duplicated = (dup: { name: boolean; code: boolean }) => {
  const errors: Record<string, string> = {};
  if (dup.name) errors.name = PLAN_MESSAGES.duplicateName;
  if (dup.code) errors.planCode = PLAN_MESSAGES.duplicateCode;
  return new ApiError(409, 'duplicate', PLAN_MESSAGES.correctErrors, { errors, non_field_errors: [] });
};

/**
 * Runs the form's rules and the organisation's (unique name and code); refuses with every message
 * at once: 400 when the form has mistakes, 409 when its only fault is a name or code already taken.
 */
async function checked(db: Database, orgId: number, body: PlanFormValues, exceptId?: number): Promise<PlanPrices> {
  const { errors, non_field_errors, prices } = validatePlan(body);
  const dup =
    body.name?.trim() || body.planCode?.trim()
      ? await repo.duplicates(db, orgId, body.name ?? '', body.planCode ?? '', exceptId)
      : { name: false, code: false };
  const taken = { name: dup.name && !!body.name?.trim(), code: dup.code && !!body.planCode?.trim() };
  if (Object.keys(errors).length || non_field_errors.length || !prices) {
    if (taken.name) errors.name ??= PLAN_MESSAGES.duplicateName;
    if (taken.code) errors.planCode ??= PLAN_MESSAGES.duplicateCode;
    throw formRefused(PLAN_MESSAGES.correctErrors, { errors, non_field_errors });
  }
  if (taken.name || taken.code) throw duplicated(taken);
  return prices;
}

const fieldsOf = (body: PlanFormValues): repo.PlanFields => ({
  name: body.name ?? '',
  planCode: body.planCode ?? '',
  description: body.description ?? '',
  operationalNetworkUid: body.operationalNetworkUid ?? '',
});

/** A unique index refusing a name or code another save took meanwhile: the same 409 as the check's. */
function saving<T>(db: Database, orgId: number, body: PlanFormValues, exceptId: number | undefined, save: () => Promise<T>): Promise<T> {
  return onDuplicate(save, async () => {
    const dup = await repo.duplicates(db, orgId, body.name ?? '', body.planCode ?? '', exceptId);
    return dup.name || dup.code ? duplicated(dup) : conflict(MESSAGES.savedMeanwhile);
  });
}

export async function createPlan(ctx: AppContext, user: AuthUser, body: PlanFormValues): Promise<Plan> {
  const prices = await checked(ctx.db, user.organisationId, body);
  const id = await saving(ctx.db, user.organisationId, body, undefined, () => repo.insertPlan(ctx.db, user.organisationId, fieldsOf(body), prices, nowS()));
  return planDetail(ctx, user, { id });
}

/** JSON with every object's keys sorted: two price sets compare equal however their keys were stored. */
const canonical = (v: unknown): string =>
  JSON.stringify(v, (_k, x) =>
    x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : 1))) : x,
  );

const samePrices = (a: PlanPrices, b: PlanPrices) => {
  const { startDate: _a, ...x } = a;
  const { startDate: _b, ...y } = b;
  return canonical(x) === canonical(y);
};

/**
 * The versions after an edit (spec 3 §3.9; issue 14): prices changed from a date after the latest
 * version's start add a version, and the latest keeps applying before it; a change from the
 * latest's own date, or an earlier one after the previous version's, corrects the latest (its
 * prices, its start). Null with the refusal's message when the date is not after the previous version's.
 */
export function nextVersions(current: readonly PlanPrices[], edit: PlanPrices): { versions: PlanPrices[] } | { error: string } {
  const latest = current[current.length - 1];
  const earlier = current.slice(0, -1);
  if (edit.startDate > latest.startDate && !samePrices(edit, latest)) return { versions: [...current, edit] };
  // The same prices from a later date change nothing: the latest keeps its own start (moving it would
  // leave the days between without prices).
  if (edit.startDate > latest.startDate) return { versions: [...current] };
  const previous = earlier[earlier.length - 1];
  if (previous && edit.startDate <= previous.startDate) return { error: PLAN_MESSAGES.startBeforePreviousVersion(previous.startDate) };
  return { versions: [...earlier, edit] };
}

export async function updatePlan(ctx: AppContext, user: AuthUser, id: number, body: PlanFormValues): Promise<Plan> {
  const { plan, versions } = await requirePlan(ctx.db, user.organisationId, { id });
  const prices = await checked(ctx.db, user.organisationId, body, id);
  const next = nextVersions(versions.map(pricesOf), prices);
  const errors: Record<string, string> = {};
  if ('error' in next) errors.startDate = next.error;
  // The plan's network must be its customers' (issue 14): it cannot move away from them.
  if (body.operationalNetworkUid !== plan.operational_network_uid) {
    const elsewhere = (await repo.planCustomerNodes(ctx.db, id)).find((n) => networkOfNmi(n.nmi, n.state)?.uid !== body.operationalNetworkUid);
    if (elsewhere) errors.operationalNetworkUid = PLAN_MESSAGES.networkHasCustomers(networkOfNmi(elsewhere.nmi, elsewhere.state)?.name ?? 'another network');
  }
  if ('error' in next || Object.keys(errors).length) throw formRefused(PLAN_MESSAGES.correctErrors, { errors, non_field_errors: [] });
  await saving(ctx.db, user.organisationId, body, id, () => repo.updatePlan(ctx.db, id, fieldsOf(body), next.versions, nowS()));
  return planDetail(ctx, user, { id });
}
