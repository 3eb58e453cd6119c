import path from 'node:path';
import { z } from 'zod';
import { CRASH_POINT_FORM } from './platform/crash-points.ts';

/** The exit code of a start whose PORT is taken (EADDRINUSE): a test that chose the port picks another and starts again. */
export const PORT_TAKEN_EXIT = 98;

/** A true/false setting (true, false, 1 or 0). */
export const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');
const port = z.coerce.number().int().min(0).max(65535);
/** A positive whole number of seconds (or of anything else counted from 1). */
export const seconds = z.coerce.number().int().positive();

/** Every setting, read from the environment once; the README's table lists the same names. */
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
  /** The fleet's rare connectivity outages (about one day in forty a unit is out for one to six hours); false builds a fleet without them. */
  SIM_OUTAGES: bool.default(true),
  /** The share of each simulated battery its household keeps as backup (self-consumption stops there; dispatches may use it down to their own reserve). */
  SIM_BACKUP_RESERVE: z.coerce.number().min(0).max(0.9).default(0.2),
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
 * with the rest: no list here grows with the areas. A value the area works out from settings (its
 * own, the platform's, another area's) is the `derive` beside them, typed in AreaSettings too.
 */
// biome-ignore lint/suspicious/noEmptyInterface: areas add their settings by declaration merging.
export interface AreaSettings {}
const areaSettings: Record<string, z.ZodType> = {};
const derivations: ((c: Config) => object)[] = [];

/**
 * Declares an area's settings (names in capitals, read from the environment, checked at start) and
 * what it derives from the settings once they are read (a bad combination throws, naming them).
 */
export function defineSettings<S extends Record<string, z.ZodType>>(shape: S, derive?: (c: Config) => Partial<AreaSettings>): S {
  for (const name of Object.keys(shape)) if (name in schema.shape || name in areaSettings) throw new Error(`The setting ${name} is defined twice`);
  Object.assign(areaSettings, shape);
  if (derive) derivations.push(derive);
  return shape;
}

export type Config = z.infer<typeof schema> &
  AreaSettings & {
    simulator: boolean;
    demo: boolean;
    dataDir: string;
    webDist: string;
    publicUrl: string;
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
  const config: Config = {
    ...c,
    demo: c.DEMO ?? !c.DATABASE_URL,
    simulator: c.SIMULATOR ?? c.DEMO ?? !c.DATABASE_URL,
    dataDir: path.resolve(c.DATA_DIR),
    webDist: path.resolve(c.WEB_DIST ?? path.join(import.meta.dirname, '../../web/dist')),
    // Links in e-mails point here.
    publicUrl: (c.PUBLIC_URL ?? `http://localhost:${c.PORT}`).replace(/\/+$/, ''),
  };
  for (const derive of derivations) Object.assign(config, derive(config));
  return config;
}
