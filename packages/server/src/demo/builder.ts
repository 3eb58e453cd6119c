import { BATTERIES, INVERTERS, METERS, NMI_PREFIX, PRODUCTS, REGION, STREETS, SUBMETER_NAMES, SUBURBS, type Suburb, TIMEZONE } from '@vpp/fleet/catalogue';
import { seeded } from '@vpp/fleet/random';
import { nmiCheckDigit } from '@vpp/shared/nodes/nmi';
import { type Insertable, PostgresAdapter, sql } from 'kysely';
import { type Database, nowS } from '../db/database.ts';
import type { NodeTable } from '../db/schema.ts';

/** How a new node joins fleets: its retailer, the network organisation serving its area (if any) and its installer. */
export interface FleetOwners {
  retailers: number[];
  /** Distribution network name → the NETWORK organisation that serves it. */
  networks: Map<string, number>;
  installers: number[];
  /** Share of nodes whose retailer (installer) is one of ours; the rest belong to others. */
  retailerShare?: number;
  installerShare?: number;
}

/** Simulation parameters kept with a node. */
export interface SimParams {
  loadScale: number;
  /** Commissioned but the unit has never called home. */
  awaitingContact?: boolean;
  /** The unit stopped reporting at this time and has not come back. */
  offlineSince?: number;
  /** false: the unit has none of the rare outages of a day in forty (a fleet built with SIM_OUTAGES=false). */
  outages?: false;
}

const LABELS = ['Residence', 'Home', 'Farmhouse', 'Unit', 'Townhouse', 'Beach house'];
const SURNAMES = ['Nguyen', 'Smith', 'Jones', 'Williams', 'Brown', 'Wilson', 'Taylor', 'Singh', 'Chen', 'Martin', 'Kelly', 'Papadopoulos', 'Rossi', "O'Brien"];

/**
 * Creates `count` nodes across all eight states and territories, deterministically from `seed`,
 * with their equipment, meters, NMIs (with AEMO check digit) and fleet memberships.
 */
export async function buildFleet(
  db: Database,
  opts: { count: number; seed: number; owners: FleetOwners; historyDays: number; now?: number; outages?: boolean },
): Promise<number[]> {
  const rnd = seeded(opts.seed);
  const now = opts.now ?? nowS();
  const existing = Number(
    (
      await db
        .selectFrom('nodes')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
  const firstSubmeter =
    Number(
      (
        await db
          .selectFrom('submeters')
          .select((eb) => eb.fn.max<number>('id').as('m'))
          .executeTakeFirst()
      )?.m ?? 0,
    ) + 1;
  let submeterId = firstSubmeter;
  const ids: number[] = [];
  const batch = 500;
  for (let start = 0; start < opts.count; start += batch) {
    const rows: Insertable<NodeTable>[] = [];
    const extras: { members: { organisation_id: number; role: 'RETAILER' | 'NETWORK' | 'INSTALLER' }[]; submeters: { id: number; name: string }[] }[] = [];
    for (let i = start; i < Math.min(opts.count, start + batch); i++) {
      const seq = existing + i + 1;
      const place: Suburb = rnd.pick(SUBURBS);
      const lat = place.lat + (rnd.next() - 0.5) * 0.03;
      const lng = place.lng + (rnd.next() - 0.5) * 0.03;
      const threePhase = rnd.next() < 0.18;
      const inverter = rnd.pick(INVERTERS.filter((m) => m.phases === (threePhase ? 3 : 1)));
      const battery = rnd.next() < 0.86 ? rnd.pick(BATTERIES) : null;
      const solarKw = Math.round(inverter.kw * (0.9 + rnd.next() * 0.45) * 10) / 10;
      const prefix = NMI_PREFIX[place.network];
      const body = `${prefix}${String(100000 + ((seq * 7919) % 900000)).slice(-(10 - prefix.length))}`;
      const nmi = `${body}${nmiCheckDigit(body)}`;
      const serial = `RP${String(20000000 + seq)}`;
      const roll = rnd.next();
      const notCommissioned = roll < 0.02;
      const awaiting = !notCommissioned && roll < 0.035;
      const offlineLong = !notCommissioned && !awaiting && roll < 0.055;
      const recent = rnd.next() < 0.06;
      const commissionedAt = notCommissioned
        ? null
        : recent
          ? now - rnd.int(2, Math.max(3, opts.historyDays - 1)) * 86400
          : now - (opts.historyDays + rnd.int(30, 900)) * 86400;
      const sim: SimParams = { loadScale: Math.round((0.6 + rnd.next() * 1.2) * 100) / 100 };
      if (awaiting) sim.awaitingContact = true;
      if (offlineLong) sim.offlineSince = now - rnd.int(3600, 5 * 86400);
      if (opts.outages === false) sim.outages = false;
      const label = rnd.next() < 0.45 ? `${rnd.pick(SURNAMES)} ${rnd.pick(LABELS)}` : null;
      const street = `${rnd.int(1, 240)} ${rnd.pick(STREETS)}`;
      const meter = (kind: string, phases: number) => {
        const m = rnd.pick(METERS);
        return {
          id: `${kind}-${seq}`,
          name: kind === 'grid' ? 'Grid' : 'Solar',
          manufacturer: m.manufacturer,
          model: m.model,
          meters: Array.from({ length: phases }, () => ({ hwid: `${m.model}-${rnd.int(100000, 999999)}` })),
        };
      };
      const subs = rnd.next() < 0.22 ? Array.from({ length: rnd.int(1, 2) }, () => ({ id: submeterId++, name: rnd.pick(SUBMETER_NAMES) })) : [];
      const system = {
        energySystems: [
          {
            id: `es-${seq}`,
            inverter: {
              id: inverter.id,
              name: inverter.name,
              brand: inverter.brand,
              imageUrl: `/equipment/inverter.svg`,
              minPower: -inverter.kw,
              maxPower: inverter.kw,
              phases: inverter.phases,
              hasWebPortal: inverter.hasWebPortal,
            },
            battery: battery
              ? {
                  id: battery.id,
                  name: battery.name,
                  brand: battery.brand,
                  imageUrl: `/equipment/battery.svg`,
                  capacity: battery.kwh,
                  usableCapacity: battery.usableKwh,
                  maxPower: battery.kw,
                }
              : null,
          },
        ],
        gridMeters: [meter('grid', threePhase ? 3 : 1)],
        solarMeters: rnd.next() < 0.5 ? [meter('solar', 1)] : [],
        subMeterGroups: subs.map((sm) => {
          const m = rnd.pick(METERS);
          return {
            id: `sub-${sm.id}`,
            name: sm.name,
            manufacturer: m.manufacturer,
            model: m.model,
            meters: [{ hwid: `${m.model}-${rnd.int(100000, 999999)}` }],
          };
        }),
      };
      const owners: { organisation_id: number; role: 'RETAILER' | 'NETWORK' | 'INSTALLER' }[] = [];
      if (opts.owners.retailers.length && rnd.next() < (opts.owners.retailerShare ?? 1))
        owners.push({ organisation_id: rnd.pick(opts.owners.retailers), role: 'RETAILER' });
      const net = opts.owners.networks.get(place.network);
      if (net !== undefined) owners.push({ organisation_id: net, role: 'NETWORK' });
      if (opts.owners.installers.length && rnd.next() < (opts.owners.installerShare ?? 1))
        owners.push({ organisation_id: rnd.pick(opts.owners.installers), role: 'INSTALLER' });
      extras.push({ members: owners, submeters: subs });
      rows.push({
        field_label: label,
        street,
        suburb: place.suburb,
        state: place.state,
        postcode: place.postcode,
        lat,
        lng,
        timezone: TIMEZONE[place.state],
        nmi,
        network: place.network,
        region: REGION[place.state],
        serial_number: serial,
        product: threePhase ? PRODUCTS[1] : rnd.pick([PRODUCTS[0], PRODUCTS[2]]),
        unit_state: notCommissioned ? ('NOT_COMMISSIONED' as const) : ('COMMISSIONED' as const),
        commissioned_at: commissionedAt,
        phases: threePhase ? 3 : 1,
        solar_kw: solarKw,
        inverter_kw: inverter.kw,
        battery_kwh: battery?.kwh ?? 0,
        battery_usable_kwh: battery?.usableKwh ?? 0,
        battery_kw: battery?.kw ?? 0,
        inverter_brand: inverter.brand,
        battery_brand: battery?.brand ?? null,
        system_json: JSON.stringify(system),
        sim_json: JSON.stringify(sim),
        last_contact: notCommissioned || awaiting ? null : (sim.offlineSince ?? now),
        connection_offline: notCommissioned || awaiting || offlineLong ? 1 : 0,
        created_at: commissionedAt ?? now,
      });
    }
    await db.transaction().execute(async (trx) => {
      const inserted = await trx.insertInto('nodes').values(rows).returning('id').execute();
      // Every organisation starts with the label the node was commissioned with.
      const members = inserted.flatMap((r, k) => extras[k].members.map((m) => ({ ...m, node_id: r.id, site_label: rows[k].field_label })));
      if (members.length) {
        await trx.insertInto('fleet_members').values(members).execute();
        // Each home is under its organisations' management from when it came into the fleet (issue 33 item 6).
        await trx
          .insertInto('fleet_membership_history')
          .values(
            inserted.flatMap((r, k) =>
              extras[k].members.map((m) => ({ organisation_id: m.organisation_id, node_id: r.id, joined_at: rows[k].created_at, left_at: null })),
            ),
          )
          .execute();
      }
      const subs = inserted.flatMap((r, k) => extras[k].submeters.map((sm) => ({ ...sm, node_id: r.id })));
      if (subs.length) await trx.insertInto('submeters').values(subs).execute();
      const events = inserted.flatMap((r, k) =>
        rows[k].commissioned_at
          ? [
              {
                node_id: r.id,
                ts: rows[k].commissioned_at as number,
                event_type: 'COMMISSIONED',
                description: `Reposit unit ${rows[k].serial_number} commissioned`,
                duration: null,
              },
            ]
          : [],
      );
      if (events.length) await trx.insertInto('node_events').values(events).execute();
      ids.push(...inserted.map((r) => r.id));
    });
  }
  // PostgreSQL plans the fleet queries from table statistics: refresh them after a bulk build
  // rather than wait for autovacuum (SQLite plans without them).
  if (db.getExecutor().adapter instanceof PostgresAdapter) await sql`analyze nodes, fleet_members`.execute(db);
  return ids;
}
