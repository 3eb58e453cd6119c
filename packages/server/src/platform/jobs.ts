import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { z } from 'zod';
import { clockMs, type Database, nowS } from '../db/database.ts';
import type { AppContext } from './context.ts';
import { crashPoint } from './crash-points.ts';

/** The few logger methods the worker uses (pino's, or console's). */
export interface JobLog {
  info(obj: object | string, msg?: string): void;
  warn(obj: object | string, msg?: string): void;
  error(obj: object | string, msg?: string): void;
}

/** What a handler learns about the run it is doing. */
export interface JobRun {
  id: number;
  kind: string;
  /** 1 on the first run, 2 on the first retry… */
  attempt: number;
  runAt: number;
  log: JobLog;
  /** Records how far the job is (0–1) and, when given, what it has made so far. */
  progress(fraction: number, result?: unknown): Promise<void>;
}

/** Does one job. Throwing makes the job retry later (with backoff) until its attempts run out. */
export type JobHandler<P = unknown> = (ctx: AppContext, payload: P, run: JobRun) => Promise<void>;

/** One kind of background job: its payload's schema (checked when queued and when run) and its handler. */
export interface JobDefinition<P = unknown> {
  kind: string;
  payload: z.ZodType<P>;
  // A method, so that a list of jobs of different payloads is one type.
  handler(ctx: AppContext, payload: P, run: JobRun): Promise<void>;
}

/** Declares a kind of job; areas list theirs in their module (index.ts). */
export function defineJob<S extends z.ZodType>(kind: string, payload: S, handler: JobHandler<z.output<S>>): JobDefinition<z.output<S>> {
  return { kind, payload: payload as z.ZodType<z.output<S>>, handler };
}

/**
 * Queues a job of a declared kind, its payload checked against the kind's schema first. `uniqueKey`
 * makes it idempotent: a second call with the same key queues nothing and answers null.
 */
export async function enqueueJob<P>(db: Database, job: JobDefinition<P>, payload: P, opts: EnqueueOptions = {}): Promise<number | null> {
  return enqueue(db, job.kind, job.payload.parse(payload), opts);
}

/** A job's progress and result as its handler last recorded them. */
export async function jobState(db: Database, id: number) {
  const row = await db
    .selectFrom('jobs')
    .select(['id', 'kind', 'status', 'progress', 'result', 'last_error', 'attempts'])
    .where('id', '=', id)
    .executeTakeFirst();
  return row ? { ...row, result: row.result === null ? null : (JSON.parse(row.result) as unknown) } : undefined;
}

export interface EnqueueOptions {
  /** Epoch seconds; now when unset. */
  runAt?: number;
  maxAttempts?: number;
  /** At most one job ever holds this key: a second enqueue with it is ignored (null is answered). */
  uniqueKey?: string;
}

export const DEFAULT_MAX_ATTEMPTS = 5;

/** Retry delay after a failed attempt: 30 s, 1 min, 2 min… up to an hour. */
export const backoffS = (attempt: number) => Math.min(3600, 30 * 2 ** Math.max(0, attempt - 1));

const localWorkers = new Set<{ wake(): void }>();

/**
 * Adds a job. Pass a transaction as `db` to make the job part of it: it then runs only if the
 * transaction commits. Answers the job's id, or null when `uniqueKey` was already taken.
 */
export async function enqueue(db: Database, kind: string, payload: unknown, opts: EnqueueOptions = {}): Promise<number | null> {
  const now = nowS();
  const row = await db
    .insertInto('jobs')
    .values({
      kind,
      payload: JSON.stringify(payload ?? null),
      status: 'pending',
      run_at: opts.runAt ?? now,
      attempts: 0,
      max_attempts: opts.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
      unique_key: opts.uniqueKey ?? null,
      created_at: now,
    })
    .onConflict((oc) => oc.column('unique_key').doNothing())
    .returning('id')
    .executeTakeFirst();
  // A worker in this process need not wait for its next poll (after the caller's commit, hence the tick).
  if (row && (opts.runAt ?? now) <= now) {
    setTimeout(() => {
      for (const w of localWorkers) w.wake();
    }, 5).unref?.();
  }
  return row?.id ?? null;
}

/** A recurring job: one run at every multiple of `periodS` (UTC), never two for the same instant. */
export interface Recurring {
  kind: string;
  periodS: number;
}

/**
 * Makes sure the runs of a recurring job for the current period (if it has not run yet, as after a
 * restart) and the next one exist. Safe from any number of processes: the unique key decides.
 */
export async function ensureRecurring(db: Database, r: Recurring, now = nowS()): Promise<void> {
  const current = Math.floor(now / r.periodS) * r.periodS;
  for (const at of [current, current + r.periodS]) {
    await enqueue(db, r.kind, { at }, { runAt: at, uniqueKey: `${r.kind}@${at}` });
  }
}

type JobRow = {
  id: number;
  kind: string;
  payload: string;
  attempts: number;
  max_attempts: number;
  run_at: number;
};

/**
 * Claims the next due job of the given kinds for a worker, with a lease until `now + leaseS`. A job
 * still pending whose lease has run out (its worker died) is due again. On PostgreSQL the row is
 * locked with FOR UPDATE SKIP LOCKED so that concurrent workers never wait on or take the same job;
 * SQLite runs the single UPDATE under its one writer lock.
 */
export async function claimJob(ctx: AppContext, workerId: string, kinds: string[], leaseS: number, now = nowS()): Promise<JobRow | undefined> {
  if (kinds.length === 0) return undefined;
  const pg = ctx.dialect === 'postgres';
  return ctx.db
    .updateTable('jobs')
    .set((eb) => ({ locked_by: workerId, locked_until: now + leaseS, attempts: eb('attempts', '+', 1) }))
    .where('id', '=', (eb) =>
      eb
        .selectFrom('jobs')
        .select('id')
        .where('status', '=', 'pending')
        .where('run_at', '<=', now)
        .where('kind', 'in', kinds)
        .where('attempts', '<', eb.ref('max_attempts'))
        .where((w) => w.or([w('locked_until', 'is', null), w('locked_until', '<', now)]))
        .orderBy('run_at')
        .orderBy('id')
        .limit(1)
        .$if(pg, (q) => q.forUpdate().skipLocked()),
    )
    .returning(['id', 'kind', 'payload', 'attempts', 'max_attempts', 'run_at'])
    .executeTakeFirst();
}

/** Marks a claimed job done; false when this worker no longer holds its lease. */
async function complete(ctx: AppContext, workerId: string, id: number): Promise<boolean> {
  const r = await ctx.db
    .updateTable('jobs')
    .set({ status: 'done', finished_at: nowS(), locked_by: null, locked_until: null, last_error: null, progress: 1 })
    .where('id', '=', id)
    .where('locked_by', '=', workerId)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Records a failed attempt: retried after the backoff, or failed for good when attempts run out. */
async function fail(ctx: AppContext, workerId: string, job: JobRow, error: string): Promise<'retry' | 'failed'> {
  const final = job.attempts >= job.max_attempts;
  const now = nowS();
  await ctx.db
    .updateTable('jobs')
    .set({
      status: final ? 'failed' : 'pending',
      run_at: final ? job.run_at : now + backoffS(job.attempts),
      finished_at: final ? now : null,
      locked_by: null,
      locked_until: null,
      last_error: error.slice(0, 2000),
    })
    .where('id', '=', job.id)
    .where('locked_by', '=', workerId)
    .execute();
  return final ? 'failed' : 'retry';
}

/** Fails jobs whose last allowed attempt died with its worker, and forgets finished jobs after a week. */
export async function sweepJobs(ctx: AppContext, now = nowS()): Promise<void> {
  await ctx.db
    .updateTable('jobs')
    .set({ status: 'failed', finished_at: now, locked_by: null, last_error: 'The worker stopped during the last attempt (lease expired).' })
    .where('status', '=', 'pending')
    .where('locked_until', '<', now)
    .where((eb) => eb('attempts', '>=', eb.ref('max_attempts')))
    .execute();
  await ctx.db
    .deleteFrom('jobs')
    .where('status', 'in', ['done', 'failed'])
    .where('finished_at', '<', now - 7 * 24 * 3600)
    .execute();
}

export interface WorkerOptions {
  /** How often an idle worker looks for due jobs. */
  pollMs?: number;
  /** How long a claim holds before another worker may take the job; renewed while the job runs. */
  leaseS?: number;
  /** Jobs run at once by this worker. */
  concurrency?: number;
  recurring?: Recurring[];
  log?: JobLog;
}

export interface Worker {
  readonly id: string;
  start(): void;
  /** Stops claiming, and waits for the jobs in hand. */
  stop(): Promise<void>;
  /** Claims and runs due jobs until none is left (tests, and the loop's own step). */
  runUntilIdle(): Promise<number>;
  wake(): void;
}

const silent: JobLog = { info() {}, warn() {}, error() {} };

/**
 * The in-process worker: claims due jobs of the kinds it has handlers for, runs them with a
 * renewed lease, retries failures with backoff, and keeps recurring jobs scheduled. Any number of
 * processes may run one against the same database.
 */
export function createWorker(ctx: AppContext, jobs: readonly JobDefinition[], opts: WorkerOptions = {}): Worker {
  const handlers = new Map(jobs.map((j) => [j.kind, j]));
  const id = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const { pollMs = 1000, leaseS = 60, concurrency = 2, recurring = [], log = silent } = opts;
  const kinds = [...handlers.keys()];
  let running = false;
  let timer: NodeJS.Timeout | undefined;
  let loop: Promise<void> | null = null;
  let lastSweep = 0;

  async function runOne(): Promise<boolean> {
    const job = await claimJob(ctx, id, kinds, leaseS);
    if (!job) return false;
    const def = handlers.get(job.kind) as JobDefinition;
    // Keep the lease while the handler works, so a long job is not taken by a second worker.
    const renew = setInterval(
      () => {
        void ctx.db
          .updateTable('jobs')
          .set({ locked_until: nowS() + leaseS })
          .where('id', '=', job.id)
          .where('locked_by', '=', id)
          .execute()
          .catch(() => undefined);
      },
      Math.max(clockMs(1), clockMs(leaseS) / 3),
    );
    const runLog = { info: log.info.bind(log), warn: log.warn.bind(log), error: log.error.bind(log) };
    try {
      // A payload queued by an older version, or by hand, fails here with the schema's words.
      const payload = def.payload.parse(JSON.parse(job.payload));
      const progress = async (fraction: number, result?: unknown) => {
        await ctx.db
          .updateTable('jobs')
          .set({ progress: Math.min(1, Math.max(0, fraction)), ...(result === undefined ? {} : { result: JSON.stringify(result) }) })
          .where('id', '=', job.id)
          .where('locked_by', '=', id)
          .execute();
      };
      await def.handler(ctx, payload, { id: job.id, kind: job.kind, attempt: job.attempts, runAt: job.run_at, log: runLog, progress });
      clearInterval(renew);
      // Done but not yet recorded: the crash tests kill here.
      crashPoint('job', job.kind);
      if (!(await complete(ctx, id, job.id))) log.warn({ job: job.id, kind: job.kind }, 'job finished after its lease was taken over');
    } catch (err) {
      clearInterval(renew);
      const outcome = await fail(ctx, id, job, err instanceof Error ? err.message : String(err));
      log[outcome === 'failed' ? 'error' : 'warn'](
        { job: job.id, kind: job.kind, attempt: job.attempts, err: String(err) },
        `job ${outcome === 'failed' ? 'failed' : 'will retry'}`,
      );
    }
    return true;
  }

  async function housekeeping() {
    // Once a minute of the clock (which tests may run fast: recurring jobs keep up with it).
    if (nowS() - lastSweep < 60) return;
    lastSweep = nowS();
    await sweepJobs(ctx);
    for (const r of recurring) await ensureRecurring(ctx.db, r);
  }

  async function runUntilIdle(): Promise<number> {
    await housekeeping();
    let done = 0;
    // `concurrency` lanes, each taking jobs until none is due.
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (await runOne()) done++;
      }),
    );
    return done;
  }

  function schedule(ms: number) {
    clearTimeout(timer);
    if (!running) return;
    timer = setTimeout(() => {
      loop ??= runUntilIdle()
        .catch((err) => log.error({ err: String(err) }, 'job worker step failed'))
        .then(() => {
          loop = null;
          schedule(pollMs);
        });
    }, ms);
  }

  const worker: Worker = {
    id,
    start() {
      if (running) return;
      running = true;
      localWorkers.add(worker);
      schedule(0);
    },
    async stop() {
      running = false;
      localWorkers.delete(worker);
      clearTimeout(timer);
      await loop;
    },
    runUntilIdle,
    wake() {
      if (running && !loop) schedule(0);
    },
  };
  return worker;
}
