import { z } from 'zod';
import { defineSettings } from '../../config.ts';

// The customer portal's address, for the links the console sends its customers.
const portalSettings = defineSettings({
  PORTAL_URL: z.string().url().optional(),
});

declare module '../../config.ts' {
  interface AreaSettings extends z.infer<z.ZodObject<typeof portalSettings>> {}
}
