import { afterAll, describe, expect, it } from 'vitest';
import { DIALECTS, fastClock, serverProcess, waitFor } from './test/server-process.ts';

/**
 * kill -9 during a settlement (issue 15, Bad input and faults): the real server in a child process,
 * its clock 60 times faster than real time, kills itself inside the settlement's transaction, after
 * the settlement's rows and before the grid credits (CRASH_AT=settlement:1:dispatch). Started again
 * on the same data, the settlement job runs again: the settlement and its line items exist exactly
 * once, and the items sum to the settled value to the cent.
 */
const RATE = 60;
const DURATION = 900;

for (const { dialect, skip } of DIALECTS) {
  describe.skipIf(skip)(`grid credits across a kill -9 during settlement [${dialect}]`, () => {
    const { env, clock } = fastClock(RATE);
    const srv = serverProcess(dialect, 'bcrash', env);
    afterAll(() => srv.cleanup());

    it('writes the line items once, with the settlement, after the restart', { timeout: 150_000 }, async () => {
      const first = await srv.start({ CRASH_AT: 'settlement:1:dispatch' });
      const headers = await srv.signIn(first.url);
      await srv.fleetLive(clock);
      const nodes = (await srv.call<{ deployments: { id: number }[] }>(`${first.url}/v2/nodes?limit=100&offset=0`, headers)).deployments.map((d) => d.id);
      const vpp = (await srv.call<{ data: { id: number } }>(`${first.url}/api/powerstations`, headers, { type: 'STATIC', name: 'Crash fleet', nodes })).data.id;
      const c = (await srv.call<{ data: { realPowerPMin: number } }>(`${first.url}/api/powerstations/${vpp}/constraints?duration=${DURATION}`, headers)).data;
      const realPowerP = Math.ceil(c.realPowerPMin * 5) / 10;
      const now = clock();
      const start = now - (now % 300) + 600;
      const id = (
        await srv.call<{ data: { id: number } }>(`${first.url}/dispatch`, headers, { powerstation: vpp, startTime: start, duration: DURATION, realPowerP })
      ).data.id;

      // The settlement job kills the server inside its transaction: nothing of it is left.
      expect(await first.exited).toBe('SIGKILL');
      expect(await srv.query(`select event_id from dispatch_settlements where event_id = ${id}`)).toEqual([]);
      expect(await srv.query(`select id from billing_items where event_id = ${id}`)).toEqual([]);

      await srv.start();
      const [settlement] = await waitFor('the settlement after the restart', async () => {
        const rows = await srv.query<{ cost: number; nodes_complete: number }>(`select cost, nodes_complete from dispatch_settlements where event_id = ${id}`);
        return rows.length > 0 && rows;
      });
      // Once: one item per NMI and day, none twice; the job is done and no other run is queued.
      const items = await srv.query<{ nmi: string; day: string; cost_cents: number; type: string }>(
        `select nmi, day, cost_cents, type from billing_items where event_id = ${id} order by nmi, day`,
      );
      expect(settlement.nodes_complete).toBeGreaterThan(0);
      expect(items.length).toBeGreaterThan(0);
      expect(new Set(items.map((i) => `${i.nmi}|${i.day}`)).size).toBe(items.length);
      expect(items.every((i) => i.type === 'Spot Price')).toBe(true);
      // A credit is never a debit (docs/settlement.md).
      expect(items.every((i) => Number(i.cost_cents) >= 0)).toBe(true);
      // The run records itself done after its transaction commits (platform/jobs.ts): the settlement
      // can be read before that record, so the test waits for the run to end, then reads how.
      const jobs = await waitFor('the settlement job to end', async () => {
        const rows = await srv.query<{ status: string }>(`select status from jobs where unique_key = 'dispatch-settle:${id}'`);
        return rows.every((j) => j.status !== 'pending') && rows;
      });
      expect(jobs.map((j) => j.status)).toEqual(['done']);
      await srv.stop();
    });
  });
}
