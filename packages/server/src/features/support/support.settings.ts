import { z } from 'zod';
import { defineSettings } from '../../config.ts';

// The support area's settings: where the console's users write for help, and how often (docs/operations.md).
const supportSettings = defineSettings({
  SUPPORT_EMAIL: z.string().email().default('support@localhost'),
  SUPPORT_FORM_URL: z
    .string()
    .url()
    .refine((u) => /^https?:\/\//i.test(u), 'must start with http:// or https://')
    .optional(),
  SUPPORT_MAX_REQUESTS_PER_HOUR: z.coerce.number().int().min(1).max(1000).default(5),
});

declare module '../../config.ts' {
  interface AreaSettings extends z.infer<z.ZodObject<typeof supportSettings>> {}
}
