import { z } from 'zod';
import { okReply } from '../api/envelope.ts';
import { idResources, MAX_ID, pagingFields } from '../api/inputs.ts';
import { BILLING_EVENT_KINDS } from '../billing/schemas.ts';
import { planSchema } from '../plans/schemas.ts';

/** What a home can take part in (spec 3 §2.8), derived from its hardware and its customer agreement. */
export const CAPABILITIES = ['BATTERY_DISPATCH', 'FEED_IN_CURTAILMENT', 'GRID_OUTAGE_PREPARATION', 'SUBMETER_DATA'] as const;
export type Capability = (typeof CAPABILITIES)[number];
export const CAPABILITY_LABELS: Record<Capability, string> = {
  BATTERY_DISPATCH: 'Battery dispatch',
  FEED_IN_CURTAILMENT: 'Feed-in curtailment',
  GRID_OUTAGE_PREPARATION: 'Grid outage preparation',
  SUBMETER_DATA: 'Submeter data',
};
/** The Capabilities filter's value for customers without any capability (the warning banner's list). */
export const NO_CAPABILITIES = 'NONE';

/** Installation status of the customer's system, from its node. */
export const INSTALLATION_STATUSES = ['COMMISSIONED', 'AWAITING_CONTACT', 'NOT_COMMISSIONED'] as const;
export type InstallationStatus = (typeof INSTALLATION_STATUSES)[number];

/**
 * A customer's id in a path is its NMI (the web routes name customers by NMI: /customers/manage/{nmi}):
 * 10 characters, or 11 with the check digit.
 */
const nmiMessage = 'The customer id must be an NMI: 10 or 11 letters and digits.';
export const customerNmi = z.string({ error: nmiMessage }).regex(/^[A-Za-z0-9]{10,11}$/, nmiMessage);
idResources.add(customerNmi, { resource: 'customer' });
export const customerIdParams = z.object({ id: customerNmi });

const blankIsMissing = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const capabilitiesMessage = `capabilities must be a comma-separated list of ${[...CAPABILITIES, NO_CAPABILITIES].join(', ')}.`;

/** `GET /contracts/customer` (spec 3 §2.8): search on NMI or address, Tariff (retailers only), Capabilities, paging. */
export const customerListQuery = z.object({
  search: z.string().max(200, 'search must be at most 200 characters.').optional(),
  /** A plan uid: its current customers (retailers only). */
  tariff: z.preprocess(
    blankIsMissing,
    z.coerce
      .number({ error: `tariff must be a plan uid from 1 to ${MAX_ID}.` })
      .int(`tariff must be a plan uid from 1 to ${MAX_ID}.`)
      .min(1, `tariff must be a plan uid from 1 to ${MAX_ID}.`)
      .max(MAX_ID, `tariff must be a plan uid from 1 to ${MAX_ID}.`)
      .optional(),
  ),
  /** Customers holding every capability listed now; NONE alone for those holding none. */
  capabilities: z.preprocess(
    (v) => (typeof v === 'string' ? (v.trim() === '' ? undefined : v.split(',').map((s) => s.trim())) : v),
    z
      .array(z.enum([...CAPABILITIES, NO_CAPABILITIES], { error: capabilitiesMessage }), { error: capabilitiesMessage })
      .max(5, capabilitiesMessage)
      .refine((l) => !l.includes(NO_CAPABILITIES) || l.length === 1, 'NONE cannot be combined with other capabilities.')
      .optional(),
  ),
  ...pagingFields(200),
});
export type CustomerListQuery = z.input<typeof customerListQuery>;

/** The home's distribution network and connection (the Information column: NETWORK organisations only). */
export const customerInformationSchema = z.object({
  network: z.object({ uid: z.string(), name: z.string() }).nullable(),
  region: z.string(),
  phases: z.number(),
  /** kW the inverter can export at most. */
  inverterKw: z.number(),
  solarKw: z.number(),
});

/** A plan a customer holds, as the list and detail name it. */
const tariffRef = z.object({ uid: z.number(), name: z.string(), planCode: z.string(), discount: z.number() });

/** A customer (spec 3 §3.8): one per NMI of the organisation's fleet. */
export const customerSchema = z.object({
  nmi: z.string(),
  /** The node (fleet monitoring's deployment uid). */
  deploymentUid: z.number(),
  streetNumber: z.string(),
  streetName: z.string(),
  city: z.string(),
  state: z.string(),
  postcode: z.string(),
  addressLine1: z.string(),
  addressLine2: z.string(),
  lat: z.number(),
  long: z.number(),
  /** Battery capacity, kWh (0 without a battery). */
  capacity: z.number(),
  /** The inverter's maximum power, kW. */
  maxPower: z.number(),
  agreementVersion: z.number().nullable(),
  /** YYYY-MM-DD the current agreement was signed; null without one. */
  agreementDate: z.string().nullable(),
  installationStatus: z.enum(INSTALLATION_STATUSES),
  /** Capabilities held today. */
  capabilities: z.array(z.enum(CAPABILITIES)),
  /** The current plan's name and discount (RETAILER organisations only; null otherwise or without a plan). */
  tariff: z.object({ name: z.string(), discount: z.number() }).nullable(),
  /** The current plan (RETAILER organisations only). */
  currentTariff: tariffRef.nullable(),
  /** NETWORK organisations only; null for others. */
  information: customerInformationSchema.nullable(),
});
export type Customer = z.infer<typeof customerSchema>;

export const customerListReply = okReply(
  z.object({
    customers: z.array(customerSchema),
    total: z.number(),
    /** Customers of the fleet holding no capability now, whatever the filters (the warning banner). */
    withoutCapabilities: z.number(),
    /** Whether the Retail Plan column and Tariff filter apply (RETAILER), and the Information column (NETWORK). */
    columns: z.object({ retailPlan: z.boolean(), information: z.boolean() }),
  }),
);

/** A capability over time: from startDate to endDate, null while ongoing ('Ongoing'). */
export const capabilityPeriodSchema = z.object({ capability: z.enum(CAPABILITIES), startDate: z.string(), endDate: z.string().nullable() });
export type CapabilityPeriod = z.infer<typeof capabilityPeriodSchema>;

export const customerDetailSchema = customerSchema.extend({
  contracts: z.array(z.object({ contractName: z.string(), startDate: z.string(), endDate: z.string().nullable() })),
  capabilityHistory: z.array(capabilityPeriodSchema),
  timezone: z.string(),
  /** Whether the node has submeters (the sub meter data of the detail). */
  subMeters: z.array(z.object({ id: z.number(), name: z.string() })),
});
export type CustomerDetail = z.infer<typeof customerDetailSchema>;
export const customerDetailReply = okReply(customerDetailSchema);

/** `GET /contracts/customer/{id}/plan`: the plan the customer is on now (null without one), the version applying today. */
export const customerPlanReply = okReply(z.object({ plan: planSchema.nullable(), since: z.string().nullable(), versionStartDate: z.string().nullable() }));

/** One line of a bill: an amount in integer cents (positive a charge, negative a credit), excluding GST. */
export const billLineSchema = z.object({
  kind: z.enum(['USAGE', 'DEMAND', 'DAILY', 'DISCOUNT', 'FEED_IN']),
  label: z.string(),
  quantity: z.number(),
  /** kWh, kW, days or percent. */
  unit: z.enum(['kWh', 'kW', 'days', '%']),
  /** $ per unit, excluding GST ($/kWh, $/kW/day, $/day); for a discount, the percent. */
  rate: z.number(),
  amountCents: z.number().int(),
});
export type BillLine = z.infer<typeof billLineSchema>;

/** A month's bill under a plan, from metered 5-minute import and export in the customer's local time. */
export const billEstimateSchema = z.object({
  /** YYYY-MM. */
  month: z.string(),
  /** The estimate covers [from, to) in epoch seconds: the month, or the month so far. */
  from: z.number(),
  to: z.number(),
  partial: z.boolean(),
  timezone: z.string(),
  /** Share of the 5-minute intervals of [from, to) that had metered data (0 to 1). */
  coverage: z.number(),
  importKwh: z.number(),
  exportKwh: z.number(),
  /** The month's highest 30-minute average import within the demand periods, kW (null without demand rates). */
  peakDemandKw: z.number().nullable(),
  lines: z.array(billLineSchema),
  /** Charges and credits before GST. */
  subtotalCents: z.number().int(),
  /** 10 % of the charges (feed-in credits carry none). */
  gstCents: z.number().int(),
  totalCents: z.number().int(),
  /** The plan versions the month used. */
  versions: z.array(z.string()),
  /**
   * The grid credits of the same intervals, beside the retail lines (docs/settlement.md): each settled
   * event's credit to this customer on a local day of the estimate. `event` names it ('Dispatch 52');
   * `amount` kWh the battery gave (negative: it charged), `rate` $/kWh, `cents` the credit (≥ 0).
   */
  gridCredits: z.array(
    z.object({
      event: z.string(),
      eventKind: z.enum(BILLING_EVENT_KINDS),
      eventId: z.number(),
      day: z.string(),
      type: z.string(),
      amount: z.number(),
      rate: z.number(),
      cents: z.number().int(),
    }),
  ),
  /** Their sum, cents: credited apart from the bill, outside GST. */
  gridCreditCents: z.number().int(),
  /** totalCents less gridCreditCents: what the customer pays for the month once credited. */
  netCents: z.number().int(),
});
export type BillEstimate = z.infer<typeof billEstimateSchema>;

/** The bill estimate of the customer detail: the current month so far and the last month, under the customer's plan. */
export const billEstimateReply = okReply(
  z.object({
    plan: z.object({ uid: z.number(), name: z.string(), planCode: z.string() }).nullable(),
    current: billEstimateSchema.nullable(),
    last: billEstimateSchema.nullable(),
  }),
);
