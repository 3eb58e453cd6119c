import type { z } from 'zod';
import { defineSettings, seconds } from '../../config.ts';

// How long a password-reset link works (docs/operations.md).
const passwordSettings = defineSettings({
  RESET_TOKEN_TTL_S: seconds.default(3600),
});

declare module '../../config.ts' {
  interface AreaSettings extends z.infer<z.ZodObject<typeof passwordSettings>> {}
}
