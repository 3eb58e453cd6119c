import { startOfPeriod } from '@vpp/shared/time';
import { afterAll, describe, expect, it } from 'vitest';
import { DIALECTS, serverProcess, waitFor } from './test/server-process.ts';

/**
 * kill -9 during the demo's first start (issue 32 item 6): the demo's history (demo-history.ts) is
 * killed after its second step's create and before that step's orders (CRASH_AT=demo-history:2).
 * Restarted on the same data, the start resumes its steps where it stopped (the plan kept in
 * `settings`, fleet.ts): in the end every evening of the backfilled window has its one dispatch per
 * VPP, ordered before its start, none twice, with the RERT and the curtailment, and all settle.
 */
/**
 * How long the resumed history and its settlement may each take: generous, the machine being shared
 * (a load of 20 on two cores); the waits end as soon as their condition holds.
 */
const DEADLINE_MS = 6 * 60_000;
/** demo-history.ts: 18:00 local for an hour, created two hours before; a step needs 15 minutes of history before it. */
const VPPS = [
  { name: 'Greater Sydney', zone: 'Australia/Sydney' },
  { name: 'Queensland', zone: 'Australia/Brisbane' },
];

interface Event {
  id: number;
  type: string;
  name: string;
  start_time: number;
  orders_sent_at: number | null;
  origin: string | null;
}

for (const { dialect, skip } of DIALECTS) {
  describe.skipIf(skip)(`the demo's first start across a kill -9 [${dialect}]`, () => {
    const srv = serverProcess(dialect, 'democrash', { SIM_NODES: '200', SIM_HISTORY_DAYS: '2', SIM_INTERVAL_S: '30' });
    afterAll(() => srv.cleanup());
    const events = () =>
      srv.query<Event>(
        `select e.id, e.type, p.name, e.start_time, coalesce(d.orders_sent_at, c.orders_sent_at) as orders_sent_at, d.origin
           from events e join powerstations p on p.id = e.powerstation_id
           left join dispatches d on d.event_id = e.id left join curtailments c on c.event_id = e.id order by e.start_time, e.id`,
      );

    // The starts (5 minutes each at most, server-process.ts), the crash (10) and the two waits.
    it('resumes its history where it stopped, ending with every event once, ordered and settled', { timeout: 2 * DEADLINE_MS + 15 * 60_000 }, async () => {
      // The kill comes before or after the first /healthz answers: the wait is for the process to end.
      expect(await srv.untilKilled({ CRASH_AT: 'demo-history:2' })).toBe('SIGKILL');
      // Killed mid-step: the plan is kept, the second step's event exists without its orders.
      const [plan] = await srv.query<{ value: string }>(`select value from settings where key = 'fleet_history'`);
      const { from, to } = JSON.parse(plan.value) as { from: number; to: number };
      const atKill = await events();
      expect(atKill).toHaveLength(2);
      expect(atKill[1].orders_sent_at).toBeNull();

      const server = await srv.start();
      await waitFor('the history to finish', async () => (await srv.query(`select value from settings where key = 'fleet_history'`)).length === 0, DEADLINE_MS);
      const all = await events();
      // Every evening of the window (as demo-history.ts chooses them) has its one dispatch per VPP (the
      // Queensland VPP's automatic trader, running since the start, makes dispatches of its own: left out).
      const fits = (start: number, duration: number) => start - 7200 >= from + 900 && start + duration <= to;
      for (const v of VPPS) {
        const evenings: number[] = [];
        for (let day = startOfPeriod(from, 'day', v.zone); day < to; day = startOfPeriod(day + 30 * 3600, 'day', v.zone))
          if (fits(day + 18 * 3600, 3600)) evenings.push(day + 18 * 3600);
        expect(all.filter((e) => e.type === 'DISPATCH' && e.name === v.name && e.origin === null).map((e) => Number(e.start_time))).toEqual(evenings);
      }
      expect(all.filter((e) => e.type === 'RERT')).toHaveLength(1);
      expect(all.filter((e) => e.type === 'CURTAILMENT')).toHaveLength(1);
      for (const e of all) expect(Number(e.orders_sent_at), `${e.type} ${e.id}`).toBeLessThan(Number(e.start_time));

      // And they settle: the dispatches and the RERT into settlements, the curtailment into credits.
      await waitFor(
        'the resumed history to settle',
        async () => {
          const [d] = await srv.query<{ n: number }>(`select count(*) as n from dispatch_settlements`);
          const [c] = await srv.query<{ n: number }>(`select count(*) as n from curtailment_settlements where credit is not null`);
          const due = all.filter((e) => e.type !== 'CURTAILMENT' && Number(e.start_time) + 3600 + 3600 < Date.now() / 1000 - 120).length;
          return Number(d.n) >= due && Number(c.n) === 1;
        },
        DEADLINE_MS,
      );
      expect(server.url).toBeTruthy();
      await srv.stop();
    });
  });
}
