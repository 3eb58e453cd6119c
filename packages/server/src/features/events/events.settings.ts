import { z } from 'zod';
import { defineSettings } from '../../config.ts';

// What every kind of event shares: how long after its end (or cancel) an event is settled.
const eventsSettings = defineSettings({
  SETTLEMENT_DELAY_S: z.coerce
    .number()
    .int()
    .min(0)
    .max(7 * 86400)
    .default(3600),
});

declare module '../../config.ts' {
  interface AreaSettings extends z.infer<z.ZodObject<typeof eventsSettings>> {}
}
