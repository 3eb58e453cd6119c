import { z } from 'zod';
import { defineSettings } from '../../config.ts';

// The settings of data exports (issue 17; docs/operations.md lists them with their defaults).
const exportSettings = defineSettings({
  /** Files are removed this many days after the export finished (the job then shows REMOVED). */
  EXPORT_RETENTION_DAYS: z.coerce.number().positive().max(3650).default(7),
  /** The longest range one operational export may cover, in days (default a year). */
  EXPORT_MAX_RANGE_DAYS: z.coerce.number().int().min(1).max(3660).default(366),
  /** How long a signed download URL of an export file works, in seconds (minutes long). */
  EXPORT_LINK_TTL_S: z.coerce.number().int().min(30).max(86400).default(900),
  /** Values an operational export holds at once: a page of whole rows, per node each metric's sum and the seconds covered (8 bytes each). */
  EXPORT_PAGE_VALUES: z.coerce.number().int().min(100).max(50_000_000).default(6_000_000),
});

declare module '../../config.ts' {
  interface AreaSettings extends z.infer<z.ZodObject<typeof exportSettings>> {}
}
