import { DISPATCH_POWER_STEP_KW } from '@vpp/shared/dispatches/rules';
import { startOfPeriod } from '@vpp/shared/time';
import type { FastifyBaseLogger } from 'fastify';
import type { FleetHistory, HistoryStep } from './demo/fleet.ts';
import { callerOf } from './features/auth/index.ts';
import { createCurtailment, curtailmentConstraint, runCurtailmentEngine } from './features/curtailments/index.ts';
import { constraints, createDispatch, runDispatchEngine } from './features/dispatches/index.ts';
import { seedDemoExports } from './features/exports/index.ts';
import { createRert } from './features/rert/index.ts';
import type { AppContext } from './platform/context.ts';
import { crashPoint } from './platform/crash-points.ts';

// The demo's past dispatches: created, and their orders sent, by the same code as the API's, as at
// a moment of the fleet's history; the backfill then simulates the homes obeying them, and the
// settlement values what their telemetry shows once the backfill has covered their windows. Last,
// the demo's two data exports, once the history is in.

/** The demo retailer's VPPs dispatched every evening of the history (seeded by features/vpps), and their zone. */
const EVENING_VPPS = [
  { name: 'Greater Sydney', zone: 'Australia/Sydney' },
  { name: 'Queensland', zone: 'Australia/Brisbane' },
];
/** The evening discharge: 18:00 local for an hour, created and ordered two hours before. */
const EVENING_S = 18 * 3600;
const DURATION_S = 3600;
const LEAD_S = 2 * 3600;
/** The RERT activation: on the last evening's day, 14:00 local Sydney for 30 minutes. */
const RERT_S = 14 * 3600;
const RERT_DURATION_S = 1800;
/** The curtailment: on the last evening's day, 11:30 local Sydney for an hour, its solar held to a twentieth of what it can put out (binding at noon even under full cloud). */
const CURTAILMENT_S = 11.5 * 3600;
const CURTAILMENT_DURATION_S = 3600;
const CURTAILMENT_SHARE = 0.05;
/** The share of the VPP's discharge limit (its constraints at the time) each dispatch asks for. */
const SHARE = 0.5;
/** A step needs this much history before it: batteries count as reporting on the readings of the last 15 minutes. */
const WARM_UP_S = 900;

/**
 * The demo's history: one evening discharge a day for each of the retailer's two automatic VPPs over
 * the backfilled window, and one RERT activation and one curtailment (gross, at midday, settled into
 * curtailment credits) on the last of those days. Each step creates its
 * dispatch as at two hours before the start (constraints and allocation from the batteries' state
 * then) and runs the dispatch engine at that time, which sends the orders. A VPP with no reporting
 * batteries then (a small fleet) is skipped, logged.
 */
export function demoHistory(ctx: AppContext, log: FastifyBaseLogger): FleetHistory {
  return async (from, to) => {
    const account = await ctx.db.selectFrom('users').select('id').where('username', '=', 'retailer').executeTakeFirst();
    const user = account ? await callerOf(ctx, account.id, 'done', { kind: 'download' }) : null;
    if (!user) return [];
    const vpps = await ctx.db
      .selectFrom('powerstations')
      .select(['id', 'name'])
      .where('organisation_id', '=', user.organisationId)
      .where(
        'name',
        'in',
        EVENING_VPPS.map((v) => v.name),
      )
      .execute();
    const fits = (start: number, duration: number) => start - LEAD_S >= from + WARM_UP_S && start + duration <= to;
    /** A discharge of SHARE of what the VPP can give for `duration` as at `at`, on the power step. */
    const request = async (powerstation: number, startTime: number, duration: number, at: number) => {
      const c = await constraints(ctx, user, powerstation, { duration, realPowerP: 0, powerFactor: 1 }, at);
      const kw = Math.ceil((c.realPowerPMin * SHARE) / DISPATCH_POWER_STEP_KW) * DISPATCH_POWER_STEP_KW;
      return { powerstation, startTime, duration, realPowerP: Math.round(kw * 10) / 10 };
    };
    const steps: HistoryStep[] = [];
    /** An event of the demo's own already there: a start killed after the step's create and before its engine (issue 32 item 6). */
    const made = async (powerstation: number, startTime: number) =>
      (await ctx.db
        .selectFrom('events')
        .select('id')
        .where('organisation_id', '=', user.organisationId)
        .where('powerstation_id', '=', powerstation)
        .where('start_time', '=', startTime)
        .where('cancelled_at', 'is', null)
        .executeTakeFirst()) !== undefined;
    const step = (
      at: number,
      what: string,
      event: { powerstation: number; startTime: number },
      create: () => Promise<unknown>,
      engine: (c: AppContext, now: number) => Promise<unknown> = runDispatchEngine,
    ) =>
      steps.push({
        at,
        act: async () => {
          try {
            // A step done again after a kill creates nothing twice; its engine (idempotent) runs again.
            if (!(await made(event.powerstation, event.startTime))) await create();
            // The crash test's kill -9 between a step's create and its orders.
            crashPoint('demo-history');
            await engine(ctx, at);
          } catch (err) {
            log.info(`Demo history: no ${what} (${(err as Error).message})`);
          }
        },
      });
    let lastEvening: number | null = null;
    for (const v of EVENING_VPPS) {
      const vpp = vpps.find((p) => p.name === v.name);
      if (!vpp) continue;
      for (let day = startOfPeriod(from, 'day', v.zone); day < to; day = startOfPeriod(day + 30 * 3600, 'day', v.zone)) {
        const start = day + EVENING_S;
        if (!fits(start, DURATION_S)) continue;
        const at = start - LEAD_S;
        step(at, `evening dispatch of ${v.name}`, { powerstation: vpp.id, startTime: start }, async () => {
          const body = await request(vpp.id, start, DURATION_S, at);
          if (body.realPowerP >= 0) throw new Error('nothing to discharge');
          return createDispatch(ctx, user, body, undefined, at);
        });
        if (v.zone === EVENING_VPPS[0].zone) lastEvening = day;
      }
    }
    const sydney = vpps.find((p) => p.name === EVENING_VPPS[0].name);
    if (sydney && lastEvening !== null && fits(lastEvening + RERT_S, RERT_DURATION_S)) {
      const start = lastEvening + RERT_S;
      const at = start - LEAD_S;
      step(at, 'RERT activation', { powerstation: sydney.id, startTime: start }, async () => {
        const body = await request(sydney.id, start, RERT_DURATION_S, at);
        if (body.realPowerP >= 0) throw new Error('nothing to discharge');
        // AEMO's instruction and the reserve contract it runs under (issue 33 item 3): settled under the contract, never at spot.
        const day = new Date(start * 1000).toISOString().slice(0, 10).replaceAll('-', '');
        return createRert(
          ctx,
          user,
          {
            ...body,
            instruction: { id: `RERT-${day}-NSW1`, noticeCategory: 'SHORT_NOTICE', lorCondition: 'LOR2', preActivationTime: at, activationTime: start - 1800 },
            contract: {
              reference: 'SUNRISE-RERT-2026',
              contractedMw: Math.abs(body.realPowerP) / 1000,
              availabilityRate: 50,
              preActivationRate: 100,
              activationRate: 500,
              usageRate: 1000,
              customerShare: 0.5,
            },
          },
          at,
        );
      });
    }
    if (sydney && lastEvening !== null && fits(lastEvening + CURTAILMENT_S, CURTAILMENT_DURATION_S)) {
      const start = lastEvening + CURTAILMENT_S;
      step(
        start - LEAD_S,
        'curtailment',
        { powerstation: sydney.id, startTime: start },
        async () => {
          const c = await curtailmentConstraint(ctx, user, sydney.id);
          const limit = Math.round(c.constraint * CURTAILMENT_SHARE * 10) / 10;
          if (limit >= 0) throw new Error('no curtailable solar');
          return createCurtailment(
            ctx,
            user,
            { powerstation: sydney.id, startTime: start, duration: CURTAILMENT_DURATION_S, realPowerP: limit, component: 'solar' },
            start - LEAD_S,
          );
        },
        runCurtailmentEngine,
      );
    }
    // Last, with the whole history in: two finished exports on the Data Export page.
    const first = sydney ?? vpps[0];
    if (first)
      steps.push({
        at: to,
        act: () => seedDemoExports(ctx, user, first.id, to).catch((err) => log.info(`Demo history: no exports (${(err as Error).message})`)),
      });
    return steps;
  };
}
