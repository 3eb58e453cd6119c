import { z } from 'zod';
import { defineSettings } from '../../config.ts';

// Lockouts: dispatches of 0 kW that hold an organisation's nodes (docs/precedence.md).
const dispatchesSettings = defineSettings({
  /** A lockout (a 0 kW dispatch) of an organisation lasts at most this (docs/precedence.md). */
  LOCKOUT_MAX_DURATION_S: z.coerce
    .number()
    .int()
    .min(300)
    .max(7 * 86_400)
    .default(86_400),
  /** An organisation's lockouts hold at most this many nodes at any one time (docs/precedence.md). */
  LOCKOUT_MAX_NODES: z.coerce.number().int().min(1).max(1_000_000).default(1000),
});

declare module '../../config.ts' {
  interface AreaSettings extends z.infer<z.ZodObject<typeof dispatchesSettings>> {}
}
