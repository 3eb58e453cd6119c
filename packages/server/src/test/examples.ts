import { buildOrder } from '@vpp/shared/kit-designer/rules';
import type { z } from 'zod';
import { PASSWORD } from './harness.ts';

// Values that satisfy the usual query and body fields of the contracts, so that a generated call
// (the access-control matrix, the input fuzz) gets past validation to the code behind it: the fields
// many areas name alike, and values relative to now. An area's own field brings its example in its
// shared schema (`.meta({ examples: [value] })`, below).

const now = Math.floor(Date.now() / 1000 / 300) * 300;
const EXAMPLE_FIELDS: Record<string, unknown> = {
  metrics: 'solarPower',
  start: String(now - 86400),
  end: String(now),
  interval: '300',
  // Numbers (a query sends them as text): JSON bodies such as a RERT reschedule's take them as numbers.
  startTime: now + 3600,
  duration: 3600,
  realPowerP: -5,
  powerstation: '1',
  delta_t: '300',
  id: '1',
  // A map tile (zoom, column, row) and a heat map hexagon (radius, axial q and r).
  z: '0',
  x: '0',
  y: '0',
  radius: '1000',
  q: '0',
  r: '0',
  siteLabel: 'Cross-organisation label',
  name: 'Cross-organisation name',
  type: 'STATIC',
  givenName: 'Cross',
  surname: 'Organisation',
  email: 'cross.organisation@example.test',
  permissions: [],
  password: Buffer.from(PASSWORD).toString('base64'),
  // The kit designer: a single-phase site with no inverter systems, and the order it gives.
  gridPhases: 1,
  inverterSystems: {},
  design: { gridPhases: 1, inverterSystems: {} },
  order: buildOrder({ gridPhases: 1, inverterSystems: {} }, { inverterTypes: [], batteryTypes: [] }),
  referenceNotes: 'Job 1',
  // An event's message to customers.
  customerMessage: 'Cross-organisation message',
  // Billing: a download token's path.
  path: '/billing/events/csv?start=2025-01-01&end=2025-01-31',
  // Data exports: an operational export of node 1 over the last day (with `type` as above, the body
  // fails its discriminator; each field is still fuzzed on its own).
  params: { start: now - 86400, end: now, queries: ['meter_power'], interval: '5m', deploymentUids: [1] },
  queries: ['meter_power'],
  deploymentUids: [1],
  // A backtest of yesterday and the day before (market days, ended).
  firstDay: new Date((now - 2 * 86400) * 1000).toISOString().slice(0, 10),
  lastDay: new Date((now - 86400) * 1000).toISOString().slice(0, 10),
};

/** The keys a query or body schema names. */
export const keysOf = (schema: z.ZodType | undefined): string[] => {
  // A union of objects (the export's `type` and `params`): the keys of any of its options.
  const options = (schema as { options?: { shape?: object }[] } | undefined)?.options;
  if (options) return [...new Set(options.flatMap((o) => Object.keys(o.shape ?? {})))];
  return Object.keys((schema as { shape?: object } | undefined)?.shape ?? {});
};

/** The fields of a schema (of any of its options, for a union). */
const fieldsOf = (schema: z.ZodType | undefined): Record<string, z.ZodType> => {
  const options = (schema as { options?: { shape?: Record<string, z.ZodType> }[] } | undefined)?.options;
  if (options) return Object.assign({}, ...options.map((o) => o.shape ?? {}));
  return (schema as { shape?: Record<string, z.ZodType> } | undefined)?.shape ?? {};
};

/**
 * A field's own example, from its schema's metadata (`.meta({ examples: [value] })` in the area's
 * shared schemas, which the OpenAPI document shows too), through `.optional()` and the like: a new
 * area's fields bring their examples, with nothing to add here.
 */
function metaExample(field: z.ZodType | undefined): { value: unknown } | undefined {
  for (let f = field; f; f = (f as { unwrap?: () => z.ZodType }).unwrap?.()) {
    const examples = (f.meta?.() as { examples?: unknown } | undefined)?.examples;
    if (Array.isArray(examples) && examples.length) return { value: examples[0] };
    if (typeof (f as { unwrap?: unknown }).unwrap !== 'function') break;
  }
  return undefined;
}

/** The example's fields that a schema names: the usual ones above, else the field's own example. */
export const exampleFor = (schema: z.ZodType | undefined): Record<string, unknown> => {
  const fields = fieldsOf(schema);
  return Object.fromEntries(
    keysOf(schema).flatMap((k) => {
      if (k in EXAMPLE_FIELDS) return [[k, EXAMPLE_FIELDS[k]]];
      const own = metaExample(fields[k]);
      return own ? [[k, own.value]] : [];
    }),
  );
};
