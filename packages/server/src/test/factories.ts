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
