import { NMI_PREFIX, TIMEZONE } from '@vpp/fleet/catalogue';
import type { NodeModel } from '@vpp/fleet/physics';
import { AUSTRALIAN_STATES } from '@vpp/shared/constants';
import { isValidNmiWithChecksum } from '@vpp/shared/nodes/nmi';
import { NODE_STATUSES, nodeStatus } from '@vpp/shared/nodes/schemas';
import { beforeAll, expect, it } from 'vitest';
import { nowS } from '../db/database.ts';
import { commandResponses, sendCommands } from '../devices/index.ts';
import { nodeReports } from '../features/nodes/index.ts';
import { describeEachDatabase } from '../test/harness.ts';
import { buildFleet, type SimParams } from './builder.ts';
import { FleetSimulator, reporting } from './simulator.ts';

const STEP = 300;
const HOUR = 3600;
const DAY = 86400;

describeEachDatabase('fleet simulator', (h) => {
  const now = Math.floor(nowS() / STEP) * STEP;
  const from = now - 2 * DAY;
  // Charge to full for three hours, then discharge at 2 kW for one, a day ago.
  const discharge = { start: Math.floor((now - DAY) / HOUR) * HOUR, end: Math.floor((now - DAY) / HOUR) * HOUR + HOUR };
  // An evening hour on the east coast (07:00 to 11:00 UTC, 17:00 to 22:00 there in summer) clear of those: the batteries
  // held at 0 kW under a 0.5 kW import limit. At any time of day one of the past two days' fits.
  const evening = [0, 1, 2]
    .flatMap((d) => [11, 10, 9, 8, 7].map((hour) => Math.floor(now / DAY) * DAY - d * DAY + hour * HOUR))
    .find((t) => t >= from + 2 * HOUR && t + HOUR <= now - STEP && (t + HOUR <= discharge.start - 3 * HOUR || t >= discharge.end)) as number;
  let nodes: {
    id: number;
    state: string;
    nmi: string;
    network: string;
    timezone: string;
    serial_number: string;
    unit_state: 'COMMISSIONED' | 'NOT_COMMISSIONED';
    commissioned_at: number | null;
    connection_offline: number;
    last_contact: number | null;
    battery_usable_kwh: number;
    params: SimParams;
  }[];
  let simulated: typeof nodes;
  let stored: number;

  /** Whether the simulator has the node reporting at `ts`. */
  const reports = (n: (typeof nodes)[number], ts: number) =>
    reporting({ model: { id: n.id } as NodeModel, params: n.params, commissionedAt: n.commissioned_at === null ? null : Number(n.commissioned_at) }, ts);
  const outageIn = (n: (typeof nodes)[number]) => {
    for (let ts = from; ts <= now; ts += STEP) if (n.unit_state === 'COMMISSIONED' && !n.params.awaitingContact && !reports(n, ts)) return true;
    return false;
  };

  beforeAll(async () => {
    const { db, telemetry } = h().ctx;
    const org = await h().org();
    await buildFleet(db, { count: 200, seed: 5, owners: { retailers: [org], networks: new Map(), installers: [] }, historyDays: 4, now });
    const rows = await db
      .selectFrom('nodes')
      .select([
        'id',
        'state',
        'nmi',
        'network',
        'timezone',
        'serial_number',
        'unit_state',
        'commissioned_at',
        'connection_offline',
        'last_contact',
        'battery_usable_kwh',
        'sim_json',
      ])
      .orderBy('id')
      .execute();
    nodes = rows.map(({ sim_json, ...r }) => ({ ...r, params: JSON.parse(sim_json) as SimParams }));

    // About forty nodes: every one that is not commissioned, awaiting contact or has an outage in the window, then ordinary ones.
    const special = nodes.filter((n) => n.unit_state !== 'COMMISSIONED' || n.params.awaitingContact || outageIn(n));
    simulated = [...special, ...nodes.filter((n) => !special.includes(n)).slice(0, Math.max(0, 40 - special.length))];
    const ids = new Set(simulated.map((n) => n.id));

    await sendCommands(
      db,
      simulated.flatMap((n) => [
        { nodeId: n.id, start: discharge.start - 3 * HOUR, end: discharge.start, spec: { kind: 'charge_full' as const }, source: 'test:charge' },
        { nodeId: n.id, start: discharge.start, end: discharge.end, spec: { kind: 'battery_power' as const, kw: -2 }, source: 'test:discharge' },
        { nodeId: n.id, start: evening, end: evening + HOUR, spec: { kind: 'battery_power' as const, kw: 0 }, source: 'test:hold' },
        { nodeId: n.id, start: evening, end: evening + HOUR, spec: { kind: 'import_limit' as const, kw: 0.5 }, source: 'test:import' },
      ]),
    );
    await telemetry.ensurePartitions(from - DAY, now + DAY);
    const sim = new FleetSimulator(db, telemetry, { intervalS: 30, reports: nodeReports(h().ctx) });
    await sim.load();
    stored = await sim.run(from, now, STEP, (id) => ids.has(id));
  });

  it('builds nodes in all eight states and territories, in the network and time zone of their place', () => {
    expect(new Set(nodes.map((n) => n.state))).toEqual(new Set(AUSTRALIAN_STATES));
    for (const n of nodes) {
      expect(n.timezone).toBe(TIMEZONE[n.state as keyof typeof TIMEZONE]);
      expect(n.nmi.startsWith(NMI_PREFIX[n.network]), `${n.nmi} in ${n.network}`).toBe(true);
    }
    expect(new Set(nodes.map((n) => n.serial_number)).size).toBe(nodes.length);
  });

  it('gives every node an NMI with a valid AEMO check digit', () => {
    for (const n of nodes) expect(isValidNmiWithChecksum(n.nmi), n.nmi).toBe(true);
  });

  it('builds nodes of every display status', () => {
    const statuses = nodes.map((n) =>
      nodeStatus({ state: n.unit_state, status: { ping: { lastTimestamp: n.last_contact, connectionOffline: n.connection_offline === 1 } } }),
    );
    expect(new Set(statuses)).toEqual(new Set(NODE_STATUSES));
  });

  it('stores telemetry only for nodes that report, and all of it through the store', async () => {
    const { db, telemetry } = h().ctx;
    let silent = 0;
    let points = 0;
    for (const n of simulated) {
      const series = await telemetry.nodeSeries(n.id, ['meter_p'], from, now + 1, STEP);
      const latest = await db.selectFrom('tel_latest').select('ts').where('node_id', '=', n.id).executeTakeFirst();
      let expected = 0;
      for (let ts = from; ts <= now; ts += STEP) if (reports(n, ts)) expected++;
      expect(series.size, `node ${n.id}`).toBe(expected);
      points += series.size;
      if (n.unit_state !== 'COMMISSIONED' || n.params.awaitingContact) {
        expect(series.size).toBe(0);
        expect(latest).toBeUndefined();
        silent++;
      }
    }
    expect(silent).toBeGreaterThan(0);
    expect(points).toBe(stored);
    expect(stored).toBeGreaterThan(0);
  });

  it('stores readings that balance: house = solar + grid − battery', async () => {
    for (const n of simulated.slice(-10)) {
      const series = await h().ctx.telemetry.nodeSeries(n.id, ['meter_p', 'solar_p', 'battery_p', 'house_p'], from, now + 1, STEP);
      for (const [ts, p] of series) {
        const house = p.house_p as number;
        expect(Math.abs((p.solar_p as number) + (p.meter_p as number) - (p.battery_p as number) - house), `node ${n.id} at ${ts}`).toBeLessThanOrEqual(
          0.01 * house + 1e-4,
        );
      }
    }
  });

  it('has commands answered by the nodes reporting while they are due, and the nodes that accepted a 2 kW discharge hold it for the hour', async () => {
    const { db, telemetry } = h().ctx;
    const responses = await commandResponses(db, 'test:discharge');
    expect(responses).toHaveLength(simulated.length);
    const byNode = new Map(responses.map((r) => [r.node_id, r]));
    const reportsDuring = (n: (typeof nodes)[number], start: number, end: number) => {
      for (let ts = start; ts < end; ts += STEP) if (reports(n, ts)) return true;
      return false;
    };
    let obeyed = 0;
    let silent = 0;
    for (const n of simulated) {
      const response = byNode.get(n.id);
      if (!reportsDuring(n, discharge.start, discharge.end)) {
        // Not commissioned, awaiting contact or offline throughout: no answer.
        expect(response, `node ${n.id}`).toMatchObject({ status: 'PENDING', responded_at: null });
        silent++;
        continue;
      }
      expect(['ACCEPTED', 'OPTED_OUT']).toContain(response?.status);
      expect(response?.responded_at).not.toBeNull();
      let upThroughout = true;
      for (let ts = discharge.start - 3 * HOUR; ts < discharge.end; ts += STEP) upThroughout &&= reports(n, ts);
      if (!upThroughout || n.battery_usable_kwh === 0) continue;
      // The hour's average from its 5-minute buckets (hourly rollups follow local hours, which in half-hour zones straddle it).
      const buckets = [...(await telemetry.nodeSeries(n.id, ['battery_p'], discharge.start, discharge.end, STEP)).values()];
      expect(buckets, `node ${n.id}`).toHaveLength(HOUR / STEP);
      const battery = buckets.reduce((sum, p) => sum + (p.battery_p as number), 0) / buckets.length;
      if (response?.status === 'ACCEPTED') {
        expect(battery, `node ${n.id}`).toBeCloseTo(-2, 3);
        obeyed++;
      } else {
        // The customer opted out: the battery went on serving the house instead.
        expect(Math.abs(battery + 2), `node ${n.id} opted out`).toBeGreaterThan(0.01);
      }
      // Charged to full beforehand.
      const soc = await telemetry.nodeSeries(n.id, ['soc'], discharge.start - STEP, discharge.start, STEP);
      expect(soc.get(discharge.start - STEP)?.soc, `node ${n.id}`).toBeCloseTo(100, 1);
    }
    expect(obeyed).toBeGreaterThanOrEqual(5);
    expect(silent).toBeGreaterThan(0);
    const charge = await commandResponses(db, 'test:charge');
    for (const r of charge) {
      const n = simulated.find((s) => s.id === r.node_id) as (typeof nodes)[number];
      expect(r.status, `node ${n.id}`).toBe(reportsDuring(n, discharge.start - 3 * HOUR, discharge.start) ? 'ACCEPTED' : 'PENDING');
    }
  });

  it('holds an import limit (opModImpLimW) as the devices do: a battery told to hold discharges to keep the import within it', async () => {
    const { db, telemetry } = h().ctx;
    const hold = new Map((await commandResponses(db, 'test:hold')).map((r) => [r.node_id, r.status]));
    const limit = new Map((await commandResponses(db, 'test:import')).map((r) => [r.node_id, r.status]));
    const power = new Map((await db.selectFrom('nodes').select(['id', 'battery_kw']).execute()).map((r) => [r.id, r.battery_kw]));
    let held = 0;
    let discharged = 0;
    for (const n of simulated) {
      let upThroughout = true;
      for (let ts = evening; ts < evening + HOUR; ts += STEP) upThroughout &&= reports(n, ts);
      if (!upThroughout || n.battery_usable_kwh === 0 || hold.get(n.id) !== 'ACCEPTED' || limit.get(n.id) !== 'ACCEPTED') continue;
      for (const [ts, b] of await telemetry.nodeSeries(n.id, ['meter_p', 'battery_p', 'soc'], evening, evening + HOUR, STEP)) {
        const meter = b.meter_p as number;
        const battery = b.battery_p as number;
        // Within the limit, unless the battery was empty or at its power rating.
        const spent = (b.soc as number) < 5 || battery <= -((power.get(n.id) ?? 0) - 0.01);
        expect(meter <= 0.5 + 1e-3 || spent, `node ${n.id} at ${ts}: ${meter} kW imported`).toBe(true);
        // A hold order alone keeps the battery idle: any discharge is the limit's.
        expect(battery).toBeLessThanOrEqual(1e-3);
        if (battery < -0.01) discharged++;
      }
      held++;
    }
    expect(held).toBeGreaterThanOrEqual(5);
    expect(discharged).toBeGreaterThan(0);
  });

  it('logs outages as NODE_OFFLINE and NODE_ONLINE events with their durations', async () => {
    const { db, telemetry } = h().ctx;
    let outages = 0;
    for (const n of simulated) {
      const events = await db
        .selectFrom('node_events')
        .select(['ts', 'event_type', 'duration'])
        .where('node_id', '=', n.id)
        .where('event_type', 'in', ['NODE_OFFLINE', 'NODE_ONLINE'])
        .orderBy('ts')
        .orderBy('id')
        .execute();
      // The outages the node had, from its reporting schedule: going quiet after reporting, then reporting again.
      // First contact (after commissioning, or after an outage already under way when history begins) is no outage.
      const want: { ts: number; type: string; duration: number | null }[] = [];
      const outagesOf: { offline: number; online: number | null }[] = [];
      if (n.unit_state === 'COMMISSIONED' && !n.params.awaitingContact) {
        const commissioned = Number(n.commissioned_at);
        let up = reports(n, from - STEP);
        let heard = false;
        for (let ts = from; ts <= now; ts += STEP) {
          const next = reports(n, ts);
          if (next !== up && ts >= commissioned && heard) {
            if (!next) {
              outagesOf.push({ offline: ts, online: null });
              want.push({ ts, type: 'NODE_OFFLINE', duration: null });
            } else {
              const open = outagesOf.at(-1) as { offline: number; online: number | null };
              open.online = ts;
              want.push({ ts, type: 'NODE_ONLINE', duration: ts - open.offline });
            }
          }
          heard ||= next;
          up = next;
        }
      }
      const got = events.map((e) => ({ ts: Number(e.ts), type: e.event_type, duration: e.duration === null ? null : Number(e.duration) }));
      expect(got, `events of node ${n.id}`).toEqual(want);
      for (const o of outagesOf) {
        const gap = await telemetry.nodeSeries(n.id, ['meter_p'], o.offline, o.online ?? now + 1, STEP);
        expect(gap.size, `readings of node ${n.id} while offline`).toBe(0);
        if (o.online !== null) expect((await telemetry.nodeSeries(n.id, ['meter_p'], o.online, o.online + 1, STEP)).size).toBe(1);
      }
      outages += outagesOf.filter((o) => o.online !== null).length;
    }
    expect(outages).toBeGreaterThan(0);
  });

  it('marks the nodes reporting at the end as online with that last contact, and the others offline', async () => {
    const rows = await h()
      .ctx.db.selectFrom('nodes')
      .select(['id', 'connection_offline', 'last_contact'])
      .where(
        'id',
        'in',
        simulated.map((n) => n.id),
      )
      .execute();
    const byId = new Map(rows.map((r) => [r.id, r]));
    let offline = 0;
    for (const n of simulated) {
      if (n.unit_state !== 'COMMISSIONED' || n.params.awaitingContact) continue;
      const row = byId.get(n.id);
      if (reports(n, now)) expect(row, `node ${n.id}`).toMatchObject({ connection_offline: 0, last_contact: now });
      else {
        // Offline at the end: last heard from at its last report in the history, not at build time.
        let last: number | null = null;
        for (let ts = from; ts <= now; ts += STEP) if (reports(n, ts)) last = ts;
        expect(row?.connection_offline, `node ${n.id}`).toBe(1);
        if (last !== null) {
          expect(Number(row?.last_contact), `node ${n.id}`).toBe(last);
          offline++;
        }
      }
    }
    expect(offline).toBeGreaterThan(0);
  });
});

// A unit first simulated at the very step its schedule takes it offline was never heard: its going quiet is no
// outage, or the log would hold a NODE_OFFLINE that no NODE_ONLINE ever closes (seen when a test's history
// happened to begin at such a step).
describeEachDatabase('fleet simulator, history beginning as a unit goes quiet', (h) => {
  it('logs no outage for the unit that was not yet heard, and logs the next one it has', async () => {
    const { db, telemetry } = h().ctx;
    const now = Math.floor(nowS() / STEP) * STEP;
    const org = await h().org();
    await buildFleet(db, { count: 200, seed: 5, owners: { retailers: [org], networks: new Map(), installers: [] }, historyDays: 30, now });
    const rows = await db.selectFrom('nodes').select(['id', 'unit_state', 'commissioned_at', 'sim_json']).orderBy('id').execute();
    const at = (r: (typeof rows)[number], ts: number) =>
      reporting(
        {
          model: { id: r.id } as NodeModel,
          params: JSON.parse(r.sim_json) as SimParams,
          commissionedAt: r.commissioned_at === null ? null : Number(r.commissioned_at),
        },
        ts,
      );
    // A commissioned unit and the first step of an outage in the last 20 days, with another outage after it.
    let found: { id: number; quiet: number; back: number; next: number } | undefined;
    for (const r of rows) {
      if (r.unit_state !== 'COMMISSIONED' || JSON.parse(r.sim_json).awaitingContact || JSON.parse(r.sim_json).offlineSince !== undefined) continue;
      const starts: number[] = [];
      for (let ts = now - 20 * DAY; ts <= now; ts += STEP) if (at(r, ts - STEP) && !at(r, ts)) starts.push(ts);
      if (starts.length >= 2 && Number(r.commissioned_at) < starts[0] - STEP) {
        let back = starts[0];
        while (!at(r, back)) back += STEP;
        found = { id: r.id, quiet: starts[0], back, next: starts[1] };
        break;
      }
    }
    expect(found, 'a unit with two outages in 20 days').toBeDefined();
    const f = found as NonNullable<typeof found>;
    await telemetry.ensurePartitions(f.quiet - DAY, now + DAY);
    const sim = new FleetSimulator(db, telemetry, { intervalS: 30, reports: nodeReports(h().ctx) });
    await sim.load();
    await sim.run(f.quiet, f.next + STEP, STEP, (id) => id === f.id);
    const events = await db
      .selectFrom('node_events')
      .select(['ts', 'event_type'])
      .where('node_id', '=', f.id)
      .where('event_type', 'in', ['NODE_OFFLINE', 'NODE_ONLINE'])
      .orderBy('ts')
      .orderBy('id')
      .execute();
    expect(events.map((e) => [Number(e.ts), e.event_type])).toEqual([[f.next, 'NODE_OFFLINE']]);
  }, 60_000);
});

// SIM_OUTAGES=false (the server-process tests): the same fleet without its rare outages.
describeEachDatabase('fleet simulator, a fleet built without outages', (h) => {
  it('has every unit in contact report at every step where the same fleet with outages has some out', async () => {
    const { db } = h().ctx;
    const now = Math.floor(nowS() / STEP) * STEP;
    const org = await h().org();
    await buildFleet(db, { count: 200, seed: 5, owners: { retailers: [org], networks: new Map(), installers: [] }, historyDays: 30, now, outages: false });
    const rows = await db.selectFrom('nodes').select(['id', 'unit_state', 'commissioned_at', 'sim_json']).orderBy('id').execute();
    const inContact = rows.filter((r) => {
      const p = JSON.parse(r.sim_json) as SimParams;
      return r.unit_state === 'COMMISSIONED' && !p.awaitingContact && p.offlineSince === undefined;
    });
    expect(inContact.length).toBeGreaterThan(150);
    let out = 0;
    let outWithOutages = 0;
    for (const r of inContact) {
      const params = JSON.parse(r.sim_json) as SimParams;
      expect(params.outages).toBe(false);
      const unit = { model: { id: r.id } as NodeModel, params, commissionedAt: Number(r.commissioned_at) };
      const { outages: _, ...withOutages } = params;
      for (let ts = Math.max(now - 30 * DAY, Number(r.commissioned_at)); ts <= now; ts += STEP) {
        if (!reporting(unit, ts)) out++;
        if (!reporting({ ...unit, params: withOutages }, ts)) outWithOutages++;
      }
    }
    expect(out).toBe(0);
    expect(outWithOutages).toBeGreaterThan(0);
  });
});
