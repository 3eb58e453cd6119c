import { DEMO_ORGANISATIONS } from '@vpp/shared/demo';
import { z } from 'zod';
import { type Config, defineSettings } from '../../config.ts';

// OpenADR 3: the console's VTN and the console as a VEN of a network's VTN (docs/openadr.md).

/** The VTN the console is a VEN of: every OAuth setting is then required. */
function vtnOf(c: Config): { openadrVtn: Config['openadrVtn'] } {
  const organisation = c.OPENADR_VEN_ORGANISATION ?? (c.demo ? DEMO_ORGANISATIONS[0].name : undefined);
  if (!c.OPENADR_VTN_URL) return { openadrVtn: null };
  const missing = [
    ['OPENADR_CLIENT_ID', c.OPENADR_CLIENT_ID],
    ['OPENADR_CLIENT_SECRET', c.OPENADR_CLIENT_SECRET],
    ['OPENADR_VEN_ORGANISATION', organisation],
  ].filter(([, v]) => v === undefined);
  if (missing.length) throw new Error(`Invalid setting:\n${missing.map(([k]) => `  ${k}: is required when OPENADR_VTN_URL is set`).join('\n')}`);
  return {
    openadrVtn: {
      url: c.OPENADR_VTN_URL.replace(/\/+$/, ''),
      clientId: c.OPENADR_CLIENT_ID as string,
      clientSecret: c.OPENADR_CLIENT_SECRET as string,
      organisation: organisation as string,
      venName: c.OPENADR_VEN_NAME ?? null,
      pollS: c.OPENADR_POLL_S,
    },
  };
}

const openadrSettings = {
  /** Hosts (names or addresses, comma-separated) an OpenADR callback may reach over plain http or at a private address (docs/openadr.md). */
  OPENADR_CALLBACK_ALLOW: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((h) => h.trim().toLowerCase())
        .filter(Boolean),
    ),
  /** The console as a VEN of a network's VTN (docs/openadr.md): the VTN's base URL (…/openadr3/3.0.1) and the OAuth client the network gave. */
  OPENADR_VTN_URL: z
    .string()
    .url()
    .refine((u) => /^https?:\/\//i.test(u), 'must start with http:// or https://')
    .optional(),
  OPENADR_CLIENT_ID: z.string().min(1).max(256).optional(),
  OPENADR_CLIENT_SECRET: z.string().min(1).max(1024).optional(),
  /** The organisation whose VPPs take the VTN's limits (its name); the demo's retailer in demo mode. */
  OPENADR_VEN_ORGANISATION: z.string().trim().min(1).max(200).optional(),
  /** The name the console registers as at the VTN (its VEN_NAME target); the organisation's name when unset. */
  OPENADR_VEN_NAME: z.string().trim().min(1).max(128).optional(),
  /** Seconds between polls of the VTN (a notification from the VTN polls at once). */
  OPENADR_POLL_S: z.coerce.number().int().min(1).max(3600).default(60),
};
defineSettings(openadrSettings, vtnOf);

declare module '../../config.ts' {
  interface AreaSettings extends z.infer<z.ZodObject<typeof openadrSettings>> {
    /** The VTN the console is a VEN of, when OPENADR_VTN_URL is set. */
    openadrVtn: { url: string; clientId: string; clientSecret: string; organisation: string; venName: string | null; pollS: number } | null;
  }
}
