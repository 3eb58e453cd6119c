import type { AustralianState } from '../constants.ts';

/** A distribution network (DNSP): the uid plans name it by, the states it serves and its NMI prefixes (AEMO's allocation). */
export interface OperationalNetwork {
  uid: string;
  name: string;
  states: readonly AustralianState[];
  nmiPrefixes: readonly string[];
  /** The wholesale market its homes are in: the NEM, or WA's WEM (the SWIS) or the Northern Territory's own. */
  market: 'NEM' | 'WEM' | 'NT';
}

/**
 * The distribution networks of the NEM and beyond (Western Power in the WEM, Power and Water in the
 * NT), with the NMI prefixes AEMO allocates to each. Numeric prefixes repeat across states (8000 is
 * TasNetworks), so a node's network follows from its NMI's prefix and its state together.
 */
export const OPERATIONAL_NETWORKS: readonly OperationalNetwork[] = [
  { uid: 'ausgrid', name: 'Ausgrid', states: ['NSW'], nmiPrefixes: ['NCCC', '4102', '4103', '4104'], market: 'NEM' },
  { uid: 'endeavour-energy', name: 'Endeavour Energy', states: ['NSW'], nmiPrefixes: ['NEEE', '4310'], market: 'NEM' },
  {
    uid: 'essential-energy',
    name: 'Essential Energy',
    states: ['NSW'],
    nmiPrefixes: ['NAAA', 'NBBB', 'NDDD', 'NFFF', '4001', '4204', '4407', '4508'],
    market: 'NEM',
  },
  { uid: 'evoenergy', name: 'Evoenergy', states: ['ACT'], nmiPrefixes: ['NGGG', '7001'], market: 'NEM' },
  { uid: 'energex', name: 'Energex', states: ['QLD'], nmiPrefixes: ['QB', '31'], market: 'NEM' },
  { uid: 'ergon-energy', name: 'Ergon Energy', states: ['QLD'], nmiPrefixes: ['QAAA', 'QCCC', 'QDDD', 'QEEE', 'QFFF', 'QGGG', '30'], market: 'NEM' },
  { uid: 'sa-power-networks', name: 'SA Power Networks', states: ['SA'], nmiPrefixes: ['SAAA', '2001', '2002'], market: 'NEM' },
  { uid: 'citipower', name: 'CitiPower', states: ['VIC'], nmiPrefixes: ['VAAA', '6102', '6103'], market: 'NEM' },
  { uid: 'powercor', name: 'Powercor', states: ['VIC'], nmiPrefixes: ['VCCC', '6203', '6204'], market: 'NEM' },
  { uid: 'jemena', name: 'Jemena', states: ['VIC'], nmiPrefixes: ['VDDD', '6001'], market: 'NEM' },
  { uid: 'ausnet-services', name: 'AusNet Services', states: ['VIC'], nmiPrefixes: ['VBBB', '6305', '6306'], market: 'NEM' },
  { uid: 'united-energy', name: 'United Energy', states: ['VIC'], nmiPrefixes: ['VEEE', '6407', '6408'], market: 'NEM' },
  { uid: 'tasnetworks', name: 'TasNetworks', states: ['TAS'], nmiPrefixes: ['T000', '8000', '8590'], market: 'NEM' },
  { uid: 'western-power', name: 'Western Power', states: ['WA'], nmiPrefixes: ['WAAA', '8001', '8002'], market: 'WEM' },
  { uid: 'power-and-water', name: 'Power and Water', states: ['NT'], nmiPrefixes: ['250'], market: 'NT' },
];

const BY_UID = new Map(OPERATIONAL_NETWORKS.map((n) => [n.uid, n]));

/** The network of a uid, or undefined. */
export const operationalNetwork = (uid: string): OperationalNetwork | undefined => BY_UID.get(uid);

/**
 * The distribution network of an NMI in a state: the longest allocated prefix among the state's
 * networks; failing that, the state's only network (ACT, SA, TAS, WA, NT); otherwise null.
 */
export function networkOfNmi(nmi: string, state: string): OperationalNetwork | null {
  const upper = nmi.toUpperCase();
  let best: { network: OperationalNetwork; length: number } | null = null;
  const inState = OPERATIONAL_NETWORKS.filter((n) => (n.states as readonly string[]).includes(state));
  for (const network of inState)
    for (const prefix of network.nmiPrefixes) if (upper.startsWith(prefix) && (!best || prefix.length > best.length)) best = { network, length: prefix.length };
  if (best) return best.network;
  return inState.length === 1 ? inState[0] : null;
}

/**
 * Why a network's homes are not offered NEM retail plans or priced for NEM dispatch (issue 33 item 8),
 * or null for a network in the NEM. Western Power runs WA's South West Interconnected System, whose
 * households are Synergy's customers under the Wholesale Electricity Market; Power and Water's
 * networks are in the Northern Territory, which has its own market.
 */
export const OUTSIDE_NEM_REASONS: Record<'WEM' | 'NT', (name: string) => string> = {
  WEM: (name) =>
    `${name} is not in the NEM: its network is Western Australia's South West Interconnected System (SWIS), whose households are Synergy's customers under the Wholesale Electricity Market, so its homes are not offered NEM retail plans or priced for NEM dispatch.`,
  NT: (name) =>
    `${name} is not in the NEM: the Northern Territory's networks have a market of their own, so its homes are not offered NEM retail plans or priced for NEM dispatch.`,
};

export const outsideNem = (network: Pick<OperationalNetwork, 'name' | 'market'>): string | null =>
  network.market === 'NEM' ? null : OUTSIDE_NEM_REASONS[network.market](network.name);
