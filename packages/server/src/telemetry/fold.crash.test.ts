import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../test/free-port.ts';
import { fastClock, serverProcess, waitFor } from '../test/server-process.ts';
import { type ServerProcess, startServerProcess } from '../test/start-server.ts';

/**
 * Issue 28 item 9, each job run once: two console processes on one PostgreSQL run the 5-minute fold
 * (a recurring job, telemetry/fold.ts) once per bucket between them, and when the one folding is
 * killed (SIGKILL, in the middle of a fold), the other takes the fold over once its lease runs out.
 * The first process runs the demo's devices over its embedded broker; the second has no broker and
 * no simulator, so its only share of the telemetry is the fold runs its worker takes. Their clock
 * runs 20 times fast (a bucket is 15 s), the job lease is 200 s of it (10 s).
 */
const pgUrl = process.env.TEST_DATABASE_URL;
const RATE = 20;

describe.skipIf(!pgUrl)('the 5-minute fold with two console processes on one PostgreSQL', () => {
  const { env: clockEnv, clock } = fastClock(RATE);
  const env = { ...clockEnv, SIM_NODES: '8', SIM_WIRE: 'true', JOB_LEASE_S: '200', LOG_LEVEL: 'warn' };
  const a = serverProcess('postgres', 'fold-two', env);
  let b: ServerProcess | null = null;
  const bLog: string[] = [];
  /** The second process on the first's database, without broker nor simulator. */
  const startB = (more: Record<string, string> = {}) =>
    startServerProcess({
      name: 'fold-two-b',
      log: 'pipe',
      onLog: (line) => bLog.push(line),
      waitForAnswer: !more.CRASH_AT,
      env: { ...env, SIMULATOR: 'false', MQTT_PORT: '0', DATABASE_URL: pgUrl as string, DATABASE_SCHEMA: a.schema, CRASH_AT: '', ...more },
    });
  const count = async (sql: string) => Number((await a.query<{ n: number }>(sql))[0].n);
  /** The fold runs done, by bucket end, with how many times each was claimed. */
  const folds = (after: number) =>
    a.query<{ id: number; at: number; attempts: number; status: string; locked_by: string | null }>(
      `select id, run_at as at, attempts, status, locked_by from jobs where kind = 'telemetry.fold' and run_at > ${after} order by run_at`,
    );

  beforeAll(async () => {
    await a.start({ MQTT_PORT: String(await freePort()) });
    b = await startB();
  }, 600_000);

  afterAll(async () => {
    await b?.end();
    await a.cleanup();
  });

  it('folds each bucket once between the two, and the survivor folds the bucket whose folder was killed', async () => {
    // The demo's devices report live: their readings wait in the open table for the fold.
    await waitFor('live readings', async () => (await count('select count(*) as n from tel_open')) > 0, 300_000);
    const from = clock();
    // Both processes' workers poll for the fold of each bucket as it closes: three buckets go by.
    await waitFor('three fold runs done', async () => (await folds(from)).filter((f) => f.status === 'done').length >= 3, 180_000);
    for (const f of await folds(from)) if (f.status === 'done') expect(f, `the fold of the bucket before ${f.at}`).toMatchObject({ attempts: 1 });

    // The second process again, killed at its first fold: it takes a bucket's run when it wins the
    // poll, and dies in the middle of it, its writes not committed.
    await b?.end();
    b = await startB({ CRASH_AT: 'telemetry-fold:1' });
    expect(await b.exited).toBe('SIGKILL');
    b = null;
    // Its lease runs out and the first process folds that bucket, once more and not twice: the one
    // run claimed twice.
    await waitFor('the killed fold taken over', async () => (await folds(from)).some((f) => f.attempts === 2 && f.status === 'done'), 120_000);
    const taken = (await folds(from)).filter((f) => f.attempts > 1);
    expect(taken).toEqual([expect.objectContaining({ status: 'done', attempts: 2, locked_by: null })]);

    // Every reading folded once: no 5-minute bucket of a node holds more than its 300 seconds.
    expect(await count(`select count(*) as n from tel_5m where ts >= ${from} and cov > 300`)).toBe(0);
    expect(await count(`select count(*) as n from tel_5m where ts >= ${from}`)).toBeGreaterThan(0);
    // And no fold met another (PostgreSQL's serialization failure), nor was run again, in either process.
    const troubles = [...a.log, ...bLog].filter(
      (l) => /could not serialize/.test(l) || (l.includes('telemetry.fold') && /job will retry|job failed|lease was taken over/.test(l)),
    );
    expect(troubles).toEqual([]);
  }, 600_000);
});
