import { z } from 'zod';

/**
 * The device protocol (docs/devices.md): MQTT 3.1.1 or 5, QoS 1, JSON payloads, one topic tree per
 * device under DEVICE_TOPIC_PREFIX, the device's serial number as its MQTT username.
 */
export const DEVICE_TOPIC_PREFIX = 'vpp/v1';

/** The four topics of a device: what it publishes (telemetry, state, cmd/ack) and what it reads (cmd). */
export const deviceTopics = (serial: string) => ({
  telemetry: `${DEVICE_TOPIC_PREFIX}/${serial}/telemetry`,
  state: `${DEVICE_TOPIC_PREFIX}/${serial}/state`,
  cmd: `${DEVICE_TOPIC_PREFIX}/${serial}/cmd`,
  ack: `${DEVICE_TOPIC_PREFIX}/${serial}/cmd/ack`,
});

export type DeviceTopicKind = 'telemetry' | 'state' | 'cmd' | 'ack';

/** The device and kind a topic names, or null when it is not a device topic of this protocol. */
export function parseDeviceTopic(topic: string): { serial: string; kind: DeviceTopicKind } | null {
  const m = /^vpp\/v1\/([^/+#]{1,64})\/(telemetry|state|cmd|cmd\/ack)$/.exec(topic);
  if (!m) return null;
  return { serial: m[1], kind: m[2] === 'cmd/ack' ? 'ack' : (m[2] as DeviceTopicKind) };
}

/** Readings in one batch, at most: a device with more buffered sends several batches. */
export const MAX_BATCH_READINGS = 500;
/** How far ahead of the console's clock a device's timestamp may be. */
export const MAX_CLOCK_AHEAD_S = 300;

const power = z.number().finite();
const optPower = power.nullable().optional();
const epoch = z.number().int().min(0).max(4_102_444_800);

/**
 * One reading: instantaneous values held for `dt` seconds from `ts` (the device's clock, epoch
 * seconds). Powers in kW (positive meter power imports, positive battery power discharges), volts,
 * hertz, kvar, amps; `soc` in %, `remainingCharge` in kWh. Names are the API's metric names.
 * `seq` counts the device's readings: a reading sent again with the same `seq` is stored once.
 */
export const deviceReadingSchema = z.strictObject({
  seq: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  ts: epoch,
  dt: z.number().int().min(1).max(3600),
  meterPower: power,
  meterPowerA: optPower,
  meterPowerB: optPower,
  meterPowerC: optPower,
  solarPower: optPower,
  meterSGA: optPower,
  batteryPower: optPower,
  housePower: optPower,
  meterVoltage: z.number().min(0).max(1000).nullable().optional(),
  meterVoltageA: z.number().min(0).max(1000).nullable().optional(),
  meterVoltageB: z.number().min(0).max(1000).nullable().optional(),
  meterVoltageC: z.number().min(0).max(1000).nullable().optional(),
  meterFrequency: z.number().min(40).max(70).nullable().optional(),
  meterReactivePower: optPower,
  solarReactivePower: optPower,
  meterCurrent: z.number().min(0).max(10_000).nullable().optional(),
  soc: z.number().nullable().optional(),
  remainingCharge: z.number().min(0).nullable().optional(),
  /** Solar (kW) held back to meet an export or generation limit. */
  curtailedPower: z.number().min(0).nullable().optional(),
  /** Submeter loads by the submeter ids the state announced (kW, kvar). */
  submeters: z
    .array(z.strictObject({ id: z.number().int().positive(), p: power, q: power.optional() }))
    .max(16)
    .optional(),
});
export type DeviceReading = z.infer<typeof deviceReadingSchema>;

/** A `telemetry` payload: one reading, or a batch of buffered ones in sequence order. */
export const deviceTelemetrySchema = z.union([deviceReadingSchema, z.strictObject({ readings: z.array(deviceReadingSchema).min(1).max(MAX_BATCH_READINGS) })]);
export type DeviceTelemetry = z.infer<typeof deviceTelemetrySchema>;

/** When a device's connection began: epoch seconds, with the fraction that tells apart two connections within one second. */
const connectedAt = z.number().min(0).max(4_102_444_800);

/**
 * The retained `state` of a device: `online: true` with what it is and can do when it connects, and
 * `{ "online": false }` as its last will (the broker publishes it when the device drops away).
 * `ts`, the same in both, is when the connection began that the state speaks for: several console
 * processes may take a last will and the next state online in either order, and the later
 * connection is the one that holds.
 */
export const deviceStateSchema = z.union([
  z.strictObject({ online: z.literal(false), ts: connectedAt.optional() }),
  z.strictObject({
    online: z.literal(true),
    ts: connectedAt.optional(),
    firmware: z.string().max(64),
    /** Rated powers (kW) and usable battery capacity (kWh). */
    inverterKw: z.number().min(0).max(1000),
    batteryKw: z.number().min(0).max(1000),
    batteryKwh: z.number().min(0).max(10_000),
    capabilities: z.strictObject({
      battery: z.boolean(),
      solar: z.boolean(),
      phases: z.union([z.literal(1), z.literal(3)]),
      submeters: z.array(z.strictObject({ id: z.number().int().positive(), name: z.string().max(64) })).max(16),
    }),
  }),
]);
export type DeviceState = z.infer<typeof deviceStateSchema>;

/**
 * What a command asks of the device, shaped after CSIP-AUS (IEEE 2030.5) DER controls: export and
 * generation limits in watts (opModExpLimW: net at the connection point; opModGenLimW: gross from the
 * inverter), reached over `rampS` seconds from `rampFromW`; a site import limit in watts
 * (opModImpLimW: net import at the connection point, which the battery holds by charging less and then
 * discharging, within its rating and above its backup reserve); a battery setpoint in watts (positive
 * discharges); charge to full; hold the battery as an outage reserve and island while the grid is out.
 * `standing` marks a default control (DefaultDERControl) that holds until replaced.
 */
export const deviceControlSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('batteryPowerW'), w: z.number().finite() }),
  z.strictObject({
    type: z.enum(['opModExpLimW', 'opModGenLimW']),
    w: z.number().finite(),
    rampS: z.number().min(0).optional(),
    rampFromW: z.number().finite().nullable().optional(),
    standing: z.boolean().optional(),
  }),
  z.strictObject({ type: z.literal('opModImpLimW'), w: z.number().finite().min(0) }),
  z.strictObject({ type: z.literal('chargeToFull') }),
  z.strictObject({ type: z.literal('outageReserve') }),
]);
export type DeviceControl = z.infer<typeof deviceControlSchema>;

/**
 * A `cmd` payload (console → device): the control, valid over [validFrom, validTo), created at
 * `createdAt`. `windows`, when present, are the only parts of that span in which the device follows
 * it (none: it is set aside for now), because another instruction to the battery has precedence
 * there (docs/precedence.md); the console has already resolved the precedence, so at any moment a
 * device holds at most one battery instruction to follow. A command with an id the device holds
 * replaces it (the console sends it again whenever its windows or its end change).
 */
export const deviceCommandSchema = z.strictObject({
  id: z.number().int().positive(),
  createdAt: epoch,
  validFrom: epoch,
  validTo: epoch,
  control: deviceControlSchema,
  windows: z
    .array(z.strictObject({ from: epoch, to: epoch }))
    .max(100)
    .optional(),
});
export type DeviceCommand = z.infer<typeof deviceCommandSchema>;

/** A `cmd` payload that withdraws a command the device was sent: it no longer follows it (not answered). */
export const deviceCancelSchema = z.strictObject({ id: z.number().int().positive(), cancel: z.literal(true) });
export type DeviceCancel = z.infer<typeof deviceCancelSchema>;

/** Any `cmd` payload: a command (new, or replacing one of the same id) or a withdrawal. */
export const deviceCmdMessageSchema = z.union([deviceCancelSchema, deviceCommandSchema]);
export type DeviceCmdMessage = z.infer<typeof deviceCmdMessageSchema>;

export const DEVICE_ACK_RESULTS = ['ACCEPTED', 'OPTED_OUT', 'REJECTED'] as const;

/** A `cmd/ack` payload (device → console): taken on, opted out by the customer, or refused with a reason. */
export const deviceAckSchema = z
  .strictObject({
    id: z.number().int().positive(),
    result: z.enum(DEVICE_ACK_RESULTS),
    reason: z.string().min(1).max(200).optional(),
    ts: epoch.optional(),
  })
  .refine((a) => a.result !== 'REJECTED' || a.reason !== undefined, { message: 'reason is required when result is REJECTED.', path: ['reason'] });
export type DeviceAck = z.infer<typeof deviceAckSchema>;
