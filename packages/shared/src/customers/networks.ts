import type { AustralianState } from '../constants.ts';

/** A distribution network (DNSP): the uid plans name it by, the states it serves and its NMI prefixes (AEMO's allocation). */
export interface OperationalNetwork {
  uid: string;
  name: string;
  states: readonly AustralianState[];
  nmiPrefixes: readonly string[];
}

/**
 * The distribution networks of the NEM and beyond (Western Power in the WEM, Power and Water in the
 * NT), with the NMI prefixes AEMO allocates to each. Numeric prefixes repeat across states (8000 is
 * TasNetworks), so a node's network follows from its NMI's prefix and its state together.
 */
export const OPERATIONAL_NETWORKS: readonly OperationalNetwork[] = [
  { uid: 'ausgrid', name: 'Ausgrid', states: ['NSW'], nmiPrefixes: ['NCCC', '4102', '4103', '4104'] },
  { uid: 'endeavour-energy', name: 'Endeavour Energy', states: ['NSW'], nmiPrefixes: ['NEEE', '4310'] },
  { uid: 'essential-energy', name: 'Essential Energy', states: ['NSW'], nmiPrefixes: ['NAAA', 'NBBB', 'NDDD', 'NFFF', '4001', '4204', '4407', '4508'] },
  { uid: 'evoenergy', name: 'Evoenergy', states: ['ACT'], nmiPrefixes: ['NGGG', '7001'] },
  { uid: 'energex', name: 'Energex', states: ['QLD'], nmiPrefixes: ['QB', '31'] },
  { uid: 'ergon-energy', name: 'Ergon Energy', states: ['QLD'], nmiPrefixes: ['QAAA', 'QCCC', 'QDDD', 'QEEE', 'QFFF', 'QGGG', '30'] },
  { uid: 'sa-power-networks', name: 'SA Power Networks', states: ['SA'], nmiPrefixes: ['SAAA', '2001', '2002'] },
  { uid: 'citipower', name: 'CitiPower', states: ['VIC'], nmiPrefixes: ['VAAA', '6102', '6103'] },
  { uid: 'powercor', name: 'Powercor', states: ['VIC'], nmiPrefixes: ['VCCC', '6203', '6204'] },
  { uid: 'jemena', name: 'Jemena', states: ['VIC'], nmiPrefixes: ['VDDD', '6001'] },
  { uid: 'ausnet-services', name: 'AusNet Services', states: ['VIC'], nmiPrefixes: ['VBBB', '6305', '6306'] },
  { uid: 'united-energy', name: 'United Energy', states: ['VIC'], nmiPrefixes: ['VEEE', '6407', '6408'] },
  { uid: 'tasnetworks', name: 'TasNetworks', states: ['TAS'], nmiPrefixes: ['T000', '8000', '8590'] },
  { uid: 'western-power', name: 'Western Power', states: ['WA'], nmiPrefixes: ['WAAA', '8001', '8002'] },
  { uid: 'power-and-water', name: 'Power and Water', states: ['NT'], nmiPrefixes: ['250'] },
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
