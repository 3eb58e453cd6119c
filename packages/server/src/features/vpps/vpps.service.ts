import { VPP_MESSAGES } from '@vpp/shared/vpps/messages';
import { storedVppKind, vppKind, vppProblem } from '@vpp/shared/vpps/rules';
import type { Powerstation, PowerstationBody, PowerstationPatchBody, VPP_LATEST_METRICS, VPP_SERIES_METRICS } from '@vpp/shared/vpps/schemas';
import { type Database, nowS } from '../../db/database.ts';
import type { AppContext } from '../../platform/context.ts';
import { badRequest, notFound } from '../../platform/errors.ts';
import type { AuthUser } from '../../platform/guard.ts';
import { bucketTimes, buildSeries, FLEET_METRIC_TO_COLUMN, METRIC_TO_COLUMN } from '../../telemetry/index.ts';
import * as repo from './vpps.repo.ts';

/** A VPP of the caller's organisation, or 404: another organisation's VPP is never revealed. */
export async function requirePowerstation(ctx: AppContext, user: Pick<AuthUser, 'organisationId'>, id: number): Promise<repo.PowerstationRow> {
  const row = await repo.findPowerstation(ctx.db, user.organisationId, id);
  if (!row) throw notFound('Virtual Power Plant');
  return row;
}

/** The fields of VPPs that leave the server, with their node counts and nameplate totals. */
async function present(ctx: AppContext, orgId: number, rows: repo.PowerstationRow[]): Promise<Powerstation[]> {
  const ids = rows.map((r) => r.id);
  const [postcodes, plates] = await Promise.all([repo.postcodesOf(ctx.db, ids), repo.nameplates(ctx.db, orgId, ids)]);
  return rows.map((r) => {
    const plate = plates.get(r.id) ?? { nodes: 0, batteryCapacity: 0, inverterPower: 0, batteryPower: 0 };
    return {
      id: r.id,
      name: r.name,
      type: r.type,
      filters: { postcodes: postcodes.get(r.id) ?? [], state: (r.state as Powerstation['filters']['state']) ?? null },
      duid: r.duid,
      nodes: plate.nodes,
      namePlate: {
        batteryCapacity: plate.batteryCapacity,
        inverterPower: plate.inverterPower,
        batteryPower: plate.batteryPower,
        totalDeployments: plate.nodes,
      },
      createdAt: r.created_at,
    };
  });
}

export async function listPowerstations(ctx: AppContext, user: AuthUser, q: { limit: number; offset: number; type?: repo.PowerstationRow['type'][] }) {
  const { rows, total } = await repo.listPowerstations(ctx.db, user.organisationId, q);
  return { result: await present(ctx, user.organisationId, rows), total };
}

export async function getPowerstation(ctx: AppContext, user: AuthUser, id: number): Promise<Powerstation> {
  const row = await requirePowerstation(ctx, user, id);
  return (await present(ctx, user.organisationId, [row]))[0];
}

/** Node ids of a request, refused (400, nothing changed) unless every one is in the caller's fleet. */
async function requireFleetNodes(ctx: AppContext, user: AuthUser, ids: number[]): Promise<number[]> {
  const unique = [...new Set(ids)];
  const inFleet = await repo.fleetNodeIds(ctx.db, user.organisationId, unique);
  const outside = unique.filter((id) => !inFleet.has(id));
  if (outside.length) throw badRequest(VPP_MESSAGES.notInFleet(outside));
  return unique;
}

/** The stored values of a checked create or update body. */
function valuesOf(body: PowerstationBody): Omit<repo.PowerstationValues, 'nodes'> {
  const kind = vppKind(body);
  return {
    name: body.name.trim(),
    type: body.type,
    state: kind === 'STATE' ? (body.filters?.state ?? null) : null,
    postcodes: kind === 'POSTCODE' ? [...new Set(body.filters?.postcodes ?? [])].map((p) => p.trim()) : [],
  };
}

function checkBody(body: PowerstationBody) {
  const problem = vppProblem(body);
  if (problem) throw badRequest(problem);
  if (body.type === 'DYNAMIC' && body.nodes?.length) throw badRequest(VPP_MESSAGES.automaticNodes);
}

/** Creates a STATIC (with its listed nodes) or DYNAMIC VPP; FCAS VPPs come from their market registration. */
export async function createPowerstation(ctx: AppContext, user: AuthUser, body: PowerstationBody) {
  if (body.type === 'FCAS') throw badRequest(VPP_MESSAGES.fcasNotCreatable);
  checkBody(body);
  const nodes = body.type === 'STATIC' ? await requireFleetNodes(ctx, user, body.nodes ?? []) : [];
  const id = await repo.createPowerstation(ctx.db, user.organisationId, { ...valuesOf(body), nodes });
  return { id, type: body.type };
}

/** Replaces name and filter (and a STATIC VPP's node list when given); the type, shown type included, cannot change. */
export async function updatePowerstation(ctx: AppContext, user: AuthUser, id: number, body: PowerstationBody) {
  const row = await requirePowerstation(ctx, user, id);
  if (row.type === 'FCAS') throw badRequest(VPP_MESSAGES.fcasNotEditable);
  if (body.type !== row.type || vppKind(body) !== storedVppKind(row)) throw badRequest(VPP_MESSAGES.typeUnchangeable);
  checkBody(body);
  const nodes = row.type === 'STATIC' && body.nodes ? await requireFleetNodes(ctx, user, body.nodes) : undefined;
  await repo.updatePowerstation(ctx.db, id, { ...valuesOf(body), nodes });
}

/** Renames, and adds or removes a STATIC VPP's nodes by list or filter. */
export async function patchPowerstation(ctx: AppContext, user: AuthUser, id: number, body: PowerstationPatchBody) {
  const row = await requirePowerstation(ctx, user, id);
  if (row.type === 'FCAS') throw badRequest(VPP_MESSAGES.fcasNotEditable);
  if (body.name === undefined && body.nodes === undefined) throw badRequest(VPP_MESSAGES.nothingToPatch);
  if (body.name !== undefined) {
    const problem = vppProblem({ type: 'STATIC', name: body.name });
    if (problem) throw badRequest(problem);
  }
  let change: { list: number[] } | { filter: NonNullable<NonNullable<PowerstationPatchBody['nodes']>['filter']> } | null = null;
  if (body.nodes) {
    if (row.type !== 'STATIC') throw badRequest(VPP_MESSAGES.automaticNodes);
    const { list, filter } = body.nodes;
    if ((list === undefined) === (filter === undefined)) throw badRequest(VPP_MESSAGES.listOrFilter);
    change = list ? { list: await requireFleetNodes(ctx, user, list) } : { filter: filter ?? {} };
  }
  // Both changes, or neither: a refused node change leaves the name as it was.
  if (body.name !== undefined) await repo.renamePowerstation(ctx.db, id, body.name.trim());
  if (change && body.nodes?.method === 'add') await repo.addNodes(ctx.db, row, change);
  if (change && body.nodes?.method === 'remove') await repo.removeNodes(ctx.db, row, change);
}

export async function deletePowerstation(ctx: AppContext, user: AuthUser, id: number) {
  const row = await requirePowerstation(ctx, user, id);
  if (row.type === 'FCAS') throw badRequest(VPP_MESSAGES.fcasNotDeletable);
  await repo.deletePowerstation(ctx.db, id);
}

/** Latest readings of the VPP's nodes, one list per metric, each point no older than maxAge. */
/** Degrees to 5 decimals (about a metre): all a map needs, and a third off a large reply. */
const r5 = (v: number) => Math.round(Number(v) * 1e5) / 1e5;

/** The member nodes' latest readings of each metric (at most maxAge old) added up, and how many nodes reported it (format=total). */
export async function latestTotals(ctx: AppContext, user: AuthUser, id: number, q: { metrics: (typeof VPP_LATEST_METRICS)[number][]; maxAge: number }) {
  const row = await requirePowerstation(ctx, user, id);
  const cols = [...new Set(q.metrics.map((m) => METRIC_TO_COLUMN[m]))];
  const sums = await repo.latestSums(ctx.db, row, cols, q.maxAge, nowS());
  const totals: Partial<Record<(typeof VPP_LATEST_METRICS)[number], { value: number; nodes: number }>> = {};
  for (const m of q.metrics) {
    // Each reading rounded as format=nodes rounds it, summed in whole thousandths by the database.
    const { milli, nodes } = sums.get(METRIC_TO_COLUMN[m]) ?? { milli: 0, nodes: 0 };
    totals[m] = { value: Math.round(milli) / 1000, nodes };
  }
  return { totals };
}

export async function latestData(ctx: AppContext, user: AuthUser, id: number, q: { metrics: (typeof VPP_LATEST_METRICS)[number][]; maxAge: number }) {
  const row = await requirePowerstation(ctx, user, id);
  const cols = [...new Set(q.metrics.map((m) => METRIC_TO_COLUMN[m]))];
  const rows = await repo.latestReadings(ctx.db, row, cols, q.maxAge, nowS());
  const out: Record<string, { id: number; lat: number; lng: number; ts: number; value: number }[]> = {};
  for (const m of q.metrics) {
    const col = METRIC_TO_COLUMN[m];
    out[m] = rows.flatMap((r) =>
      r[col] === null || r[col] === undefined
        ? []
        : [{ id: r.id, lat: r5(r.lat), lng: r5(r.lng), ts: Number(r.ts), value: Math.round(Number(r[col]) * 1000) / 1000 }],
    );
  }
  return out;
}

/** The VPP's series: at each bucket the sum over member nodes; buckets without data are null. */
export async function seriesData(
  ctx: AppContext,
  user: AuthUser,
  id: number,
  q: { metrics: (typeof VPP_SERIES_METRICS)[number][]; interval: number; start: number; end?: number },
) {
  const row = await requirePowerstation(ctx, user, id);
  const end = q.end ?? q.start + 86400;
  const cols = [...new Set(q.metrics.map((m) => FLEET_METRIC_TO_COLUMN[m]))];
  const data = await repo.seriesSums(ctx.db, ctx.telemetry, row, cols, q.start, end, q.interval as 300 | 3600);
  return buildSeries(bucketTimes(q.start, end, q.interval, 'UTC', { localHours: false }), data, q.metrics, (m) => FLEET_METRIC_TO_COLUMN[m]);
}

/**
 * Takes nodes out of an organisation's fleet (issue 33 item 6; the spec has no screen for it, so it
 * is the operator's command `npm run fleet:release`, as `fleet:commission` brings devices in): their
 * fleet stays and their stays in the organisation's manual VPPs close at `at`, so a later period's
 * invoice no longer counts them and a past period's still does. Refused, changing nothing, when the
 * organisation is unknown or a serial is not in its fleet.
 */
export async function releaseNodes(db: Database, organisationName: string, serials: readonly string[], at = nowS()): Promise<number[]> {
  const fleet = await repo.fleetBySerial(db, organisationName, serials);
  if (!fleet) throw new Error(`No organisation is named ${JSON.stringify(organisationName)}.`);
  const missing = serials.filter((s) => !fleet.nodes.has(s));
  if (missing.length) throw new Error(`Not in ${organisationName}'s fleet: ${missing.join(', ')}.`);
  return repo.releaseFromFleet(db, fleet.organisationId, [...fleet.nodes.values()], at);
}

/** A page of a VPP's nodes (with the organisation's unused ones when asked), each marked whether it is in the VPP. */
export function vppNodes(ctx: AppContext, ps: repo.PowerstationRow, q: Parameters<typeof repo.listVppNodes>[2]) {
  return repo.listVppNodes(ctx.db, ps, q);
}

/** Every node of a VPP, with what its map shows. */
export function vppMapNodes(ctx: AppContext, ps: repo.PowerstationRow) {
  return repo.vppMapNodes(ctx.db, ps);
}

/** A page of the organisation's nodes that are in no VPP. */
export function unusedNodes(ctx: AppContext, user: Pick<AuthUser, 'organisationId'>, limit: number, offset: number) {
  return repo.unusedNodes(ctx.db, user.organisationId, limit, offset);
}
