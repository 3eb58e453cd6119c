import type { KitCatalogue } from '@vpp/shared/kit-designer/rules';
import type { BatteryType, InverterType } from '@vpp/shared/kit-designer/schemas';
import type { Database } from '../../db/database.ts';

/** The whole catalogue (a few dozen rows), as the shared rules take it. */
export async function catalogue(db: Database): Promise<KitCatalogue> {
  const [inverters, batteries, links] = await Promise.all([
    db.selectFrom('kit_inverter_types').selectAll().orderBy('id').execute(),
    db.selectFrom('kit_battery_types').selectAll().orderBy('id').execute(),
    db.selectFrom('kit_inverter_batteries').selectAll().orderBy('inverter_type_id').orderBy('battery_type_id').execute(),
  ]);
  const inverterTypes: InverterType[] = inverters.map((r) => ({
    id: Number(r.id),
    code: r.code,
    displayName: r.display_name,
    manufacturer: r.manufacturer,
    allInOne: Number(r.all_in_one) === 1,
    pvCompatible: r.pv_compatible === null ? null : Number(r.pv_compatible) === 1,
    phases: Number(r.phases),
    ratedPowerW: Number(r.rated_power_w),
    compatibleBatteryTypes: links.filter((l) => Number(l.inverter_type_id) === Number(r.id)).map((l) => Number(l.battery_type_id)),
    imageUrl: r.image_url,
  }));
  const batteryTypes: BatteryType[] = batteries.map((r) => ({
    id: Number(r.id),
    code: r.code,
    displayName: r.display_name,
    manufacturer: r.manufacturer,
    usableCapacityWh: Number(r.usable_capacity_wh),
    imageUrl: r.image_url,
  }));
  return { inverterTypes, batteryTypes };
}

export async function orderingEmail(db: Database, organisationId: number): Promise<string | null> {
  const row = await db.selectFrom('organisations').select('ordering_email').where('id', '=', organisationId).executeTakeFirst();
  return row?.ordering_email ?? null;
}

export async function setOrderingEmail(db: Database, organisationId: number, email: string | null): Promise<void> {
  await db.updateTable('organisations').set({ ordering_email: email }).where('id', '=', organisationId).execute();
}
