import { afterAll, describe, expect, it } from 'vitest';
import { DIALECTS, fastClock, serverProcess, waitFor } from './test/server-process.ts';

/**
 * kill -9 between a RERT reschedule and its orders (issue 12, Bad input and faults): the real server
 * in a child process, its clock 60 times faster than real time so that the engine's minute is a
 * second. Once the RERT dispatch's orders are out, a reschedule kills the server after it has
 * withdrawn the old orders and before it sends the new ones (CRASH_AT=rert-reschedule:1). On the
 * same data after a restart the event and its nodes' orders agree: the old window everywhere (the
 * transaction never committed); the reschedule asked again then moves every node to the new window,
 * none left with the old.
 */
const RATE = 60;

for (const { dialect, skip } of DIALECTS) {
  describe.skipIf(skip)(`a RERT reschedule across a kill -9 of the server [${dialect}]`, () => {
    const { env, clock } = fastClock(RATE);
    const srv = serverProcess(dialect, 'rcrash', env);
    afterAll(() => srv.cleanup());

    it('leaves every node with the event’s one window, and the reschedule asked again moves them all', { timeout: 120_000 }, async () => {
      let url = (await srv.start({ CRASH_AT: 'rert-reschedule:1' })).url;
      let headers = await srv.signIn(url);
      await srv.fleetLive(clock);
      const nodes = (await srv.call<{ deployments: { id: number }[] }>(`${url}/v2/nodes?limit=100&offset=0`, headers)).deployments.map((d) => d.id);
      const vpp = (await srv.call<{ data: { id: number } }>(`${url}/api/powerstations`, headers, { type: 'STATIC', name: 'Crash fleet', nodes })).data.id;
      const c = (await srv.call<{ data: { realPowerPMin: number } }>(`${url}/api/powerstations/${vpp}/constraints?duration=1800`, headers)).data;
      expect(c.realPowerPMin).toBeLessThan(0);
      const realPowerP = Math.ceil(c.realPowerPMin * 5) / 10;
      // Six clock hours ahead: six real minutes, upcoming throughout the test.
      const now = clock();
      const start = now - (now % 300) + 6 * 3600;
      const moved = start + 3600;
      const id = (
        await srv.call<{ data: { id: number } }>(`${url}/api/rert-dispatches`, headers, { powerstation: vpp, startTime: start, duration: 1800, realPowerP })
      ).data.id;

      type Command = { node_id: number; start_ts: number; status: string };
      const live = () =>
        srv.query<Command>(
          `select node_id, start_ts, status from node_commands where source = 'dispatch:${id}' and status in ('PENDING', 'ACCEPTED') order by node_id`,
        );
      const allocated = async () =>
        (await srv.query<{ node_id: number }>(`select node_id from dispatch_nodes where event_id = ${id} order by node_id`)).map((r) => r.node_id);
      // A node's orders hold one window: its first starts with the window and all lie within it (a
      // battery that runs out early has a second, lower order for its last minutes).
      const holds = (l: Command[], from: number) =>
        l.every((o) => o.start_ts >= from && o.start_ts < from + 1800) &&
        nodesOf(l).every((n) => Math.min(...l.filter((o) => o.node_id === n).map((o) => o.start_ts)) === from);
      const nodesOf = (l: Command[]) => [...new Set(l.map((o) => o.node_id))];
      const orders = await waitFor('the orders to go out', async () => {
        const l = await live();
        return l.length > 0 && l;
      });
      expect(holds(orders, start)).toBe(true);

      // The reschedule kills the server between the old orders' withdrawal and the new ones.
      const crashing = srv.current();
      const reply = await fetch(`${url}/api/rert-dispatches/${id}/reschedule`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ startTime: moved, duration: 1800 }),
      }).then(
        (r) => r.status,
        () => 'no reply',
      );
      expect(reply).toBe('no reply');
      expect(await crashing?.exited).toBe('SIGKILL');
      await srv.kill();

      // Before any restart: the event and every node's live order hold the one (old) window.
      const [event] = await srv.query<{ start_time: number }>(`select start_time from events where id = ${id}`);
      expect(event.start_time).toBe(start);
      const afterCrash = await live();
      expect(nodesOf(afterCrash)).toEqual(await allocated());
      expect(holds(afterCrash, start)).toBe(true);

      // Restarted on the same data, the reschedule asked again: every node holds the new window, none the old.
      url = (await srv.start()).url;
      headers = await srv.signIn(url);
      // The fleet reports again (the simulator has caught up), so its batteries are there to allocate.
      await srv.fleetLive(clock);
      await srv.call(`${url}/api/rert-dispatches/${id}/reschedule`, headers, { startTime: moved, duration: 1800 });
      const afterMove = await live();
      expect(afterMove.length).toBeGreaterThan(0);
      expect(nodesOf(afterMove)).toEqual(await allocated());
      expect(holds(afterMove, moved)).toBe(true);
      // The engine, running on, sends nothing more: two of its passes (a clock minute each) finish
      // after the reschedule, so that one has run whole on what the reschedule left.
      const rescheduled = clock();
      await waitFor('two engine passes after the reschedule', async () => {
        const [r] = await srv.query<{ n: number }>(
          `select count(*) as n from jobs where kind = 'dispatch-engine' and status = 'done' and finished_at > ${rescheduled}`,
        );
        return Number(r.n) >= 2;
      });
      expect(await live()).toEqual(afterMove);
      await srv.kill();
    });
  });
}
