import { z } from 'zod';
import { okReply } from '../api/envelope.ts';
import { bodyId, recordId } from '../api/inputs.ts';

/** Spec 2 §9: 0 to 5 existing and 0 to 5 new inverters; grid phases 1, 2 or 3; solar phases 1 or 3. */
export const KIT_LIMITS = { existingSystems: 5, newSystems: 5, solarSystems: 3, referenceNotes: 2000 } as const;
export const GRID_PHASES = [1, 2, 3] as const;
export const SOLAR_PHASES = [1, 3] as const;

/** An inverter type of the catalogue (spec 2 §3). */
export const inverterType = z.object({
  id: z.number(),
  /** The part number ordered for a new inverter. */
  code: z.string(),
  displayName: z.string(),
  manufacturer: z.string(),
  /** Inverter and battery in one unit: a battery must be chosen (no Not Connected). */
  allInOne: z.boolean(),
  /** true: solar connects to the inverter itself; false: no solar; null: solar on its own inverter, whose phases must be chosen. */
  pvCompatible: z.boolean().nullable(),
  phases: z.number(),
  ratedPowerW: z.number(),
  compatibleBatteryTypes: z.array(z.number()),
  imageUrl: z.string(),
});
export type InverterType = z.infer<typeof inverterType>;

export const batteryType = z.object({
  id: z.number(),
  code: z.string(),
  displayName: z.string(),
  manufacturer: z.string(),
  usableCapacityWh: z.number(),
  imageUrl: z.string(),
});
export type BatteryType = z.infer<typeof batteryType>;

export const kitOptionsQuery = z.object({
  inverterTypeId: recordId('inverter type').optional(),
  batteryTypeId: recordId('battery type').optional(),
});
export const kitOptionsReply = okReply(z.object({ inverterTypes: z.array(inverterType), batteryTypes: z.array(batteryType) }));
export type KitOptions = z.infer<typeof kitOptionsReply>['data'];

const whole = (field: string) => {
  const message = `${field} must be a whole number from 0 to 9.`;
  return z.number({ error: message }).int(message).min(0, message).max(9, message);
};

/** One inverter system of a design: the browser's change rules keep it consistent, the server checks it. */
export const inverterSystem = z.object({
  inverter: bodyId('inverter').nullable(),
  pvConnected: z.boolean({ error: 'pvConnected must be true or false.' }),
  pvPhases: whole('pvPhases').nullable(),
  battery: bodyId('battery').nullable(),
  /** Already on the site: only its metering and communications are ordered. */
  existing: z.boolean({ error: 'existing must be true or false.' }).optional().default(false),
});
export type InverterSystem = z.input<typeof inverterSystem>;

export const SYSTEM_ID = /^[A-Za-z0-9_-]{1,40}$/;
const SYSTEM_ID_MESSAGE = 'inverterSystems keys must be 1 to 40 letters, digits, _ or -.';
const MAX_SYSTEMS = KIT_LIMITS.existingSystems + KIT_LIMITS.newSystems;

/** A kit design (spec 2 §3): grid phases and the inverter systems keyed by a generated id, in their order. */
export const kitDesign = z.object({
  gridPhases: whole('gridPhases'),
  inverterSystems: z
    .record(z.string().regex(SYSTEM_ID, SYSTEM_ID_MESSAGE), inverterSystem, {
      error: (issue) =>
        issue.code === 'invalid_type'
          ? 'inverterSystems must be an object of inverter systems keyed by id.'
          : issue.code === 'invalid_key'
            ? SYSTEM_ID_MESSAGE
            : undefined,
    })
    .refine((r) => Object.keys(r).length <= MAX_SYSTEMS, `inverterSystems can hold at most ${MAX_SYSTEMS} systems.`),
});
export type KitDesign = z.input<typeof kitDesign>;
export type KitDesignParsed = z.output<typeof kitDesign>;

/** A line of the order: a part, how many, and the phases it serves (null where they do not apply). */
export const kitOrderLine = z.object({
  code: z.string().max(40),
  description: z.string().max(300),
  qty: z.number().int().min(1).max(100),
  poles: z.number().int().min(0).max(9).nullable(),
  solarPhases: z.number().int().min(0).max(9).nullable(),
  gridPhases: z.number().int().min(0).max(9).nullable(),
});
export type KitOrderLine = z.infer<typeof kitOrderLine>;

export const kitOrder = z.object({
  lines: z.array(kitOrderLine).max(100, 'order.lines can hold at most 100 lines.'),
  /** What the design means for the installer, one note a line. */
  referenceNotes: z.array(z.string().max(500)).max(30, 'order.referenceNotes can hold at most 30 notes.'),
});
export type KitOrder = z.infer<typeof kitOrder>;

export const SYSTEM_FIELDS = ['inverter', 'battery', 'pvConnected', 'pvPhases'] as const;
export type SystemField = (typeof SYSTEM_FIELDS)[number];
export type SystemErrors = Partial<Record<SystemField, string>>;

export const kitDesignErrors = z.object({
  gridPhases: z.string().optional(),
  inverterSystems: z.record(
    z.string(),
    z.object({ inverter: z.string().optional(), battery: z.string().optional(), pvConnected: z.string().optional(), pvPhases: z.string().optional() }),
  ),
});
export type KitDesignErrors = z.infer<typeof kitDesignErrors>;

/** Either the order or what is wrong, per field. */
export const kitDesignReply = okReply(z.union([z.object({ order: kitOrder }), z.object({ errors: kitDesignErrors })]));

export const kitEmailBody = z.object({
  order: kitOrder,
  design: kitDesign,
  referenceNotes: z
    .string({ error: 'referenceNotes must be text.' })
    .max(KIT_LIMITS.referenceNotes, `referenceNotes can have at most ${KIT_LIMITS.referenceNotes} characters.`)
    .optional()
    .default(''),
});
export type KitEmailBody = z.input<typeof kitEmailBody>;
export const kitEmailReply = okReply(z.object({ sentTo: z.array(z.string()) }));
