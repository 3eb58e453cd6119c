import { z } from 'zod';
import { defineSettings } from '../../config.ts';

// The settlement of curtailments (docs/operations.md).
const curtailmentsSettings = defineSettings({
  /**
   * Curtailment credits: $/kWh of curtailed solar for a customer with no plan of the curtailing
   * organisation on the day (a customer with one is credited at its plan's feed-in tariff).
   */
  CURTAILMENT_CREDIT_RATE: z.coerce.number().min(0).max(10).default(0.05),
});

declare module '../../config.ts' {
  interface AreaSettings extends z.infer<z.ZodObject<typeof curtailmentsSettings>> {}
}
