import { CURTAILMENT } from '@vpp/shared/curtailments/messages';
import { expect, it } from 'vitest';
import { nowS } from '../../db/database.ts';
import { feedInPlan, node } from '../../test/factories.ts';
import { describeEachDatabase } from '../../test/harness.ts';
import { withinOneDay } from '../../test/local-day.ts';
import { runDispatchEngine } from '../dispatches/index.ts';
import { runCurtailmentEngine } from './curtailments.orders.service.ts';
import { createImportLimit, curtailmentSource } from './curtailments.service.ts';
import { settleCurtailment } from './curtailments.settlement.service.ts';

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

// A curtailment settled by hand from the stored data (issue 33 item 5; docs/settlement.md): a 15-minute
// curtailment of three homes from S, cancelled at S + 750 s (2.5 minutes into its third bucket).
//   A holds this retailer's plan with a feed-in tariff of 0.08 $/kWh and accepted its limit: its inverter
//   held back 1.2, 2.4 and 3.6 kW in the three buckets (0.1, 0.2, 0.3 kWh; the third bucket counts
//   whole: the limit was lifted at the cancel, so the device held back nothing after it), and
//   1.2 kW in the buckets before and after the event (not the curtailment's): 0.6 kWh × 0.08 = 0.048 AUD.
//   B holds no plan (the CURTAILMENT_CREDIT_RATE setting, 0.05 $/kWh); its limit was dropped after the
//   first bucket: 2.4 kW in the first two buckets, the first counts, 0.2 kWh × 0.05 = 0.010 AUD.
//   C opted out: 1.2 kW held back under a limit of its own, not this curtailment's: nothing.
//   Settled: 0.8 kWh, 0.058 AUD, rounded once to 6 cents over the event: A 4.8 → 5, B 1.0 → 1 (largest remainder).
describeEachDatabase('a curtailment settled by hand', (h) => {
  it('credits the solar each accepted limit held back, bucket by bucket, at the customer’s feed-in tariff, up to the cancel', async () => {
    const { db, telemetry, config } = h().ctx;
    const org = await h().org('RETAILER', 'Walked Feed-In');
    const headers = await h().bearer((await h().user(org)).username);
    const now = nowS();
    // Within one Sydney day: grid credits are one line per node and local day.
    const S = withinOneDay(now - (now % 300) + 3600, 900);
    const [a, b, c] = [(await node(h(), [org])).id, (await node(h(), [org])).id, (await node(h(), [org])).id];
    await telemetry.ensurePartitions(S - 86_400, S + 86_400);
    await telemetry.ingest([a, b, c].map((nodeId) => ({ nodeId, ts: now - (now % 30) - 30, dt: 30, meter_p: 0 })));
    const vpp = (
      await h().app.inject({ method: 'POST', url: '/api/powerstations', headers, payload: { type: 'STATIC', name: 'Walked', nodes: [a, b, c] } })
    ).json().data.id;
    const res = await h().app.inject({
      method: 'POST',
      url: '/api/curtailments',
      headers,
      payload: { powerstation: vpp, startTime: S, duration: 900, realPowerP: 0 },
    });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().data.id as number;
    expect((await runCurtailmentEngine(h().ctx, now)).sent).toContain(id);
    const answer = (nodeId: number, status: 'ACCEPTED' | 'OPTED_OUT', end?: number) =>
      db
        .updateTable('node_commands')
        .set({ status, responded_at: now, ...(end === undefined ? {} : { end_ts: end }) })
        .where('source', '=', curtailmentSource(id))
        .where('node_id', '=', nodeId)
        .execute();
    await answer(a, 'ACCEPTED');
    await answer(b, 'ACCEPTED', S + 300);
    await answer(c, 'OPTED_OUT');
    await db
      .updateTable('events')
      .set({ cancelled_at: S + 750 })
      .where('id', '=', id)
      .execute();
    const held: [number, number[]][] = [
      [a, [1.2, 1.2, 2.4, 3.6, 1.2]],
      [b, [0, 2.4, 2.4, 0, 0]],
      [c, [0, 1.2, 0, 0, 0]],
    ];
    await telemetry.ingest(held.flatMap(([nodeId, kw]) => kw.map((p, i) => ({ nodeId, ts: S - 300 + i * 300, dt: 300, meter_p: 0, curtailed_p: p }))));
    await telemetry.ingest([a, b, c].map((nodeId) => ({ nodeId, ts: S + 3 * 3600, dt: 300, meter_p: 0 })));
    await feedInPlan(h(), org, a);
    expect(config.CURTAILMENT_CREDIT_RATE).toBe(0.05);

    expect(await settleCurtailment(h().ctx, id, S + 750 + config.SETTLEMENT_DELAY_S)).toBe(true);
    const s = await db.selectFrom('curtailment_settlements').selectAll().where('event_id', '=', id).executeTakeFirstOrThrow();
    expect([Number(s.period_start), Number(s.period_end)]).toEqual([S, S + 750]);
    expect(s.curtailed_kwh).toBeCloseTo(0.8, 9);
    expect(s.credit).toBeCloseTo(0.058, 9);
    expect([s.nodes_limited, s.nodes_curtailed]).toEqual([2, 2]);
    const nmis = new Map((await db.selectFrom('nodes').select(['id', 'nmi']).where('id', 'in', [a, b, c]).execute()).map((n) => [n.nmi, n.id]));
    const items = await db
      .selectFrom('billing_items')
      .select(['nmi', 'type', 'amount', 'rate', 'cost_cents'])
      .where('event_id', '=', id)
      .orderBy('nmi')
      .execute();
    expect(items.map((i) => [nmis.get(i.nmi), i.type, Number(i.amount.toFixed(9)), Number(i.rate.toFixed(9)), Number(i.cost_cents)])).toEqual([
      [a, 'Curtailment', 0.6, 0.08, 5],
      [b, 'Curtailment', 0.2, 0.05, 1],
    ]);
  });
});

// An import limit (issue 31) is a network protection service: it holds back no feed-in, so its
// settlement gives no credit, even where its homes' inverters held solar back in its window (under
// another limit) and the homes hold a plan with a feed-in tariff.
describeEachDatabase('an import limit settled', (h) => {
  it('is settled with 0 kWh and $0 and writes no grid credits', async () => {
    const { db, telemetry, config } = h().ctx;
    const org = await h().org('NETWORK', 'Import Network');
    const headers = await h().bearer((await h().user(org)).username);
    const now = nowS();
    const S = now - (now % 300) + 3600;
    const [a, b] = [(await node(h(), [org])).id, (await node(h(), [org])).id];
    await telemetry.ensurePartitions(S - 86_400, S + 86_400);
    await telemetry.ingest([a, b].map((nodeId) => ({ nodeId, ts: now - (now % 30) - 30, dt: 30, meter_p: 0 })));
    const vpp = (
      await h().app.inject({ method: 'POST', url: '/api/powerstations', headers, payload: { type: 'STATIC', name: 'Import feeder', nodes: [a, b] } })
    ).json().data.id;
    const actor = { id: null, organisationId: org, reason: 'Import limit (OpenADR event-7 from vtn.test)' };
    const { id } = await createImportLimit(h().ctx, actor, { powerstation: vpp, startTime: S, duration: 900, importKw: 2 }, now);
    expect((await runCurtailmentEngine(h().ctx, now)).sent).toContain(id);
    await db.updateTable('node_commands').set({ status: 'ACCEPTED', responded_at: now }).where('source', '=', curtailmentSource(id)).execute();
    await telemetry.ingest([a, b].flatMap((nodeId) => [0, 1, 2].map((i) => ({ nodeId, ts: S + i * 300, dt: 300, meter_p: 1.5, curtailed_p: 1.2 }))));
    await telemetry.ingest([a, b].map((nodeId) => ({ nodeId, ts: S + 3 * 3600, dt: 300, meter_p: 0 })));

    expect(await settleCurtailment(h().ctx, id, S + 900 + config.SETTLEMENT_DELAY_S)).toBe(true);
    const s = await db.selectFrom('curtailment_settlements').selectAll().where('event_id', '=', id).executeTakeFirstOrThrow();
    expect([Number(s.period_start), Number(s.period_end), s.curtailed_kwh, s.credit, s.nodes_limited, s.nodes_curtailed]).toEqual([S, S + 900, 0, 0, 2, 0]);
    expect(await db.selectFrom('billing_items').select('nmi').where('event_id', '=', id).execute()).toEqual([]);
    // Settled once: a second run writes nothing.
    expect(await settleCurtailment(h().ctx, id, S + 900 + config.SETTLEMENT_DELAY_S)).toBe(false);
  });
});
