import { describe, expect, it } from 'vitest';
import { ApiError } from './errors.ts';
import { FAIR_SHARE_MESSAGE, FairShare } from './fair-share.ts';

/** A heavy read held open until the test lets it finish. */
function held() {
  let finish = () => {};
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  return { finish, work: async () => done };
}

describe('the fair share of heavy reads (issue 32 item 5)', () => {
  it("runs 2 of a user's heavy reads at once, queues 8 more in order, refuses the 11th with a 429, and leaves other users alone", async () => {
    const share = new FairShare(2, 8);
    const reads = Array.from({ length: 10 }, () => held());
    const started: number[] = [];
    const running = reads.map((r, i) =>
      share.run('7', async () => {
        started.push(i);
        await r.work();
        return i;
      }),
    );
    await new Promise((resolve) => setImmediate(resolve));
    expect(share.load('7')).toEqual({ running: 2, waiting: 8 });
    expect(started).toEqual([0, 1]);

    // The 11th: refused at once, saying why, with nothing run.
    const refused = await share.run('7', async () => 'ran').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).statusCode).toBe(429);
    expect((refused as ApiError).message).toBe(FAIR_SHARE_MESSAGE(2, 8));
    expect((refused as ApiError).message).toBe(
      'Too many heavy requests at once (long-range series, maps): 2 run and 8 wait for each user. Wait for your earlier ones to finish, then try again.',
    );

    // Another user is not held by the first one's reads.
    expect(await share.run('8', async () => 'other')).toBe('other');

    // As each finishes, the next waiting one starts, in order.
    reads[0].finish();
    expect(await running[0]).toBe(0);
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual([0, 1, 2]);
    for (const r of reads) r.finish();
    expect(await Promise.all(running)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(started).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(share.load('7')).toEqual({ running: 0, waiting: 0 });
  });

  it('frees the turn of a read that fails', async () => {
    const share = new FairShare(1, 0);
    await expect(
      share.run('7', async () => {
        throw new Error('bad read');
      }),
    ).rejects.toThrow('bad read');
    expect(await share.run('7', async () => 'next')).toBe('next');
  });
});
