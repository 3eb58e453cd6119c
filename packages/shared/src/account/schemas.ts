import { z } from 'zod';
import { ALERT_EMAIL_FREQUENCIES, SUBORG_TYPES } from '../constants.ts';

/** Whether the runtime knows this IANA time zone name. */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-AU', { timeZone: name });
    return name.includes('/') || name === 'UTC';
  } catch {
    return false;
  }
}

/** An IANA time zone name, answered in its canonical spelling (australia/perth → Australia/Perth). */
export const timeZoneName = z
  .string()
  .trim()
  .refine(isTimeZone, 'Unknown time zone: use an IANA name such as Australia/Sydney.')
  .transform((name) => new Intl.DateTimeFormat('en-AU', { timeZone: name }).resolvedOptions().timeZone);

export const account = z.object({
  id: z.number(),
  username: z.string(),
  email: z.string(),
  givenName: z.string(),
  surname: z.string(),
  name: z.string(),
  timezone: z.string().nullable(),
  suborg_type: z.enum(SUBORG_TYPES),
  suborg_name: z.string(),
  alertEmailFrequency: z.enum(ALERT_EMAIL_FREQUENCIES),
  mfaEnabled: z.boolean(),
  permissions: z.array(z.string()),
});
export type Account = z.infer<typeof account>;

export const timezoneQuery = z.object({ timezone: timeZoneName });

export const alertEmailQuery = z.object({
  frequency: z.enum(ALERT_EMAIL_FREQUENCIES, { error: `Unknown alert email frequency: choose one of ${ALERT_EMAIL_FREQUENCIES.join(', ')}.` }),
});
