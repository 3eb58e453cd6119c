import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { DeviceCredential, FleetDevice, FleetIdentities, NodeDevice } from '@vpp/shared';
import { type Database, nowS } from '../db/database.ts';
import { requireNode } from '../features/nodes/index.ts';
import type { AppContext } from '../platform/context.ts';
import type { AuthUser } from '../platform/guard.ts';
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

/** Issues a node's device credential, or replaces it (the old secret stops working at the device's next connection). Shown once. */
export async function issueCredential(ctx: AppContext, user: AuthUser, nodeId: number): Promise<DeviceCredential> {
  const node = await requireNode(ctx, user, nodeId);
  const secret = newSecret();
  const at = nowS();
  await repo.saveCredential(ctx.db, nodeId, hashSecret(secret), at);
  return { username: node.serial_number, secret, issuedAt: at, broker: ctx.deviceBroker };
}

/** A node's device as its page shows it: never the secret. */
export async function nodeDevice(ctx: AppContext, user: AuthUser, nodeId: number): Promise<NodeDevice> {
  const node = await requireNode(ctx, user, nodeId);
  const { issuedAt, status } = await repo.deviceRecord(ctx.db, nodeId);
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
    devices.push({
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
    });
  }
  return { issuedAt: at, devices };
}
