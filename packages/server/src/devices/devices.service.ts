import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { DeviceCredential, NodeDevice } from '@vpp/shared/devices/endpoints';
import type { FleetDevice, FleetIdentities } from '@vpp/shared/devices/identities';
import { type Database, nowS } from '../db/database.ts';
import type { AppContext } from '../platform/context.ts';
import * as repo from './devices.repo.ts';

/**
 * A device secret is 32 random bytes: a fast hash is enough to keep it unreadable in the database
 * (there is nothing to guess), and lets the broker check 50,000 reconnecting devices in a minute.
 */
export function hashSecret(secret: string): string {
  return `sha256:${createHash('sha256').update(secret).digest('hex')}`;
}

export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** Whether `password` is the secret of the device whose serial number is `serial`. */
export async function verifyDevice(ctx: AppContext, serial: string, password: Buffer): Promise<boolean> {
  const stored = await repo.secretHashBySerial(ctx.db, serial);
  if (!stored) return false;
  const a = Buffer.from(hashSecret(password.toString('utf8')));
  const b = Buffer.from(stored);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The embedded broker of each running console: a rotated credential closes its device's connections there. */
export const embeddedBrokers = new WeakMap<AppContext, { disconnect(serial: string): void }>();

/** A node as its area found it for the caller (the nodes area checks the organisation). */
export interface DeviceNode {
  id: number;
  serial_number: string;
}

/**
 * Issues a node's device credential, or replaces it. Shown once. The old secret stops working: on
 * the embedded broker its connections close at once (on an external broker, at its next connection).
 */
export async function issueCredential(ctx: AppContext, node: DeviceNode): Promise<DeviceCredential> {
  const secret = newSecret();
  const at = nowS();
  await repo.saveCredential(ctx.db, node.id, hashSecret(secret), at);
  embeddedBrokers.get(ctx)?.disconnect(node.serial_number);
  return { username: node.serial_number, secret, issuedAt: at, broker: ctx.deviceBroker };
}

/** A node's device as its page shows it: never the secret. */
export async function nodeDevice(ctx: AppContext, node: DeviceNode): Promise<NodeDevice> {
  const { issuedAt, status } = await repo.deviceRecord(ctx.db, node.id);
  return {
    username: node.serial_number,
    credentialIssuedAt: issuedAt,
    broker: ctx.deviceBroker,
    lastRejected: status?.rejected_reason && status.rejected_at !== null ? { ts: Number(status.rejected_at), reason: status.rejected_reason } : null,
    rejectedCount: status?.rejected_count ?? 0,
    droppedCount: status?.dropped_count ?? 0,
  };
}

/**
 * Commissions nodes as devices of a simulated fleet: issues each a new credential (stored hashed;
 * an earlier one stops working) and answers the fleet's identities (docs/devices.md), the secrets
 * in clear, for `npm run fleet` to read. Commissioned nodes by id: the first `count`, or `nodeIds`.
 */
export async function commissionFleet(db: Database, pick: { count: number } | { nodeIds: readonly number[] }, at = nowS()): Promise<FleetIdentities> {
  const nodes = await repo.fleetNodes(db, pick);
  const devices: FleetDevice[] = [];
  for (const n of nodes) {
    const secret = newSecret();
    await repo.saveCredential(db, n.id, hashSecret(secret), at);
    devices.push(identity(n, secret));
  }
  return { issuedAt: at, devices };
}

/**
 * The demo's own devices (docs/devices.md, "The demo"): the secret of each is `secretOf(serial)`,
 * derived from a key the demo keeps, so that its next start knows them again without a secret kept
 * in clear. A node without a credential is given the demo's; a node whose credential is the demo's
 * stays the demo's; a node whose credential was issued to someone else (rotated through the API for
 * a device of their own) is left to that device. Answers the demo's devices, by node id.
 */
export async function commissionDemoFleet(
  db: Database,
  nodeIds: readonly number[],
  secretOf: (serial: string) => string,
  at = nowS(),
): Promise<Map<number, FleetDevice>> {
  const held = await repo.credentialHashes(db, nodeIds);
  const out = new Map<number, FleetDevice>();
  for (const n of await repo.fleetNodes(db, { nodeIds })) {
    const secret = secretOf(n.serial_number);
    const hash = hashSecret(secret);
    const stored = held.get(n.id);
    if (stored !== undefined && stored !== hash) continue;
    if (stored === undefined) await repo.saveCredential(db, n.id, hash, at);
    out.set(n.id, identity(n, secret));
  }
  return out;
}

function identity(n: Awaited<ReturnType<typeof repo.fleetNodes>>[number], secret: string): FleetDevice {
  return {
    serial: n.serial_number,
    secret,
    lat: n.lat,
    lng: n.lng,
    region: n.region,
    postcode: n.postcode,
    timezone: n.timezone,
    phases: n.phases === 3 ? 3 : 1,
    solarKw: n.solar_kw,
    inverterKw: n.inverter_kw,
    batteryKw: n.battery_kw,
    batteryKwh: n.battery_usable_kwh,
    submeters: n.submeters,
  };
}
