import type { z } from 'zod';
import { defineSettings, seconds } from '../../config.ts';

// How long a new user's welcome link works (docs/operations.md).
const usersSettings = defineSettings({
  WELCOME_TOKEN_TTL_S: seconds.default(7 * 24 * 3600),
});

declare module '../../config.ts' {
  interface AreaSettings extends z.infer<z.ZodObject<typeof usersSettings>> {}
}
