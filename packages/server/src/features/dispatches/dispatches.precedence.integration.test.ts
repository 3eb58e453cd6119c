import { DISPATCH_MESSAGES } from '@vpp/shared/dispatches/messages';
import { beforeAll, expect, it } from 'vitest';
import { nowS } from '../../db/database.ts';
import { commandsFor } from '../../demo/simulator.ts';
import { followedWindows, precededSeconds, sendCommands } from '../../devices/index.ts';
import { node } from '../../test/factories.ts';
import { describeEachDatabase } from '../../test/harness.ts';
import { runDispatchEngine } from './dispatches.orders.service.ts';

// Shared homes (docs/precedence.md): two batteries in the fleets of a retailer, a network and an
// installer, each with its own VPP of them.
describeEachDatabase('shared homes: events of several organisations on the same nodes', (h) => {
  const now = nowS();
  const hour = now - (now % 3600);
  let nodes: number[];
  const as: Record<'retailer' | 'network' | 'installer', { headers: { authorization: string }; vpp: number }> = {} as never;

  const post = (who: keyof typeof as, body: object) =>
    h().app.inject({ method: 'POST', url: '/dispatch', headers: as[who].headers, payload: { powerstation: as[who].vpp, ...body } });
  const constraintsOf = async (who: keyof typeof as, q: string) => {
    const res = await h().app.inject({ method: 'GET', url: `/api/powerstations/${as[who].vpp}/constraints?${q}`, headers: as[who].headers });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  };
  /** What each node obeys over [from, to), as the devices get it. */
  const obeyed = async (from: number, to: number) =>
    commandsFor(
      h().ctx.db,
      from,
      to,
      nodes,
      () => true,
      () => 'ACCEPTED',
    );

  beforeAll(async () => {
    const orgs = {
      retailer: await h().org('RETAILER', 'Sunrise Energy'),
      network: await h().org('NETWORK', 'Ausgrid'),
      installer: await h().org('INSTALLER', 'Solar Fitters'),
    };
    const { db, telemetry } = h().ctx;
    nodes = [];
    for (let i = 0; i < 2; i++) {
      const n = await node(h(), Object.values(orgs));
      await db.updateTable('nodes').set({ battery_usable_kwh: 20, battery_kwh: 20, battery_kw: 5 }).where('id', '=', n.id).execute();
      await telemetry.ingest([{ nodeId: n.id, ts: now - (now % 30) - 30, dt: 30, remaining: 18, soc: null }]);
      nodes.push(n.id);
    }
    for (const [who, org] of Object.entries(orgs) as [keyof typeof as, number][]) {
      const headers = await h().bearer((await h().user(org)).username);
      const res = await h().app.inject({ method: 'POST', url: '/api/powerstations', headers, payload: { type: 'STATIC', name: `${who} homes`, nodes } });
      expect(res.statusCode, res.body).toBe(200);
      as[who] = { headers, vpp: res.json().data.id };
    }
  });

  it("lets a retailer dispatch over an installer's lockout on the same homes, and each node follows the one with precedence for its window", async () => {
    // The installer's 3-hour lockout from +2 h; the retailer's discharge from +3 h for an hour.
    const lockout = await post('installer', { startTime: hour + 7200, duration: 3 * 3600, realPowerP: 0 });
    expect(lockout.statusCode, lockout.body).toBe(200);
    const lockoutId = lockout.json().data.id as number;
    const before = await constraintsOf('retailer', `duration=3600&realPowerP=-4&startTime=${hour + 3 * 3600}`);
    // A lower-precedence event is not the retailer's concern: nothing is said, nothing is left out.
    expect(before.conflictMessage).toBeNull();
    expect(before.deploymentsAvailable).toBe(2);
    const dispatch = await post('retailer', { startTime: hour + 3 * 3600, duration: 3600, realPowerP: -4 });
    expect(dispatch.statusCode, dispatch.body).toBe(200);
    const dispatchId = dispatch.json().data.id as number;
    expect(dispatch.body).not.toContain(String(lockoutId));

    // The orders of both go out (a day ahead); each node obeys the retailer's in its hour and the installer's lockout around it.
    const sent = await runDispatchEngine(h().ctx, now);
    expect(sent.sent.sort()).toEqual([lockoutId, dispatchId].sort());
    const obeys = await obeyed(hour + 7200, hour + 5 * 3600);
    for (const n of nodes) {
      const battery = (obeys.get(n) ?? []).filter((c) => c.kind === 'battery_power').sort((a, b) => a.start - b.start);
      expect(battery.map((c) => [c.start - hour, c.end - hour, c.kind === 'battery_power' && c.kw < 0 ? 'discharge' : 'lockout'])).toEqual([
        [7200, 3 * 3600, 'lockout'],
        [3 * 3600, 4 * 3600, 'discharge'],
        [4 * 3600, 5 * 3600, 'lockout'],
      ]);
    }
    // The installer's screens say the node followed another organisation's event for that hour, never which.
    const preceded = await precededSeconds(h().ctx.db, `dispatch:${lockoutId}`);
    expect([...preceded.values()]).toEqual([3600, 3600]);
    // (The Event Log shows events that have started: both are moved 6 hours back, orders and all.)
    const back = 6 * 3600;
    const { db } = h().ctx;
    await db
      .updateTable('events')
      .set((eb) => ({ start_time: eb('start_time', '-', back) }))
      .where('id', 'in', [lockoutId, dispatchId])
      .execute();
    await db
      .updateTable('node_commands')
      .set((eb) => ({ start_ts: eb('start_ts', '-', back), end_ts: eb('end_ts', '-', back) }))
      .where('source', 'in', [`dispatch:${lockoutId}`, `dispatch:${dispatchId}`])
      .execute();
    const log = await h().app.inject({ method: 'GET', url: `/api/nodes/${nodes[0]}/events?limit=10&offset=0`, headers: as.installer.headers });
    expect(log.statusCode, log.body).toBe(200);
    const line = log.json().data.find((e: { id: number }) => e.id === lockoutId);
    expect(line, log.body).toBeDefined();
    expect(line.description, line.description).toContain(" For 1 h the node followed another organisation's event with precedence.");
    expect(log.body).not.toContain(`Dispatch ${dispatchId}`);
  });

  it("refuses the installer where the retailer holds the homes without naming or revealing the retailer's event", async () => {
    const start = hour + 8 * 3600;
    const retailer = await post('retailer', { startTime: start, duration: 3600, realPowerP: -2 });
    expect(retailer.statusCode, retailer.body).toBe(200);
    const retailerId = retailer.json().data.id as number;
    const c = await constraintsOf('installer', `duration=3600&realPowerP=0&startTime=${start}`);
    expect(c.conflictMessage).toBe(DISPATCH_MESSAGES.heldElsewhere(2));
    expect(c.deploymentsAvailable).toBe(0);
    // Every start time the installer tries gets the same words whatever the retailer's event is.
    for (const at of [start, start + 600, start + 1800]) {
      const res = await post('installer', { startTime: at, duration: 1800, realPowerP: 0 });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(DISPATCH_MESSAGES.noBatteryNodes);
      expect(res.body).not.toContain(String(retailerId));
    }
    // Its prediction of the dispatch leaves the held homes out too: with them all held, the dispatch changes nothing.
    const predicted = async (at: number) => {
      const q = `start=${hour}&dispatchStart=${at}&dispatchDuration=1800&dispatchRealPowerP=-2`;
      const res = await h().app.inject({ method: 'GET', url: `/api/powerstations/${as.installer.vpp}/predictions?${q}`, headers: as.installer.headers });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data;
    };
    const held = await predicted(start);
    expect(held.adjustedPrediction).toEqual(held.prediction);
    expect(held.delivery.expectedKwh).toBe(0);
    // (An hour later the homes are free: the same dispatch then discharges them.)
    const free = await predicted(start + 3600);
    expect(free.adjustedPrediction[start + 3600].batteryPower).toBeLessThan(free.prediction[start + 3600].batteryPower);
    // The retailer's own second dispatch over the same homes is refused with its own dispatch named, and the modal says so before Confirm.
    const mine = await constraintsOf('retailer', `duration=1800&realPowerP=-2&startTime=${start}`);
    expect(mine.conflictMessage).toBe(DISPATCH_MESSAGES.overlaps(retailerId));
    const again = await post('retailer', { startTime: start, duration: 1800, realPowerP: -2 });
    expect(again.json().message).toBe(DISPATCH_MESSAGES.overlaps(retailerId));
  });

  it("holds the network's export limit against every dispatch's range on the same homes", async () => {
    const start = hour + 12 * 3600;
    const free = await constraintsOf('retailer', `duration=3600&realPowerP=0&startTime=${start}`);
    const network = await h().ctx.db.selectFrom('powerstations').select('organisation_id').where('id', '=', as.network.vpp).executeTakeFirstOrThrow();
    await sendCommands(
      h().ctx.db,
      nodes.map((nodeId) => ({ nodeId, start, end: start + 3600, spec: { kind: 'export_limit' as const, kw: 1, mode: 'net' as const }, source: 'test:limit' })),
      { organisationId: network.organisation_id },
    );
    const limited = await constraintsOf('retailer', `duration=3600&realPowerP=0&startTime=${start}`);
    expect(free.realPowerPMin).toBeLessThan(-2);
    expect(limited.realPowerPMin).toBe(-2);
    // The limit is kept with the dispatch's orders: a node obeys both.
    const stored = await h().ctx.db.selectFrom('node_commands').select(['precedence', 'organisation_id']).where('source', '=', 'test:limit').execute();
    expect(stored.every((r) => r.precedence === 0 && r.organisation_id === network.organisation_id)).toBe(true);
  });

  it("limits an organisation's lockouts in length and in nodes held (settings)", async () => {
    const tooLong = await post('installer', { startTime: hour + 30 * 3600, duration: h().ctx.config.LOCKOUT_MAX_DURATION_S + 300, realPowerP: 0 });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().message).toBe(DISPATCH_MESSAGES.lockoutTooLong(h().ctx.config.LOCKOUT_MAX_DURATION_S / 3600));
    const saved = h().ctx.config.LOCKOUT_MAX_NODES;
    h().ctx.config.LOCKOUT_MAX_NODES = 1;
    try {
      const two = await post('installer', { startTime: hour + 30 * 3600, duration: 3600, realPowerP: 0 });
      expect(two.statusCode).toBe(400);
      expect(two.json().message).toBe(DISPATCH_MESSAGES.lockoutTooManyNodes(1));
      h().ctx.config.LOCKOUT_MAX_NODES = 2;
      const fits = await post('installer', { startTime: hour + 30 * 3600, duration: 3600, realPowerP: 0 });
      expect(fits.statusCode, fits.body).toBe(200);
    } finally {
      h().ctx.config.LOCKOUT_MAX_NODES = saved;
    }
  });
});

it('sets a battery command aside only where one with precedence stands; limits always hold', () => {
  const c = (id: number, kind: string, start: number, end: number, precedence: number) => ({ id, kind, start, end, precedence, organisationId: id });
  const network = c(9, 'battery_power', 20, 30, 0);
  const retailer = c(5, 'battery_power', 0, 100, 1);
  const installer = c(1, 'battery_power', 0, 100, 2);
  const limit = c(7, 'export_limit', 0, 100, 0);
  const out = followedWindows([installer, retailer, network, limit]);
  expect(out.get(network)).toEqual([{ start: 20, end: 30 }]);
  expect(out.get(retailer)).toEqual([
    { start: 0, end: 20 },
    { start: 30, end: 100 },
  ]);
  expect(out.get(installer)).toEqual([]);
  expect(out.get(limit)).toEqual([{ start: 0, end: 100 }]);
});
