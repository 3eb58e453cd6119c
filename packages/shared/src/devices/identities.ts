import { z } from 'zod';

/**
 * A simulated fleet's identities file (docs/devices.md, "The simulated fleet"): what `npm run
 * fleet:commission` writes on the console's side and `npm run fleet` reads, so that the fleet
 * process knows its devices without reading the console's database. Each device: its MQTT
 * credential (the secret in clear, which the console keeps only as a hash) and what an installer
 * knows of the home: its place, time zone, equipment and submeters (with the console's ids, which
 * readings name).
 */
export const fleetDeviceSchema = z.strictObject({
  serial: z.string().min(1).max(64),
  secret: z.string().min(16).max(200),
  lat: z.number().min(-90).max(90),
  lng: z.number().min(-180).max(180),
  region: z.string().max(16),
  postcode: z.string().max(16),
  timezone: z.string().max(64),
  phases: z.union([z.literal(1), z.literal(3)]),
  solarKw: z.number().min(0),
  inverterKw: z.number().min(0),
  batteryKw: z.number().min(0),
  batteryKwh: z.number().min(0),
  submeters: z.array(z.strictObject({ id: z.number().int().positive(), name: z.string().max(64) })).max(16),
});
export type FleetDevice = z.infer<typeof fleetDeviceSchema>;

export const fleetIdentitiesSchema = z.strictObject({
  /** When the console issued these credentials (epoch seconds). */
  issuedAt: z.number().int(),
  devices: z.array(fleetDeviceSchema),
});
export type FleetIdentities = z.infer<typeof fleetIdentitiesSchema>;
