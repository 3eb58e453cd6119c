import fs from 'node:fs';
import path from 'node:path';
import { setImmediate } from 'node:timers/promises';
import { simpleParser } from 'mailparser';
import { expect, it } from 'vitest';
import { z } from 'zod';
import { nowS } from '../db/database.ts';
import { describeEachDatabase } from '../test/harness.ts';
import { waitFor } from '../test/wait.ts';
import { backoffS, claimJob, createWorker, defineJob, enqueue, enqueueJob, ensureRecurring, type JobHandler, jobState, sweepJobs } from './jobs.ts';
import { MAIL_JOB, mailJob, outboxDir, sendMail } from './mail.ts';

/** Jobs of any payload, one per kind: the queue's mechanics, whatever the payload. */
const jobs = (handlers: Record<string, JobHandler>) => Object.entries(handlers).map(([kind, handler]) => defineJob(kind, z.unknown(), handler));

let n = 0;
/** A job kind no other test uses, so suites sharing a database do not take each other's jobs. */
const kind = (name: string) => `test.${name}.${++n}`;

describeEachDatabase('durable jobs', (h) => {
  const job = (id: number) => h().ctx.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  it('runs a due job once and marks it done', async () => {
    const k = kind('once');
    const seen: unknown[] = [];
    const id = (await enqueue(h().ctx.db, k, { hello: 'world' })) as number;
    const worker = createWorker(h().ctx, jobs({ [k]: async (_ctx, payload) => void seen.push(payload) }));
    expect(await worker.runUntilIdle()).toBe(1);
    expect(await worker.runUntilIdle()).toBe(0);
    expect(seen).toEqual([{ hello: 'world' }]);
    expect(await job(id)).toMatchObject({ status: 'done', attempts: 1, locked_by: null });
  });

  it('leaves a job for later alone until its run_at', async () => {
    const k = kind('later');
    const id = (await enqueue(h().ctx.db, k, null, { runAt: nowS() + 3600 })) as number;
    expect(await claimJob(h().ctx, 'w', [k], 60)).toBeUndefined();
    expect((await claimJob(h().ctx, 'w', [k], 60, nowS() + 3601))?.id).toBe(id);
  });

  it('retries a failing job with backoff, then fails it for good when its attempts run out', async () => {
    const k = kind('flaky');
    const id = (await enqueue(h().ctx.db, k, null, { maxAttempts: 2 })) as number;
    let calls = 0;
    const worker = createWorker(
      h().ctx,
      jobs({
        [k]: async () => {
          calls++;
          throw new Error('SMTP server down');
        },
      }),
    );
    const before = nowS();
    await worker.runUntilIdle();
    const first = await job(id);
    expect(first).toMatchObject({ status: 'pending', attempts: 1, last_error: 'SMTP server down', locked_by: null });
    expect(first.run_at).toBeGreaterThanOrEqual(before + backoffS(1));
    // Not due again before the backoff has passed.
    expect(await worker.runUntilIdle()).toBe(0);
    await h().ctx.db.updateTable('jobs').set({ run_at: nowS() }).where('id', '=', id).execute();
    await worker.runUntilIdle();
    expect(calls).toBe(2);
    expect(await job(id)).toMatchObject({ status: 'failed', attempts: 2, last_error: 'SMTP server down' });
  });

  it('grows the backoff from 30 s to at most an hour', () => {
    expect([1, 2, 3, 4, 10, 20].map(backoffS)).toEqual([30, 60, 120, 240, 3600, 3600]);
  });

  it('runs a job again when the worker that claimed it died (its lease expired)', async () => {
    const k = kind('crash');
    const id = (await enqueue(h().ctx.db, k, { n: 1 })) as number;
    // A worker claims the job with a 1 s lease and then dies without finishing.
    expect((await claimJob(h().ctx, 'dead-worker', [k], 1))?.id).toBe(id);
    const survivor = createWorker(h().ctx, jobs({ [k]: async () => undefined }), { leaseS: 30 });
    expect(await survivor.runUntilIdle()).toBe(0); // the lease still holds
    // The lease runs out when the clock passes its end (whole seconds), not after a fixed wait.
    const { locked_until } = await job(id);
    await waitFor('the dead worker’s lease to run out', () => nowS() > Number(locked_until));
    expect(await survivor.runUntilIdle()).toBe(1);
    expect(await job(id)).toMatchObject({ status: 'done', attempts: 2 });
  });

  it('fails a job whose last allowed attempt died with its worker', async () => {
    const k = kind('crash-last');
    const id = (await enqueue(h().ctx.db, k, null, { maxAttempts: 1 })) as number;
    await claimJob(h().ctx, 'dead-worker', [k], 1);
    await sweepJobs(h().ctx, nowS() + 5);
    expect(await job(id)).toMatchObject({ status: 'failed', last_error: 'The worker stopped during the last attempt (lease expired).' });
  });

  it('never gives one job to two workers claiming at the same time', async () => {
    const k = kind('race');
    const ids = new Set<number>();
    for (let i = 0; i < 12; i++) ids.add((await enqueue(h().ctx.db, k, { i })) as number);
    const claims = await Promise.all(Array.from({ length: 20 }, (_, i) => claimJob(h().ctx, `w${i}`, [k], 60)));
    const got = claims.filter((c) => c !== undefined).map((c) => c.id);
    expect(new Set(got).size).toBe(got.length);
    expect(new Set(got)).toEqual(ids);
  });

  it('runs the jobs of several workers in parallel without running any twice', async () => {
    const k = kind('parallel');
    const runs: number[] = [];
    const handler: JobHandler = async (_ctx, payload) => {
      // A job that gives way before it finishes, so that the workers' runs interleave.
      await setImmediate();
      runs.push((payload as { i: number }).i);
    };
    for (let i = 0; i < 30; i++) await enqueue(h().ctx.db, k, { i });
    const workers = [1, 2, 3].map(() => createWorker(h().ctx, jobs({ [k]: handler }), { concurrency: 3 }));
    await Promise.all(workers.map((w) => w.runUntilIdle()));
    expect(runs.sort((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, i) => i));
  });

  it('ignores a second job with the same unique key, and schedules each recurring run once', async () => {
    const k = kind('unique');
    expect(await enqueue(h().ctx.db, k, null, { uniqueKey: `${k}@1` })).not.toBeNull();
    expect(await enqueue(h().ctx.db, k, null, { uniqueKey: `${k}@1` })).toBeNull();
    const r = kind('hourly');
    const now = 1_750_000_000;
    await ensureRecurring(h().ctx.db, { kind: r, periodS: 3600 }, now);
    await ensureRecurring(h().ctx.db, { kind: r, periodS: 3600 }, now + 10);
    const rows = await h().ctx.db.selectFrom('jobs').select(['run_at', 'payload']).where('kind', '=', r).orderBy('run_at').execute();
    const hour = Math.floor(now / 3600) * 3600;
    expect(rows).toEqual([
      { run_at: hour, payload: JSON.stringify({ at: hour }) },
      { run_at: hour + 3600, payload: JSON.stringify({ at: hour + 3600 }) },
    ]);
  });

  it('picks up jobs by itself once started, and stops cleanly', async () => {
    const k = kind('loop');
    const done: number[] = [];
    const worker = createWorker(h().ctx, jobs({ [k]: async (_c, p) => void done.push((p as { i: number }).i) }), { pollMs: 50 });
    worker.start();
    await enqueue(h().ctx.db, k, { i: 1 });
    await enqueue(h().ctx.db, k, { i: 2 });
    await waitFor('the worker to run both jobs', () => done.length >= 2);
    await worker.stop();
    expect(done.sort()).toEqual([1, 2]);
  });

  it('sends e-mail through a job: without SMTP_URL the message lands in DATA_DIR/outbox as an .eml file', async () => {
    await sendMail(h().ctx.db, { to: 'ada@example.test', subject: 'Hello from the queue', text: 'First line.\nA link: http://localhost:8080/x?token=abc' });
    const worker = createWorker(h().ctx, [mailJob]);
    await worker.runUntilIdle();
    const dir = outboxDir(h().ctx.config);
    const files = fs.readdirSync(dir).filter((f) => f.endsWith('.eml'));
    const mails = await Promise.all(files.map(async (f) => simpleParser(fs.readFileSync(path.join(dir, f)))));
    const mail = mails.find((m) => m.subject === 'Hello from the queue');
    expect(mail?.text?.trim()).toBe('First line.\nA link: http://localhost:8080/x?token=abc');
    expect(mail?.from?.value[0]).toMatchObject({ name: 'VPP Console', address: 'no-reply@localhost' });
    expect((await h().ctx.db.selectFrom('jobs').select('status').where('kind', '=', MAIL_JOB).execute()).every((j) => j.status === 'done')).toBe(true);
  });

  it("checks a typed job's payload when it is queued and again when it runs, and keeps its progress and result", async () => {
    const k = kind('typed');
    const typed = defineJob(k, z.object({ rows: z.number().int().positive() }), async (_ctx, payload, run) => {
      await run.progress(0.5);
      await run.progress(0.9, { file: `export-${payload.rows}.csv`, rows: payload.rows });
    });
    await expect(enqueueJob(h().ctx.db, typed, { rows: -1 })).rejects.toThrow();
    expect(await h().ctx.db.selectFrom('jobs').select('id').where('kind', '=', k).execute()).toEqual([]);

    const id = (await enqueueJob(h().ctx.db, typed, { rows: 3 }, { uniqueKey: `${k}@once` })) as number;
    expect(await enqueueJob(h().ctx.db, typed, { rows: 3 }, { uniqueKey: `${k}@once` })).toBeNull();
    // A payload that no longer fits the schema (queued by hand, or by an older version) fails the run.
    const bad = (await enqueue(h().ctx.db, k, { rows: 'many' }, { maxAttempts: 1 })) as number;
    await createWorker(h().ctx, [typed]).runUntilIdle();
    expect(await jobState(h().ctx.db, id)).toMatchObject({ status: 'done', progress: 1, result: { file: 'export-3.csv', rows: 3 } });
    const failed = await jobState(h().ctx.db, bad);
    expect(failed?.status).toBe('failed');
    expect(failed?.last_error).toContain('expected number');
  });
});
