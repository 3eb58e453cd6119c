import { nowS } from '../db/database.ts';
import { nodeReports } from '../features/nodes/index.ts';
import type { Harness } from './harness.ts';

// Test data made the way the product makes it, for tests that need a precise few records rather
// than a simulated fleet (test/fleet.ts).

let serial = 0;

/** A node in the fleets of the given organisations, at a postcode and state. */
export async function node(
  h: Harness,
  orgIds: number[],
  at: {
    postcode?: string;
    state?: string;
    region?: string;
    suburb?: string;
    label?: string;
    batteryKwh?: number;
    commissioned?: boolean;
    /** When it came into and (if it did) left the organisations' fleets; by default from its commissioning, staying. */
    joinedAt?: number;
    leftAt?: number;
    commissionedAt?: number;
  } = {},
): Promise<{ id: number; serial: string }> {
  const serialNumber = `RPT${String(++serial).padStart(7, '0')}${Math.random().toString(36).slice(2, 6)}`;
  const row = {
    field_label: at.label ?? null,
    street: `${serial} Test Street`,
    suburb: at.suburb ?? 'Newtown',
    state: at.state ?? 'NSW',
    postcode: at.postcode ?? '2042',
    lat: -33.9,
    lng: 151.18,
    timezone: 'Australia/Sydney',
    nmi: `4102${String(serial).padStart(6, '0')}`,
    network: 'Ausgrid',
    region: at.region ?? 'NSW1',
    serial_number: serialNumber,
    product: 'Reposit Box',
    unit_state: at.commissioned === false ? ('NOT_COMMISSIONED' as const) : ('COMMISSIONED' as const),
    commissioned_at: at.commissioned === false ? null : (at.commissionedAt ?? nowS() - 86400 * 30),
    phases: 1,
    solar_kw: 6.6,
    inverter_kw: 5,
    battery_kwh: at.batteryKwh ?? 13.5,
    // batteryKwh 0: a home without a battery.
    battery_usable_kwh: at.batteryKwh === 0 ? 0 : 13.5,
    battery_kw: at.batteryKwh === 0 ? 0 : 5,
    inverter_brand: 'Fronius',
    battery_brand: 'Tesla',
    system_json: JSON.stringify({ energySystems: [], gridMeters: [], solarMeters: [], subMeterGroups: [] }),
    sim_json: '{}',
    last_contact: nowS(),
    connection_offline: 0,
    created_at: nowS(),
  };
  const { id } = await h.ctx.db.insertInto('nodes').values(row).returning('id').executeTakeFirstOrThrow();
  await nodeReports(h.ctx).joined([id]);
  if (orgIds.length) {
    await h.ctx.db
      .insertInto('fleet_members')
      .values(orgIds.map((organisation_id) => ({ organisation_id, node_id: id, role: 'RETAILER' as const, site_label: at.label ?? null })))
      .execute();
    // In the fleet from its commissioning (or now), as the product's fleet builder records it (issue 33 item 6).
    const joined = at.joinedAt ?? row.commissioned_at ?? row.created_at;
    await h.ctx.db
      .insertInto('fleet_membership_history')
      .values(orgIds.map((organisation_id) => ({ organisation_id, node_id: id, joined_at: joined, left_at: at.leftAt ?? null })))
      .execute();
  }
  h.ctx.telemetry.invalidate(id);
  return { id, serial: serialNumber };
}

/**
 * A flat-rate plan of the organisation with a feed-in tariff ($/kWh), held by a node's customer from
 * 2020: the rate a settlement credits (or takes off) for that customer's energy.
 */
export async function feedInPlan(h: Harness, orgId: number, nodeId: number, feedInTariff = 0.08): Promise<number> {
  const { db } = h.ctx;
  const plan = (
    await db
      .insertInto('plans')
      .values({
        organisation_id: orgId,
        name: 'Feed-in 8',
        name_key: 'feed-in 8',
        plan_code: 'FI8',
        code_key: 'fi8',
        description: '',
        operational_network_uid: 'x',
        tariff_type: 'FLAT_RATE',
        start_date: '2020-01-01',
        created_at: 1,
        updated_at: 1,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  const prices = JSON.stringify({ tariffType: 'FLAT_RATE', resetPeriod: null, rates: [], demandRates: [], dailyCharge: 1, feedInTariff, discount: 0 });
  await db.insertInto('plan_versions').values({ plan_id: plan, start_date: '2020-01-01', prices, created_at: 1 }).execute();
  await db.insertInto('customer_plans').values({ organisation_id: orgId, node_id: nodeId, plan_id: plan, start_date: '2020-01-01', end_date: null }).execute();
  return plan;
}

type Headers = Record<string, string>;

/** A static VPP of the organisation's nodes, made through the API as the caller. */
async function staticVpp(h: Harness, headers: Headers, name: string, nodes: number[]): Promise<number> {
  const res = await h.app.inject({ method: 'POST', url: '/api/powerstations', headers, payload: { type: 'STATIC', name, nodes } });
  return res.json().data.id as number;
}

/**
 * Three reporting home batteries of the organisation (5 kW, 20 kWh usable holding 18 kWh, a reading
 * 30 s before `now`): enough for any dispatch the tests ask of them, in a static VPP named `name`.
 */
export async function batteryVpp(h: Harness, orgId: number, headers: Headers, name: string, now: number) {
  const { db, telemetry } = h.ctx;
  const batteries: number[] = [];
  for (let i = 0; i < 3; i++) {
    const n = await node(h, [orgId]);
    await db.updateTable('nodes').set({ battery_usable_kwh: 20, battery_kwh: 20, battery_kw: 5 }).where('id', '=', n.id).execute();
    await telemetry.ingest([{ nodeId: n.id, ts: now - (now % 30) - 30, dt: 30, remaining: 18, soc: null }]);
    batteries.push(n.id);
  }
  return { vpp: await staticVpp(h, headers, name, batteries), batteries };
}

/** `batteryVpp`'s three batteries, each home with a token of the customer app (by node id). */
export async function appBatteryVpp(h: Harness, orgId: number, headers: Headers, name: string, now: number) {
  const { vpp, batteries } = await batteryVpp(h, orgId, headers, name, now);
  const tokens = new Map<number, string>();
  for (const id of batteries) {
    const res = await h.app.inject({ method: 'POST', url: `/api/nodes/${id}/customer-app-token`, headers });
    tokens.set(id, res.json().data.token as string);
  }
  return { vpp, batteries, tokens };
}

/**
 * `count` commissioned homes of the organisation (the factory's: 6.6 kW of panels behind a 5 kW
 * inverter) and one not commissioned (`idle`), all in a static VPP named `name`.
 */
export async function homesVpp(h: Harness, orgId: number, headers: Headers, name: string, count: number) {
  const nodes: number[] = [];
  for (let i = 0; i < count; i++) nodes.push((await node(h, [orgId])).id);
  const idle = (await node(h, [orgId], { commissioned: false })).id;
  return { vpp: await staticVpp(h, headers, name, [...nodes, idle]), nodes, idle };
}

/**
 * The users a dispatch area's API tests act as, made in this order: a retailer (Sunrise) and another
 * (Elsewhere); a user of Sunrise with every permission (`headers`, and their full name); a viewer with
 * the given permissions; a dispatcher with the dispatch and VPP permissions and no others; a user of Elsewhere.
 */
export async function dispatchUsers(h: Harness, viewerPermissions: string[]) {
  const org = await h.org('RETAILER', 'Sunrise');
  const otherOrg = await h.org('RETAILER', 'Elsewhere');
  const user = await h.user(org);
  const row = await h.ctx.db.selectFrom('users').select(['given_name', 'surname']).where('id', '=', user.id).executeTakeFirstOrThrow();
  const userName = `${row.given_name} ${row.surname}`;
  const headers = await h.bearer(user.username);
  const viewer = await h.bearer((await h.user(org, { permissions: viewerPermissions })).username);
  const dispatcher = await h.bearer(
    (await h.user(org, { permissions: ['fleet.dispatches.any', 'fleet.dispatches.edit', 'fleet.powerstations.any'] })).username,
  );
  const other = await h.bearer((await h.user(otherOrg)).username);
  return { org, userId: user.id, userName, headers, viewer, dispatcher, other };
}
