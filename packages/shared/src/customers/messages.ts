/** The exact customer texts of spec 3 §2.8 and §8 that server and browser share. */
export const CUSTOMER_MESSAGES = {
  empty: 'No customers have been found for this search criteria',
  detailFailed: 'Unable to fetch customer details.',
  planFailed: 'Unable to fetch customer plan.',
  subMeterFailed: 'Failed to load customer sub meter data.',
  ongoing: 'Ongoing',
  viewPlanDetails: 'View Plan Details',

  // Ours: the spec names the banner, the bill estimate and these refusals without giving their words.
  /** The warning banner of the customer list (spec 3 §2.8), with the count of customers it is about. */
  noCapabilitiesBanner: (n: number) =>
    n === 1 ? '1 customer has no capabilities: it cannot take part in any event.' : `${n} customers have no capabilities: they cannot take part in any event.`,
  notFound: 'No such customer in your fleet.',
  tariffFilterRetailerOnly: 'The Tariff filter is for retailers only.',
  planRetailerOnly: 'Only a retailer holds the plans of its customers.',
  noPlan: 'This customer is not on a plan.',
  billFailed: 'Unable to fetch the bill estimate.',
  billNoData: 'There is no metered data for this month yet.',
  noGridCredits: 'No settled event credited this customer in these days.',
  /** Issue 33 item 8: a home in WA or NT, in the list's Retail Plan column (the reason on hover and on its page). */
  outsideNem: 'Outside the NEM: no retail plan',
  planNetworkMismatch: (plan: string, network: string) => `The plan is for ${plan}, but this customer is on ${network}.`,
} as const;
