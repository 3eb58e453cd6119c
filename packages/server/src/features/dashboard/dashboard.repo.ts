import type { Database } from '../../db/database.ts';
import { fleetNodes } from '../nodes/index.ts';
import './dashboard.tables.ts';

// The SQL of the dashboard: each user's saved widgets, and the fleet figures of the ticker.

/** The user's saved widgets (JSON), or undefined when they have saved none. */
export async function savedWidgets(db: Database, userId: number): Promise<string | undefined> {
  const r = await db.selectFrom('user_dashboards').select('widgets_json').where('user_id', '=', userId).executeTakeFirst();
  return r?.widgets_json;
}

/** Replaces the user's saved widgets. */
export async function saveWidgets(db: Database, userId: number, widgetsJson: string, now: number): Promise<void> {
  await db
    .insertInto('user_dashboards')
    .values({ user_id: userId, widgets_json: widgetsJson, updated_at: now })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ widgets_json: widgetsJson, updated_at: now }))
    .execute();
}

/** Nodes of the fleet commissioned at or after `since`, and nodes not yet commissioned. */
export async function commissioningCounts(db: Database, orgId: number, since: number): Promise<{ newlyCommissioned: number; awaiting: number }> {
  const r = await fleetNodes(db, orgId)
    .select((eb) => [
      eb.fn
        .sum<number>(
          eb
            .case()
            .when(eb.and([eb('nodes.unit_state', '=', 'COMMISSIONED'), eb('nodes.commissioned_at', '>=', since)]))
            .then(1)
            .else(0)
            .end(),
        )
        .as('newly'),
      eb.fn.sum<number>(eb.case().when('nodes.unit_state', '!=', 'COMMISSIONED').then(1).else(0).end()).as('awaiting'),
    ])
    .executeTakeFirstOrThrow();
  return { newlyCommissioned: Number(r.newly ?? 0), awaiting: Number(r.awaiting ?? 0) };
}

export interface FleetPlace {
  region: string;
  postcode: string;
  lat: number;
  lng: number;
  nodes: number;
}

/** The fleet's postcodes (within their market region): where its nodes are, and how many. */
export async function fleetPlaces(db: Database, orgId: number): Promise<FleetPlace[]> {
  const rows = await fleetNodes(db, orgId)
    .select((eb) => [
      'nodes.region',
      'nodes.postcode',
      eb.fn.avg<number>('nodes.lat').as('lat'),
      eb.fn.avg<number>('nodes.lng').as('lng'),
      eb.fn.countAll<number>().as('nodes'),
    ])
    .groupBy(['nodes.region', 'nodes.postcode'])
    .execute();
  return rows.map((r) => ({ region: r.region, postcode: r.postcode, lat: Number(r.lat), lng: Number(r.lng), nodes: Number(r.nodes) }));
}
