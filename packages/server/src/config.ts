import path from 'node:path';
import { DEMO_ORGANISATIONS } from '@vpp/shared/demo';
import { z } from 'zod';
import { CRASH_POINT_FORM } from './platform/crash-points.ts';

/** The exit code of a start whose PORT is taken (EADDRINUSE): a test that chose the port picks another and starts again. */
export const PORT_TAKEN_EXIT = 98;

const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');
const port = z.coerce.number().int().min(0).max(65535);
const seconds = z.coerce.number().int().positive();

/** Every setting, read from the environment once; the README's table lists the same names. */
/**
 * The ABN check (the ATO's rule): subtract 1 from the first digit, weight the 11 digits by
 * 10, 1, 3, 5, …, 19, and the sum must be a multiple of 89.
 */
export function isValidAbn(abn: string): boolean {
  if (!/^\d{11}$/.test(abn)) return false;
  const weights = [10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19];
  const sum = [...abn].reduce((a, ch, i) => a + (Number(ch) - (i === 0 ? 1 : 0)) * weights[i], 0);
  return sum % 89 === 0;
}

const schema = z.object({
  PORT: port.default(8080),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().url().optional(),
  DATABASE_SCHEMA: z
    .string()
    .regex(/^[a-z_][a-z0-9_]{0,62}$/, 'must be a lower-case SQL name')
    .optional(),
  DEMO: bool.optional(),
  SECRET_KEY: z.string().min(32, 'must be at least 32 characters').optional(),
  ACCESS_TOKEN_TTL_S: seconds.default(900),
  REFRESH_TOKEN_TTL_S: seconds.default(7 * 24 * 3600),
  REFRESH_REUSE_GRACE_S: z.coerce.number().int().min(0).max(60).default(10),
  COOKIE_SECURE: bool.default(false),
  API_BASE_URL: z.string().url().optional(),
  LOGIN_MAX_FAILURES_PER_ACCOUNT: seconds.default(5),
  LOGIN_MAX_FAILURES_PER_ADDRESS: seconds.default(30),
  LOGIN_FAILURE_WINDOW_S: seconds.default(900),
  CAPTCHA_COST: seconds.default(5000),
  TRUST_PROXY: bool.default(false),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST: z.string().optional(),
  SMTP_URL: z
    .string()
    .url()
    .refine((u) => /^smtps?:/.test(u), 'must start with smtp:// or smtps://')
    .optional(),
  MAIL_FROM: z.string().default('VPP Console <no-reply@localhost>'),
  PUBLIC_URL: z.string().url().optional(),
  SUPPORT_EMAIL: z.string().email().default('support@localhost'),
  SUPPORT_FORM_URL: z
    .string()
    .url()
    .refine((u) => /^https?:\/\//i.test(u), 'must start with http:// or https://')
    .optional(),
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
  SUPPORT_MAX_REQUESTS_PER_HOUR: z.coerce.number().int().min(1).max(1000).default(5),
  RESET_TOKEN_TTL_S: seconds.default(3600),
  WELCOME_TOKEN_TTL_S: seconds.default(7 * 24 * 3600),
  WORKER: bool.default(true),
  /** The billing events CSV and the operational exports are read and formatted in streaming worker threads (docs/performance.md); false: on the API's thread. */
  CSV_IN_WORKER: bool.default(true),
  JOB_LEASE_S: seconds.default(60),
  SIMULATOR: bool.optional(),
  MAP_TILE_URL: z.string().url().optional(),
  /** A street basemap: a Protomaps or OpenMapTiles extract (.pmtiles) the console serves, or a MapLibre style's URL. */
  BASEMAP_PMTILES: z.string().min(1).optional(),
  BASEMAP_STYLE_URL: z.string().url().optional(),
  BASEMAP_ATTRIBUTION: z.string().min(1).default('© OpenStreetMap contributors'),
  ANALYTICS_DOMAIN: z.string().min(1).optional(),
  ANALYTICS_URL: z.string().url().default('https://plausible.io/api/event'),
  SIM_NODES: z.coerce.number().int().min(0).max(1_000_000).default(300),
  SIM_HISTORY_DAYS: z.coerce.number().int().min(0).max(400).default(30),
  SIM_INTERVAL_S: seconds.default(30),
  /** Demo mode: the retailer's past dispatches over the backfilled history (demo-history.ts) and its automatic trader on the Queensland VPP; false leaves the demo without either. */
  SIM_DEMO_DISPATCHES: bool.default(true),
  /** The demo's live fleet: its devices report over MQTT through the embedded broker (false: the in-process simulator writes the telemetry store directly). */
  SIM_WIRE: bool.default(true),
  SIM_SEED: z.coerce.number().int().default(42),
  /** The share of each simulated battery its household keeps as backup (self-consumption stops there; dispatches may use it down to their own reserve). */
  SIM_BACKUP_RESERVE: z.coerce.number().min(0).max(0.9).default(0.2),
  PORTAL_URL: z.string().url().optional(),
  MARKET_IMPORT_ORGANISATION: z.string().trim().min(1).max(200).optional(),
  /** The organisation that runs the platform and issues its invoices: its billing administrators alone set an invoice paid (the market's operating organisation when unset). */
  BILLING_OPERATOR_ORGANISATION: z.string().trim().min(1).max(200).optional(),
  SETTLEMENT_DELAY_S: z.coerce
    .number()
    .int()
    .min(0)
    .max(7 * 86400)
    .default(3600),
  /** Billing (issue 15): the platform's monthly fee per node under management and per dispatch run, integer cents excluding GST. */
  BILLING_NODE_FEE_CENTS: z.coerce.number().int().min(0).max(100_000_000).default(250),
  BILLING_DISPATCH_FEE_CENTS: z.coerce.number().int().min(0).max(100_000_000).default(1500),
  /**
   * Curtailment credits: $/kWh of curtailed solar for a customer with no plan of the curtailing
   * organisation on the day (a customer with one is credited at its plan's feed-in tariff).
   */
  CURTAILMENT_CREDIT_RATE: z.coerce.number().min(0).max(10).default(0.05),
  /** The supplier on the tax invoices, and its ABN (11 digits, checked by the ABN's mod-89 rule). */
  BILLING_SUPPLIER_NAME: z.string().trim().min(1).max(200).default('VPP Console Pty Ltd'),
  BILLING_SUPPLIER_ABN: z
    .string()
    .transform((v) => v.replace(/\s+/g, ''))
    .refine(isValidAbn, 'must be an ABN: 11 digits passing the mod-89 check')
    .default('51824753556'),
  /** A lockout (a 0 kW dispatch) of an organisation lasts at most this (docs/precedence.md). */
  LOCKOUT_MAX_DURATION_S: z.coerce
    .number()
    .int()
    .min(300)
    .max(7 * 86_400)
    .default(86_400),
  /** An organisation's lockouts hold at most this many nodes at any one time (docs/precedence.md). */
  LOCKOUT_MAX_NODES: z.coerce.number().int().min(1).max(1_000_000).default(1000),
  /** Heavy reads (long-range series, maps) one user runs at a time; more wait (docs/performance.md). */
  HEAVY_READS_PER_USER: z.coerce.number().int().min(1).max(100).default(2),
  /** Heavy reads of one user that may wait their turn; one more is refused with a 429. */
  HEAVY_READS_WAITING: z.coerce.number().int().min(0).max(1000).default(8),
  TELEMETRY_RAW_RETENTION_DAYS: z.coerce.number().positive().default(3),
  /**
   * The embedded MQTT broker's port (docs/devices.md). Unset: 1883, or a free port named in the log
   * when 1883 is taken; set: that port or the start stops; 0: no embedded broker.
   */
  MQTT_PORT: port.optional(),
  /** An external broker instead of the embedded one, with the console's own credentials in the URL (mqtt://user:secret@host:1883). */
  MQTT_URL: z
    .string()
    .url()
    .refine((u) => /^mqtts?:\/\//i.test(u), 'must start with mqtt:// or mqtts://')
    .optional(),
  /** The shared subscription's group on an external broker: console processes of one deployment share one group and split the devices. */
  MQTT_SHARE_GROUP: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1 to 64 letters, digits, - or _')
    .default('vpp-console'),
  // Test only: the clock runs CLOCK_RATE times faster than real time from CLOCK_ANCHOR (epoch seconds; default, the start).
  CLOCK_RATE: z.coerce.number().int().min(1).max(3600).default(1),
  CLOCK_ANCHOR: seconds.optional(),
  CRASH_AT: z.string().regex(CRASH_POINT_FORM, 'must be <point>:<pass> or <point>:<pass>:<kind>, the point a name the code passes to crashPoint').optional(),
});

/**
 * The settings an area declares in its own folder: `<area>.settings.ts` calls defineSettings with
 * their schemas (imported by the area's index.ts) and adds their types to AreaSettings by
 * `declare module '../../config.ts'`, as `<area>.tables.ts` does for tables. loadConfig reads them
 * with the rest: no list here grows with the areas.
 */
// biome-ignore lint/suspicious/noEmptyInterface: areas add their settings by declaration merging.
export interface AreaSettings {}
const areaSettings: Record<string, z.ZodType> = {};

/** Declares an area's settings (names in capitals, read from the environment, checked at start). */
export function defineSettings<S extends Record<string, z.ZodType>>(shape: S): S {
  for (const name of Object.keys(shape)) if (name in schema.shape || name in areaSettings) throw new Error(`The setting ${name} is defined twice`);
  Object.assign(areaSettings, shape);
  return shape;
}

export type Config = z.infer<typeof schema> &
  AreaSettings & {
    simulator: boolean;
    demo: boolean;
    dataDir: string;
    webDist: string;
    publicUrl: string;
    /** The organisation whose administrators may import market prices through the API; none: the command line only. */
    marketImportOrganisation: string | null;
    billingOperatorOrganisation: string | null;
    /** The VTN the console is a VEN of, when OPENADR_VTN_URL is set. */
    openadrVtn: { url: string; clientId: string; clientSecret: string; organisation: string; venName: string | null; pollS: number } | null;
  };

/** Reads and validates the settings; a bad value throws an error naming the setting. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // The areas' settings are typed by AreaSettings; parsed, they join the platform's.
  const all = schema.extend(areaSettings) as unknown as typeof schema;
  const known = Object.fromEntries(Object.keys(all.shape).map((k) => [k, env[k] === '' ? undefined : env[k]]));
  const parsed = all.safeParse(known);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid setting:\n${lines.join('\n')}`);
  }
  const c = parsed.data as z.infer<typeof schema> & AreaSettings;
  const demo = c.DEMO ?? !c.DATABASE_URL;
  const venOrganisation = c.OPENADR_VEN_ORGANISATION ?? (demo ? DEMO_ORGANISATIONS[0].name : undefined);
  if (c.OPENADR_VTN_URL) {
    const missing = [
      ['OPENADR_CLIENT_ID', c.OPENADR_CLIENT_ID],
      ['OPENADR_CLIENT_SECRET', c.OPENADR_CLIENT_SECRET],
      ['OPENADR_VEN_ORGANISATION', venOrganisation],
    ].filter(([, v]) => v === undefined);
    if (missing.length) throw new Error(`Invalid setting:\n${missing.map(([k]) => `  ${k}: is required when OPENADR_VTN_URL is set`).join('\n')}`);
  }
  return {
    ...c,
    demo: c.DEMO ?? !c.DATABASE_URL,
    // Prices are every organisation's: in the demo the retailer runs the deployment.
    marketImportOrganisation: c.MARKET_IMPORT_ORGANISATION ?? ((c.DEMO ?? !c.DATABASE_URL) ? DEMO_ORGANISATIONS[0].name : null),
    billingOperatorOrganisation:
      c.BILLING_OPERATOR_ORGANISATION ?? c.MARKET_IMPORT_ORGANISATION ?? ((c.DEMO ?? !c.DATABASE_URL) ? DEMO_ORGANISATIONS[0].name : null),
    simulator: c.SIMULATOR ?? c.DEMO ?? !c.DATABASE_URL,
    dataDir: path.resolve(c.DATA_DIR),
    webDist: path.resolve(c.WEB_DIST ?? path.join(import.meta.dirname, '../../web/dist')),
    // Links in e-mails point here.
    publicUrl: (c.PUBLIC_URL ?? `http://localhost:${c.PORT}`).replace(/\/+$/, ''),
    openadrVtn:
      c.OPENADR_VTN_URL && c.OPENADR_CLIENT_ID && c.OPENADR_CLIENT_SECRET && venOrganisation
        ? {
            url: c.OPENADR_VTN_URL.replace(/\/+$/, ''),
            clientId: c.OPENADR_CLIENT_ID,
            clientSecret: c.OPENADR_CLIENT_SECRET,
            organisation: venOrganisation,
            venName: c.OPENADR_VEN_NAME ?? null,
            pollS: c.OPENADR_POLL_S,
          }
        : null,
  };
}
