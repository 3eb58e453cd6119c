import { sql } from 'kysely';
import type { Database } from '../db/database.ts';

/** What the console knows of a device from its node: ratings bound the readings it accepts. */
export interface DeviceNode {
  nodeId: number;
  serial: string;
  batteryKw: number;
  batteryKwh: number;
  solarKw: number;
  inverterKw: number;
  offline: boolean;
  lastContact: number | null;
  submeterIds: Set<number>;
}

export async function deviceNodeBySerial(db: Database, serial: string): Promise<DeviceNode | null> {
  const r = await db
    .selectFrom('nodes')
    .select(['id', 'serial_number', 'battery_kw', 'battery_usable_kwh', 'solar_kw', 'inverter_kw', 'connection_offline', 'last_contact'])
    .where('serial_number', '=', serial)
    .executeTakeFirst();
  if (!r) return null;
  const subs = await db.selectFrom('submeters').select('id').where('node_id', '=', r.id).execute();
  return {
    nodeId: r.id,
    serial: r.serial_number,
    batteryKw: r.battery_kw,
    batteryKwh: r.battery_usable_kwh,
    solarKw: r.solar_kw,
    inverterKw: r.inverter_kw,
    offline: r.connection_offline === 1,
    lastContact: r.last_contact === null ? null : Number(r.last_contact),
    submeterIds: new Set(subs.map((s) => s.id)),
  };
}

/** What the console holds of a device's connection: whether its node is offline, its last contact, and when the connection began that its last state spoke for. */
export interface Connectivity {
  offline: boolean;
  lastContact: number | null;
  since: number | null;
}

/**
 * Each of these nodes' connectivity. On PostgreSQL the nodes' rows are locked first (in id order)
 * until the transaction `db` ends, and read after: two console processes recording states of one
 * device take turns, each deciding on what the other wrote. (Read in the statement that locks, the
 * device_status row would be the one of that statement's start: PostgreSQL brings only the locked
 * rows up to date after a wait.) SQLite's one writer already runs such transactions in turn.
 */
export async function lockConnectivity(db: Database, nodeIds: readonly number[], lock: boolean): Promise<Map<number, Connectivity>> {
  const out = new Map<number, Connectivity>();
  const ids = [...new Set(nodeIds)].sort((a, b) => a - b);
  for (let i = 0; i < ids.length; i += 1000) {
    const chunk = ids.slice(i, i + 1000);
    if (lock) await db.selectFrom('nodes').select('id').where('id', 'in', chunk).orderBy('id').forUpdate().execute();
    const rows = await db
      .selectFrom('nodes as n')
      .leftJoin('device_status as s', 's.node_id', 'n.id')
      .select(['n.id', 'n.connection_offline', 'n.last_contact', 's.state_since'])
      .where('n.id', 'in', chunk)
      .execute();
    for (const r of rows)
      out.set(r.id, {
        offline: r.connection_offline === 1,
        lastContact: r.last_contact === null ? null : Number(r.last_contact),
        since: r.state_since === null ? null : Number(r.state_since),
      });
  }
  return out;
}

/**
 * Marks online those of these nodes held offline whose devices do not say when their connections
 * begin (no state with `ts`): their readings are the news that they are back. Answers them, with
 * their last contact before these readings.
 */
export async function heardFromWhileOffline(db: Database, nodeIds: readonly number[]): Promise<{ nodeId: number; lastContact: number | null }[]> {
  const out: { nodeId: number; lastContact: number | null }[] = [];
  for (let i = 0; i < nodeIds.length; i += 1000) {
    const rows = await db
      .updateTable('nodes')
      .set({ connection_offline: 0 })
      .where('id', 'in', nodeIds.slice(i, i + 1000))
      .where('connection_offline', '=', 1)
      .where(({ not, exists, selectFrom }) =>
        not(exists(selectFrom('device_status as s').select('s.node_id').whereRef('s.node_id', '=', 'nodes.id').where('s.state_since', 'is not', null))),
      )
      .returning(['id', 'last_contact'])
      .execute();
    for (const r of rows) out.push({ nodeId: r.id, lastContact: r.last_contact === null ? null : Number(r.last_contact) });
  }
  return out;
}

/** The stored hash of a device's secret, by its serial number (the MQTT username). */
export async function secretHashBySerial(db: Database, serial: string): Promise<string | null> {
  const r = await db
    .selectFrom('device_credentials as c')
    .innerJoin('nodes as n', 'n.id', 'c.node_id')
    .select('c.secret_hash')
    .where('n.serial_number', '=', serial)
    .executeTakeFirst();
  return r?.secret_hash ?? null;
}

export async function saveCredential(db: Database, nodeId: number, secretHash: string, at: number): Promise<void> {
  await db
    .insertInto('device_credentials')
    .values({ node_id: nodeId, secret_hash: secretHash, issued_at: at })
    .onConflict((oc) => oc.column('node_id').doUpdateSet({ secret_hash: secretHash, issued_at: at }))
    .execute();
  // A new credential may be a new device, counting its connections from its own clock: its states are not weighed against the old one's.
  await db.updateTable('device_status').set({ state_since: null }).where('node_id', '=', nodeId).execute();
}

/** Each of these nodes' credential's hash (nodes without one are absent). */
export async function credentialHashes(db: Database, nodeIds: readonly number[]): Promise<Map<number, string>> {
  const out = new Map<number, string>();
  for (let i = 0; i < nodeIds.length; i += 1000) {
    const rows = await db
      .selectFrom('device_credentials')
      .select(['node_id', 'secret_hash'])
      .where('node_id', 'in', nodeIds.slice(i, i + 1000))
      .execute();
    for (const r of rows) out.set(r.node_id, r.secret_hash);
  }
  return out;
}

/** Node ids whose devices hold a credential: they report over the wire. */
export async function credentialedNodeIds(db: Database): Promise<Set<number>> {
  return new Set((await db.selectFrom('device_credentials').select('node_id').execute()).map((r) => r.node_id));
}

export async function deviceRecord(db: Database, nodeId: number) {
  const cred = await db.selectFrom('device_credentials').select('issued_at').where('node_id', '=', nodeId).executeTakeFirst();
  const status = await db.selectFrom('device_status').selectAll().where('node_id', '=', nodeId).executeTakeFirst();
  return { issuedAt: cred ? Number(cred.issued_at) : null, status: status ?? null };
}

/** Records a refused message of a device: its reason is the one its node's page shows. */
export async function recordRejection(db: Database, nodeId: number, reason: string, at: number): Promise<void> {
  await db
    .insertInto('device_status')
    .values({ node_id: nodeId, state_json: null, rejected_reason: reason, rejected_at: at, rejected_count: 1 })
    .onConflict((oc) =>
      oc.column('node_id').doUpdateSet({ rejected_reason: reason, rejected_at: at, rejected_count: sql<number>`device_status.rejected_count + 1` }),
    )
    .execute();
}

/** Adds messages dropped by the rate limit to each device's count. */
export async function addDropped(db: Database, counts: ReadonlyMap<number, number>): Promise<void> {
  for (const [nodeId, n] of counts)
    await db
      .insertInto('device_status')
      .values({ node_id: nodeId, state_json: null, rejected_reason: null, rejected_at: null, dropped_count: n })
      .onConflict((oc) => oc.column('node_id').doUpdateSet({ dropped_count: sql<number>`device_status.dropped_count + ${n}` }))
      .execute();
}

/** A device's state as recorded, with when the connection began that it speaks for (null: the device does not say). */
export async function saveState(db: Database, nodeId: number, stateJson: string, since: number | null): Promise<void> {
  await db
    .insertInto('device_status')
    .values({ node_id: nodeId, state_json: stateJson, state_since: since, rejected_reason: null, rejected_at: null })
    .onConflict((oc) => oc.column('node_id').doUpdateSet({ state_json: stateJson, state_since: since }))
    .execute();
}

/** Which of the (node, seq) pairs are stored already, as `node:seq` keys. */
export async function storedSequences(db: Database, pairs: readonly { nodeId: number; seq: number }[]): Promise<Set<string>> {
  const out = new Set<string>();
  for (let i = 0; i < pairs.length; i += 500) {
    const chunk = pairs.slice(i, i + 500);
    const rows = await db
      .selectFrom('device_readings')
      .select(['node_id', 'seq'])
      .where((eb) =>
        eb(
          eb.refTuple('node_id', 'seq'),
          'in',
          chunk.map((p) => eb.tuple(p.nodeId, p.seq)),
        ),
      )
      .execute();
    for (const r of rows) out.add(`${r.node_id}:${Number(r.seq)}`);
  }
  return out;
}

/** Records the sequence numbers (and times) of readings stored, a thousand a statement. */
export async function saveSequences(db: Database, readings: readonly { nodeId: number; seq: number; ts: number }[]): Promise<void> {
  const rows = readings.map((r) => ({ node_id: r.nodeId, seq: r.seq, ts: r.ts }));
  for (let i = 0; i < rows.length; i += 1000)
    await db
      .insertInto('device_readings')
      .values(rows.slice(i, i + 1000))
      .execute();
}

/** Forgets the sequence numbers of readings older than raw retention: such a reading is refused as too old anyway. */
export async function pruneSequences(db: Database, before: number): Promise<void> {
  await db.deleteFrom('device_readings').where('ts', '<', before).execute();
}

/** What a simulated fleet's identities file holds of each node (docs/devices.md): commissioned nodes, by id; `count` first, or `nodeIds`. */
export async function fleetNodes(db: Database, pick: { count: number } | { nodeIds: readonly number[] }) {
  const q = db
    .selectFrom('nodes')
    .select(['id', 'serial_number', 'lat', 'lng', 'region', 'postcode', 'timezone', 'phases', 'solar_kw', 'inverter_kw', 'battery_kw', 'battery_usable_kwh'])
    .where('commissioned_at', 'is not', null)
    .orderBy('id');
  let nodes: Awaited<ReturnType<typeof q.execute>> = [];
  if ('count' in pick) nodes = await q.limit(pick.count).execute();
  else for (let i = 0; i < pick.nodeIds.length; i += 1000) nodes.push(...(await q.where('id', 'in', pick.nodeIds.slice(i, i + 1000)).execute()));
  const subs = new Map<number, { id: number; name: string }[]>();
  for (let i = 0; i < nodes.length; i += 1000) {
    const rows = await db
      .selectFrom('submeters')
      .select(['id', 'node_id', 'name'])
      .where(
        'node_id',
        'in',
        nodes.slice(i, i + 1000).map((n) => n.id),
      )
      .orderBy('id')
      .execute();
    for (const s of rows) subs.set(s.node_id, [...(subs.get(s.node_id) ?? []), { id: s.id, name: s.name }]);
  }
  return nodes.map((n) => ({ ...n, submeters: subs.get(n.id) ?? [] }));
}
