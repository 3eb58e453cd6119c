import { CURTAILMENT } from '@vpp/shared';
import { expect, it } from 'vitest';
import { nowS } from '../../db/database.ts';
import { describeEachDatabase } from '../../test/harness.ts';
import { runDispatchEngine } from '../dispatches/index.ts';
import { runCurtailmentEngine } from './curtailments.orders.service.ts';

// The settlement queues page through every due event: more than one page (500) of each kind, with
// nothing holding them back (no nodes to wait for), are all queued in one run, and once only.
describeEachDatabase('settlement queues', (h) => {
  it('queue every due dispatch and curtailment, however many, once', async () => {
    const org = await h().org('RETAILER', 'Many Events');
    const now = nowS();
    const start = now - 2 * 86400;
    const count = 620;
    for (const type of ['DISPATCH', CURTAILMENT])
      for (let i = 0; i < count; i += 310)
        await h()
          .ctx.db.insertInto('events')
          .values(
            Array.from({ length: 310 }, () => ({
              organisation_id: org,
              powerstation_id: null,
              type,
              start_time: start,
              duration: 1800,
              cancelled_at: null,
              created_at: start,
            })),
          )
          .execute();
    // One not yet due: it ends after the settlement delay has run out.
    await h()
      .ctx.db.insertInto('events')
      .values({ organisation_id: org, powerstation_id: null, type: CURTAILMENT, start_time: now - 1800, duration: 1800, cancelled_at: null, created_at: start })
      .execute();
    expect((await runDispatchEngine(h().ctx, now)).settling).toHaveLength(count);
    expect((await runCurtailmentEngine(h().ctx, now)).settling).toHaveLength(count);
    expect((await runDispatchEngine(h().ctx, now)).settling).toEqual([]);
    expect((await runCurtailmentEngine(h().ctx, now)).settling).toEqual([]);
    const jobs = await h()
      .ctx.db.selectFrom('jobs')
      .select(['kind', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy('kind')
      .orderBy('kind')
      .execute();
    expect(jobs.map((j) => [j.kind, Number(j.n)])).toEqual([
      ['curtailment-settle', count],
      ['dispatch-settle', count],
    ]);
  });
});
