import { randomBytes } from 'node:crypto';
import { EXPORT_MESSAGES as M } from '@vpp/shared/exports/messages';
import { EXPORT_EDIT, EXPORT_VIEW } from '@vpp/shared/exports/permissions';
import {
  type CustomerParams,
  type ExportCreateBody,
  type ExportJob,
  type ExportJobDetail,
  type ExportMetric,
  type ExportStatus,
  exportCreateBody,
  exportIntervalSeconds,
  exportMetricOption,
  exportMetricsFor,
  type OperationalParams,
} from '@vpp/shared/exports/schemas';
import { hasPermission, satisfies } from '@vpp/shared/permissions/registry';
import { epochToLocalDate, shiftPeriod } from '@vpp/shared/time';
import { z } from 'zod';
import { databaseSource, nowS } from '../../db/database.ts';
import type { AppContext } from '../../platform/context.ts';
import { crashPoint } from '../../platform/crash-points.ts';
import { type DownloadMaker, type FileWriter, redeemDownload, signDownload } from '../../platform/downloads.ts';
import { ApiError, badRequest, forbidden } from '../../platform/errors.ts';
import type { AuthUser } from '../../platform/guard.ts';
import { defineJob, enqueueJob, type JobRun, type Recurring } from '../../platform/jobs.ts';
import { keyValid } from '../api-keys/index.ts';
import { callerOf, sessionEnded } from '../auth/index.ts';
import { findPowerstation, requirePowerstation } from '../vpps/index.ts';
import { writeCustomers } from './exports.customers.service.ts';
import { type ExportNode, type ExportSubmeter, writeOperational } from './exports.operational.service.ts';
import * as repo from './exports.repo.ts';

// Data exports (issue 17, spec 2 §2–§9): the rules of a request, the job that writes the files, the
// signed links that open them, and the retention that removes them.

const DEFAULT_ZONE = 'Australia/Sydney';
/** Attempts of one export: a run that throws (a database hiccup) is tried again from the start. */
export const EXPORT_MAX_ATTEMPTS = 3;
const FINAL: readonly ExportStatus[] = ['SUCCESS', 'FAILURE', 'REMOVED', 'CANCELLED'];

/** What a job row keeps of its request: the validated params, and what the server decided (zone, VPP name). */
const storedParams = z.object({
  type: z.enum(['operational', 'customer']),
  zone: z.string(),
  powerstationName: z.string().nullable(),
  params: z.record(z.string(), z.unknown()),
});
type StoredParams = z.infer<typeof storedParams>;

const fileRecord = z.object({ metric: z.string(), label: z.string(), filename: z.string(), size: z.number(), empty: z.boolean() });
type FileRecord = z.infer<typeof fileRecord>;

type ExportRow = Awaited<ReturnType<typeof findRow>>;
const findRow = repo.findExport;

const folderOf = (referenceId: string) => `exports/${referenceId}`;
const filePath = (id: number, filename: string) => `/analysis/export-jobs/${id}/files/${filename}`;

/** A SUCCESS job whose retention has passed shows REMOVED at once, before the hourly sweep deletes its files. */
function statusOf(r: NonNullable<ExportRow>, now: number): ExportStatus {
  return r.status === 'SUCCESS' && r.expires_at !== null && Number(r.expires_at) <= now ? 'REMOVED' : r.status;
}

/** The job as the API shows it (spec 2 §3). */
function present(r: NonNullable<ExportRow>, now = nowS()): ExportJob {
  const stored = storedParams.parse(JSON.parse(r.params));
  const p = stored.params as Partial<OperationalParams & CustomerParams>;
  const status = statusOf(r, now);
  const operational = r.task_type === 'operational';
  return {
    task_id: r.id,
    reference_id: r.reference_id,
    task_type: r.task_type,
    status,
    ts: Number(r.created_at),
    progress: status === 'SUCCESS' || status === 'REMOVED' ? 1 : Number(r.progress),
    time_remaining: status === 'PROGRESS' ? (r.time_remaining_ms === null ? null : Number(r.time_remaining_ms)) : status === 'PENDING' ? null : 0,
    metrics: JSON.parse(r.metrics) as string[],
    task_info: {
      powerstation: r.powerstation_id,
      powerstationName: stored.powerstationName,
      deploymentUids: operational ? (p.deploymentUids ?? []) : [],
      start: operational ? (p.start ?? null) : null,
      end: operational ? (p.end ?? null) : null,
      interval: operational ? (p.interval ?? null) : null,
      timezone: stored.zone,
      splitPhases: operational ? Boolean(p.splitPhases) : false,
      aggByPowerstation: operational ? Boolean(p.aggByPowerstation) : false,
      all_customers: operational ? null : (p.allCustomers ?? null),
      submeters: operational ? Boolean(p.includeSubmeters) : false,
      user: r.user_id,
    },
    finished_at: r.finished_at === null ? null : Number(r.finished_at),
    expires_at: r.expires_at === null ? null : Number(r.expires_at),
  };
}

/** An export of the caller's organisation, or 404: another organisation's is never revealed. */
async function requireExport(ctx: AppContext, user: AuthUser, id: number): Promise<NonNullable<ExportRow>> {
  const row = await findRow(ctx.db, id);
  if (!row || row.organisation_id !== user.organisationId) throw new ApiError(404, 'not_found', M.exportNotFound);
  return row;
}

/** Checks an operational request against the caller and the settings: metrics, range, VPP or nodes. Answers the VPP's name. */
async function checkOperational(ctx: AppContext, user: AuthUser, p: OperationalParams, zone: string): Promise<string | null> {
  const type = user.row.suborg_type;
  const networkOnly = p.queries.filter((q) => type !== 'NETWORK' && !exportMetricOption(q)?.retailer);
  if (networkOnly.length) throw badRequest(M.networkOnlyMetrics(networkOnly));
  const allowed = new Set(exportMetricsFor(type, hasPermission(user.permissions, 'fleet.node.sga_data.view')).map((m) => m.id as string));
  if (p.queries.some((q) => !allowed.has(q))) throw badRequest(M.sgaNotAllowed);
  // Counted in the zone's local days: a range of exactly the limit across a DST change (a day of 23
  // or 25 hours) is within it.
  const maxDays = ctx.config.EXPORT_MAX_RANGE_DAYS;
  if ((p.end as number) > shiftPeriod(p.start as number, 'day', maxDays, zone)) throw badRequest(M.rangeTooLong(maxDays));
  if (p.powerstation !== undefined && p.powerstation !== null) {
    if (!satisfies(user.permissions, EXPORT_EDIT)) throw forbidden();
    const ps = await requirePowerstation(ctx, user, p.powerstation);
    return ps.name;
  }
  const ids = [...new Set(p.deploymentUids ?? [])];
  const found = new Set<number>();
  for (let i = 0; i < ids.length; i += 1000) {
    const rows = await repo.fleetNodeIdsIn(ctx.db, user.organisationId, ids.slice(i, i + 1000));
    for (const r of rows) found.add(r.id);
  }
  const missing = ids.filter((id) => !found.has(id));
  if (missing.length) throw new ApiError(404, 'not_found', M.nodesNotFound(missing.slice(0, 20)));
  return null;
}

async function checkCustomer(ctx: AppContext, user: AuthUser, p: CustomerParams): Promise<string | null> {
  const type = user.row.suborg_type;
  if (p.allCustomers !== undefined && type !== 'NETWORK') throw badRequest(M.allCustomersNetworkOnly);
  if (p.powerstation === undefined || p.powerstation === null) return null;
  if (type === 'INSTALLER') throw badRequest(M.installerNoVpp);
  return (await requirePowerstation(ctx, user, p.powerstation)).name;
}

/** Queues an export (POST /analysis/export-jobs): checked first, then the row and its job in one transaction. */
export async function createExport(ctx: AppContext, user: AuthUser, input: ExportCreateBody): Promise<ExportJob> {
  const body = exportCreateBody.parse(input);
  const zone = body.params.timezone ?? user.row.timezone ?? DEFAULT_ZONE;
  const powerstationName = body.type === 'operational' ? await checkOperational(ctx, user, body.params, zone) : await checkCustomer(ctx, user, body.params);
  const metrics = body.type === 'operational' ? [...new Set(body.params.queries)] : ['customers'];
  const stored: StoredParams = { type: body.type, zone, powerstationName, params: { ...body.params, user: user.id, timezone: zone } };
  const now = nowS();
  const id = await ctx.db.transaction().execute(async (trx) => {
    const exportId = await repo.insertExport(trx, {
      organisation_id: user.organisationId,
      user_id: user.id,
      reference_id: randomBytes(9).toString('base64url').replace(/[-_]/g, 'x'),
      task_type: body.type,
      status: 'PENDING',
      params: JSON.stringify(stored),
      metrics: JSON.stringify(metrics),
      powerstation_id: body.params.powerstation ?? null,
      time_remaining_ms: null,
      files: null,
      error: null,
      created_at: now,
      started_at: null,
      finished_at: null,
      expires_at: null,
    });
    await enqueueJob(trx, exportJob, { exportId }, { uniqueKey: `export:${exportId}`, maxAttempts: EXPORT_MAX_ATTEMPTS });
    return exportId;
  });
  return present((await findRow(ctx.db, id)) as NonNullable<ExportRow>);
}

/**
 * Marks FAILURE the in-flight exports (of `ids`) whose job has failed for good: failed, or its last
 * allowed attempt died with its worker (its lease ran out), which the jobs' sweep would only say later.
 * Answers the ids marked.
 */
async function failDeadExports(ctx: AppContext, ids: readonly number[], now: number): Promise<Set<number>> {
  const dead = new Set<number>();
  for (let i = 0; i < ids.length; i += 500) {
    const keys = ids.slice(i, i + 500).map((id) => `export:${id}`);
    const failed = await repo.jobsFailedForGood(ctx.db, keys, now);
    for (const f of failed) {
      const id = Number(String(f.unique_key).slice('export:'.length));
      if (await repo.failExport(ctx.db, id, M.generateError, now)) dead.add(id);
    }
  }
  return dead;
}

/** Rows as they stand once any in-flight one whose job has failed for good is marked FAILURE. */
async function settled<R extends NonNullable<ExportRow>>(ctx: AppContext, rows: R[], now: number): Promise<R[]> {
  const live = rows.filter((r) => r.status === 'PENDING' || r.status === 'PROGRESS').map((r) => r.id);
  if (!live.length) return rows;
  const dead = await failDeadExports(ctx, live, now);
  if (!dead.size) return rows;
  return Promise.all(rows.map(async (r) => (dead.has(r.id) ? ((await findRow(ctx.db, r.id)) as R) : r)));
}

/** The organisation's exports, newest first. */
export async function listExports(ctx: AppContext, user: AuthUser, q: { limit: number; offset: number }) {
  const [rows, total] = await repo.exportPage(ctx.db, user.organisationId, q.limit, q.offset);
  const now = nowS();
  return { tasks: (await settled(ctx, rows, now)).map((r) => present(r, now)), total: Number(total.n) };
}

/** The sign-in or API key a caller came with: the links made for them are bound to it. */
const makerOf = (user: AuthUser): DownloadMaker =>
  user.via.kind === 'session' && user.via.session ? { session: user.via.session } : user.via.kind === 'api-key' ? { apiKey: user.via.keyId } : null;

/** One export with its files: a signed URL per file with data, valid EXPORT_LINK_TTL_S. */
export async function exportDetail(ctx: AppContext, user: AuthUser, id: number): Promise<ExportJobDetail> {
  const now = nowS();
  const [row] = await settled(ctx, [await requireExport(ctx, user, id)], now);
  const job = present(row, now);
  const files = job.status === 'SUCCESS' && row.files ? z.array(fileRecord).parse(JSON.parse(row.files)) : [];
  const ttlS = ctx.config.EXPORT_LINK_TTL_S;
  const signed = await Promise.all(
    files.map(async (f) => {
      const path = filePath(id, f.filename);
      const token = f.empty ? null : await signDownload(ctx.keys.download, { path, userId: user.id, ttlS, madeBy: makerOf(user) }, now);
      return { metric: f.metric, label: f.label, signed_url: token ? `${path}?token=${token}` : null, size: f.size, filename: f.filename, empty: f.empty };
    }),
  );
  return {
    ...job,
    details: {
      status: job.status,
      signed_urls: signed,
      empty: job.status === 'SUCCESS' && signed.every((f) => f.empty),
      loading: false,
      urls_expire_at: job.status === 'SUCCESS' ? now + ttlS : null,
      error: job.status === 'FAILURE' ? (row.error ?? M.generateError) : null,
    },
  };
}

/** Cancels a PENDING or PROGRESS export; a running job notices at its next page and throws its files away. */
export async function cancelExport(ctx: AppContext, user: AuthUser, id: number): Promise<ExportJob> {
  const row = await requireExport(ctx, user, id);
  // Export view lets a user cancel their own exports; another's needs export edit.
  if (row.user_id !== user.id && !satisfies(user.permissions, EXPORT_EDIT)) throw new ApiError(403, 'forbidden', M.cancelNotAllowed);
  if (!(await repo.cancelExportRow(ctx.db, id, nowS()))) throw new ApiError(409, 'conflict', M.cannotCancel);
  return present((await findRow(ctx.db, id)) as NonNullable<ExportRow>);
}

/**
 * A file through its signed URL: the token must be this path's, unexpired and unaltered (else 403),
 * its user still active, holding export view (else 403) and of the export's organisation (else
 * 404), and the file not removed.
 */
export async function openFile(ctx: AppContext, id: number, filename: string, token: string) {
  const path = filePath(id, filename);
  const grant = await redeemDownload(ctx.db, ctx.keys.download, token, path).catch(() => {
    throw new ApiError(403, 'download_link_invalid', M.linkInvalid);
  });
  // A link dies with the sign-in (logout) or the API key (revoked) that made it (issue 32, item 7).
  const { madeBy } = grant;
  const revoked = madeBy && ('session' in madeBy ? await sessionEnded(ctx.db, madeBy.session) : !(await keyValid(ctx.db, madeBy.apiKey)));
  if (revoked) throw new ApiError(403, 'download_link_invalid', M.linkInvalid);
  const [row, owner] = await Promise.all([findRow(ctx.db, id), callerOf(ctx, grant.userId, 'done', { kind: 'download' })]);
  if (!owner || !satisfies(owner.permissions, EXPORT_VIEW)) throw forbidden();
  if (!row || owner.organisationId !== row.organisation_id) throw new ApiError(404, 'not_found', M.exportNotFound);
  if (statusOf(row, nowS()) === 'REMOVED') throw new ApiError(404, 'not_found', M.filesRemoved);
  const files = row.files ? z.array(fileRecord).parse(JSON.parse(row.files)) : [];
  const file = files.find((f) => f.filename === filename && !f.empty);
  if (row.status !== 'SUCCESS' || !file) throw new ApiError(404, 'not_found', M.fileNotFound);
  return { stream: ctx.files.read(`${folderOf(row.reference_id)}/${filename}`), size: file.size };
}

class Cancelled extends Error {}

/** Progress and the time left from the job's own rate, written at most once a second, and cancellation noticed there. */
function tracker(ctx: AppContext, id: number, afterWrite?: () => Promise<void>) {
  const started = Date.now();
  let lastWrite = 0;
  return async (done: number, total: number) => {
    crashPoint('export');
    const now = Date.now();
    if (now - lastWrite < 1000 && done < total) return;
    lastWrite = now;
    const fraction = total > 0 ? done / total : 1;
    const remaining = done > 0 ? Math.round(((now - started) / done) * (total - done)) : null;
    if (!(await repo.writeProgress(ctx.db, id, Math.min(0.99, fraction), remaining))) throw new Cancelled();
    await afterWrite?.();
  };
}

const dateOf = (ts: number, zone: string) => epochToLocalDate(ts, zone);

/** The nodes (and their submeters) an operational export reads now: the VPP's members, or the chosen nodes of the fleet. */
async function exportNodes(ctx: AppContext, row: NonNullable<ExportRow>, p: OperationalParams) {
  let nodes: ExportNode[];
  if (row.powerstation_id !== null) {
    const ps = await findPowerstation(ctx.db, row.organisation_id, row.powerstation_id);
    nodes = ps ? await repo.memberNodesOf(ctx.db, ps) : [];
  } else {
    nodes = [];
    const ids = p.deploymentUids ?? [];
    for (let i = 0; i < ids.length; i += 1000) nodes.push(...(await repo.fleetNodesIn(ctx.db, row.organisation_id, ids.slice(i, i + 1000))));
    nodes.sort((a, b) => a.id - b.id);
  }
  const submeters: ExportSubmeter[] = [];
  if (p.includeSubmeters)
    for (let i = 0; i < nodes.length; i += 1000) {
      const rows = await repo.submetersOf(
        ctx.db,
        nodes.slice(i, i + 1000).map((n) => n.id),
      );
      submeters.push(...rows.map((r) => ({ id: r.id, nodeId: r.node_id, name: r.name })));
    }
  return { nodes, submeters };
}

/**
 * Runs one export from the start: any files of an earlier, interrupted run are thrown away first.
 * `afterProgress` is awaited after each progress write (a test watches the export mid-run with it).
 */
export async function runExport(ctx: AppContext, exportId: number, run: Pick<JobRun, 'attempt'>, afterProgress?: () => Promise<void>): Promise<void> {
  const row = await findRow(ctx.db, exportId);
  if (!row || FINAL.includes(row.status)) return;
  const folder = folderOf(row.reference_id);
  await ctx.files.removeFolder(folder);
  if (!(await repo.startExportRow(ctx.db, exportId, nowS()))) return;
  const stored = storedParams.parse(JSON.parse(row.params));
  const writers: FileWriter[] = [];
  const open = async (name: string) => {
    const w = await ctx.files.create(`${folder}/${name}`);
    writers.push(w);
    return w;
  };
  const page = tracker(ctx, exportId, afterProgress);
  try {
    let files: FileRecord[];
    if (stored.type === 'operational') files = await operationalFiles(ctx, row, stored, open, page);
    else files = await customerFiles(ctx, row, stored, open, page);
    const sizes = await Promise.all(writers.map((w) => w.commit()));
    files = files.map((f, i) => ({ ...f, size: sizes[i] }));
    const now = nowS();
    const done = await repo.finishExportRow(ctx.db, exportId, JSON.stringify(files), now, now + Math.round(ctx.config.EXPORT_RETENTION_DAYS * 86400));
    // Cancelled after the last page: the files go.
    if (!done) await ctx.files.removeFolder(folder);
  } catch (err) {
    await Promise.all(writers.map((w) => w.abort()));
    await ctx.files.removeFolder(folder);
    if (err instanceof Cancelled) return;
    if (run.attempt < EXPORT_MAX_ATTEMPTS) throw err;
    await repo.failExport(ctx.db, exportId, M.generateError, nowS(), ['PROGRESS']);
  }
}

async function operationalFiles(
  ctx: AppContext,
  row: NonNullable<ExportRow>,
  stored: StoredParams,
  open: (name: string) => Promise<FileWriter>,
  page: (done: number, total: number) => Promise<void>,
): Promise<FileRecord[]> {
  const p = stored.params as unknown as OperationalParams;
  const metrics = JSON.parse(row.metrics) as ExportMetric[];
  const { nodes, submeters } = await exportNodes(ctx, row, p);
  const start = p.start as number;
  const end = p.end as number;
  const span = `${dateOf(start, stored.zone)}-to-${dateOf(end - 1, stored.zone)}`;
  const names = metrics.map((m) => `${m.replace(/_/g, '-')}-${span}.csv`);
  const writers: FileWriter[] = [];
  for (const n of names) writers.push(await open(n));
  const result = await writeOperational(
    ctx.telemetry,
    {
      nodes,
      submeters,
      metrics,
      start,
      end,
      interval: exportIntervalSeconds(p.interval),
      zone: stored.zone,
      splitPhases: p.splitPhases,
      aggregate: p.aggByPowerstation ? (stored.powerstationName ?? 'VPP') : null,
      pageValues: ctx.config.EXPORT_PAGE_VALUES,
    },
    writers,
    { page },
    ctx.config.CSV_IN_WORKER ? databaseSource(ctx.db) : undefined,
  );
  return result.map((r, i) => ({ metric: r.metric, label: exportMetricOption(r.metric)?.label ?? r.metric, filename: names[i], size: 0, empty: r.empty }));
}

async function customerFiles(
  ctx: AppContext,
  row: NonNullable<ExportRow>,
  stored: StoredParams,
  open: (name: string) => Promise<FileWriter>,
  page: (done: number, total: number) => Promise<void>,
): Promise<FileRecord[]> {
  const p = stored.params as unknown as CustomerParams;
  const org = await repo.organisationType(ctx.db, row.organisation_id);
  let only: Set<number> | null = null;
  if (row.powerstation_id !== null) {
    const ps = await findPowerstation(ctx.db, row.organisation_id, row.powerstation_id);
    only = new Set(ps ? await repo.memberNodeIds(ctx.db, ps) : []);
  } else if (org.suborg_type === 'NETWORK' && p.allCustomers !== true) {
    // 'All customers on my network': the homes the organisation holds as their network.
    only = new Set(await repo.networkNodeIds(ctx.db, org.id));
  }
  const filename = `customers-${dateOf(Number(row.created_at), stored.zone)}.csv`;
  const n = await writeCustomers(ctx, { id: org.id, type: org.suborg_type as never }, only, await open(filename), { page });
  return [{ metric: 'customers', label: 'Customers', filename, size: 0, empty: n === 0 }];
}

/** The export job: its payload names the row; a run after a crash starts the files again. */
export const exportJob = defineJob('exports.run', z.object({ exportId: z.number().int() }), async (ctx, payload, run) => {
  await runExport(ctx, payload.exportId, run);
});

/**
 * Hourly: removes the files of exports past their retention (they then show REMOVED), and marks
 * FAILURE an export whose job failed for good without saying so (its last worker died).
 */
export async function sweepExports(ctx: AppContext, now = nowS()): Promise<number> {
  const expired = await repo.expiredExports(ctx.db, now);
  for (const e of expired) {
    await ctx.files.removeFolder(folderOf(e.reference_id));
    await repo.markRemoved(ctx.db, e.id);
  }
  const running = await repo.inFlightExportIds(ctx.db);
  await failDeadExports(
    ctx,
    running.map((r) => r.id),
    now,
  );
  return expired.length;
}

export const exportSweepJob = defineJob('exports.sweep', z.object({ at: z.number() }), async (ctx) => {
  await sweepExports(ctx);
});
export const EXPORT_SWEEP_RECURRING: Recurring = { kind: exportSweepJob.kind, periodS: 3600 };
