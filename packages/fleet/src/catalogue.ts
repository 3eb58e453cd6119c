/**
 * Real Australian suburbs (postcode, approximate centre) with the distribution network that serves
 * each, the NEM region (or the state's own market), and a small catalogue of inverters, batteries
 * and meters modelled on common home systems.
 */
export interface Suburb {
  suburb: string;
  postcode: string;
  state: 'ACT' | 'NSW' | 'NT' | 'QLD' | 'SA' | 'TAS' | 'VIC' | 'WA';
  lat: number;
  lng: number;
  network: string;
}

const s = (suburb: string, postcode: string, state: Suburb['state'], lat: number, lng: number, network: string): Suburb => ({
  suburb,
  postcode,
  state,
  lat,
  lng,
  network,
});

export const SUBURBS: Suburb[] = [
  s('Newtown', '2042', 'NSW', -33.8981, 151.1794, 'Ausgrid'),
  s('Bondi', '2026', 'NSW', -33.8915, 151.2767, 'Ausgrid'),
  s('Chatswood', '2067', 'NSW', -33.7969, 151.1803, 'Ausgrid'),
  s('Hornsby', '2077', 'NSW', -33.7047, 151.0993, 'Ausgrid'),
  s('Merewether', '2291', 'NSW', -32.9481, 151.7435, 'Ausgrid'),
  s('Penrith', '2750', 'NSW', -33.7507, 150.6877, 'Endeavour Energy'),
  s('Blacktown', '2148', 'NSW', -33.7711, 150.9063, 'Endeavour Energy'),
  s('Castle Hill', '2154', 'NSW', -33.7317, 151.0052, 'Endeavour Energy'),
  s('Wollongong', '2500', 'NSW', -34.4278, 150.8931, 'Endeavour Energy'),
  s('Dubbo', '2830', 'NSW', -32.2569, 148.6011, 'Essential Energy'),
  s('Wagga Wagga', '2650', 'NSW', -35.1082, 147.3598, 'Essential Energy'),
  s('Port Macquarie', '2444', 'NSW', -31.4308, 152.9089, 'Essential Energy'),
  s('Albury', '2640', 'NSW', -36.0737, 146.9135, 'Essential Energy'),
  s('Braddon', '2612', 'ACT', -35.2745, 149.1355, 'Evoenergy'),
  s('Belconnen', '2617', 'ACT', -35.2386, 149.0657, 'Evoenergy'),
  s('Tuggeranong', '2900', 'ACT', -35.4244, 149.0888, 'Evoenergy'),
  s('Fitzroy', '3065', 'VIC', -37.7984, 144.9784, 'CitiPower'),
  s('Richmond', '3121', 'VIC', -37.8183, 145.0018, 'CitiPower'),
  s('Box Hill', '3128', 'VIC', -37.8189, 145.1218, 'United Energy'),
  s('Frankston', '3199', 'VIC', -38.1437, 145.1254, 'United Energy'),
  s('Essendon', '3040', 'VIC', -37.7557, 144.9196, 'Jemena'),
  s('Broadmeadows', '3047', 'VIC', -37.6807, 144.9196, 'Jemena'),
  s('Geelong', '3220', 'VIC', -38.1499, 144.3617, 'Powercor'),
  s('Ballarat', '3350', 'VIC', -37.5622, 143.8503, 'Powercor'),
  s('Bendigo', '3550', 'VIC', -36.757, 144.2794, 'Powercor'),
  s('Ringwood', '3134', 'VIC', -37.8158, 145.2294, 'AusNet Services'),
  s('Traralgon', '3844', 'VIC', -38.1953, 146.5415, 'AusNet Services'),
  s('Paddington', '4064', 'QLD', -27.4598, 153.0082, 'Energex'),
  s('Chermside', '4032', 'QLD', -27.3855, 153.0314, 'Energex'),
  s('Springfield Lakes', '4300', 'QLD', -27.6683, 152.9247, 'Energex'),
  s('Southport', '4215', 'QLD', -27.9674, 153.4, 'Energex'),
  s('Maroochydore', '4558', 'QLD', -26.6531, 153.0917, 'Energex'),
  s('Toowoomba', '4350', 'QLD', -27.5598, 151.9507, 'Ergon Energy'),
  s('Townsville', '4810', 'QLD', -19.259, 146.8169, 'Ergon Energy'),
  s('Cairns', '4870', 'QLD', -16.9203, 145.771, 'Ergon Energy'),
  s('Mackay', '4740', 'QLD', -21.1412, 149.1861, 'Ergon Energy'),
  s('Norwood', '5067', 'SA', -34.9213, 138.6306, 'SA Power Networks'),
  s('Glenelg', '5045', 'SA', -34.9807, 138.5153, 'SA Power Networks'),
  s('Salisbury', '5108', 'SA', -34.7585, 138.6418, 'SA Power Networks'),
  s('Mount Barker', '5251', 'SA', -35.0681, 138.8576, 'SA Power Networks'),
  s('Mount Gambier', '5290', 'SA', -37.8284, 140.7804, 'SA Power Networks'),
  s('Sandy Bay', '7005', 'TAS', -42.8979, 147.3241, 'TasNetworks'),
  s('Kingston', '7050', 'TAS', -42.9757, 147.3084, 'TasNetworks'),
  s('Launceston', '7250', 'TAS', -41.4332, 147.1441, 'TasNetworks'),
  s('Devonport', '7310', 'TAS', -41.1771, 146.3516, 'TasNetworks'),
  s('Fremantle', '6160', 'WA', -32.0569, 115.7439, 'Western Power'),
  s('Joondalup', '6027', 'WA', -31.7448, 115.7661, 'Western Power'),
  s('Scarborough', '6019', 'WA', -31.8943, 115.7588, 'Western Power'),
  s('Armadale', '6112', 'WA', -32.1532, 116.0153, 'Western Power'),
  s('Bunbury', '6230', 'WA', -33.3271, 115.6414, 'Western Power'),
  s('Parap', '0820', 'NT', -12.4308, 130.8413, 'Power and Water Corporation'),
  s('Palmerston', '0830', 'NT', -12.48, 130.9833, 'Power and Water Corporation'),
  s('Alice Springs', '0870', 'NT', -23.698, 133.8807, 'Power and Water Corporation'),
];

/** NMI prefixes of each distribution network (the first characters AEMO allocates to it). */
export const NMI_PREFIX: Record<string, string> = {
  Ausgrid: 'NCCC',
  'Endeavour Energy': 'NEEE',
  'Essential Energy': 'NAAA',
  Evoenergy: 'NGGG',
  CitiPower: 'VAAA',
  Powercor: 'VCCC',
  Jemena: 'VDDD',
  'United Energy': 'VEEE',
  'AusNet Services': 'VBBB',
  Energex: 'QB00',
  'Ergon Energy': 'QAAA',
  'SA Power Networks': '2001',
  TasNetworks: '8000',
  'Western Power': '8001',
  'Power and Water Corporation': '2500',
};

/** Market region of each state: the five NEM regions; WA and NT run their own markets. */
export const REGION: Record<Suburb['state'], string> = {
  NSW: 'NSW1',
  ACT: 'NSW1',
  VIC: 'VIC1',
  QLD: 'QLD1',
  SA: 'SA1',
  TAS: 'TAS1',
  WA: 'WEM',
  NT: 'NT',
};

export const TIMEZONE: Record<Suburb['state'], string> = {
  NSW: 'Australia/Sydney',
  ACT: 'Australia/Sydney',
  VIC: 'Australia/Melbourne',
  QLD: 'Australia/Brisbane',
  SA: 'Australia/Adelaide',
  TAS: 'Australia/Hobart',
  WA: 'Australia/Perth',
  NT: 'Australia/Darwin',
};

export const STREETS = [
  'King Street',
  'Queen Street',
  'George Street',
  'Station Road',
  'Church Street',
  'High Street',
  'Victoria Road',
  'Park Avenue',
  'Banksia Crescent',
  'Wattle Grove',
  'Bottlebrush Way',
  'Jacaranda Drive',
  'Ocean Parade',
  'Hill Street',
  'Gum Tree Lane',
  'Kookaburra Close',
  'Waratah Avenue',
  'Acacia Court',
];

export interface InverterModel {
  id: string;
  brand: string;
  name: string;
  kw: number;
  phases: 1 | 3;
  hasWebPortal: boolean;
}
export interface BatteryModel {
  id: string;
  brand: string;
  name: string;
  kwh: number;
  usableKwh: number;
  kw: number;
}

export const INVERTERS: InverterModel[] = [
  { id: 'sungrow-sh5rs', brand: 'Sungrow', name: 'Sungrow SH5.0RS hybrid', kw: 5, phases: 1, hasWebPortal: true },
  { id: 'sungrow-sh10rt', brand: 'Sungrow', name: 'Sungrow SH10RT hybrid', kw: 10, phases: 3, hasWebPortal: true },
  { id: 'fronius-primo-gen24-5', brand: 'Fronius', name: 'Fronius Primo GEN24 5.0 Plus', kw: 5, phases: 1, hasWebPortal: true },
  { id: 'fronius-symo-gen24-10', brand: 'Fronius', name: 'Fronius Symo GEN24 10.0 Plus', kw: 10, phases: 3, hasWebPortal: true },
  { id: 'goodwe-gw6000-eh', brand: 'GoodWe', name: 'GoodWe GW6000-EH', kw: 6, phases: 1, hasWebPortal: false },
  { id: 'selectronic-sp-pro', brand: 'Selectronic', name: 'Selectronic SP PRO 7.5', kw: 7.5, phases: 1, hasWebPortal: true },
  { id: 'alphaess-smile5', brand: 'AlphaESS', name: 'AlphaESS SMILE5', kw: 5, phases: 1, hasWebPortal: false },
];

export const BATTERIES: BatteryModel[] = [
  { id: 'byd-hvm-11', brand: 'BYD', name: 'BYD Battery-Box Premium HVM 11.0', kwh: 11.04, usableKwh: 11.04, kw: 5 },
  { id: 'byd-hvs-7', brand: 'BYD', name: 'BYD Battery-Box Premium HVS 7.7', kwh: 7.68, usableKwh: 7.68, kw: 5 },
  { id: 'sungrow-sbr128', brand: 'Sungrow', name: 'Sungrow SBR128', kwh: 12.8, usableKwh: 12.8, kw: 6.4 },
  { id: 'lg-resu10h', brand: 'LG', name: 'LG RESU10H Prime', kwh: 9.6, usableKwh: 9.6, kw: 5 },
  { id: 'alphaess-smile-b3', brand: 'AlphaESS', name: 'AlphaESS SMILE-B3 Plus', kwh: 10.1, usableKwh: 9.6, kw: 5 },
  { id: 'pylontech-us5000-2', brand: 'Pylontech', name: 'Pylontech US5000 ×2', kwh: 9.6, usableKwh: 9.1, kw: 4.8 },
];

export const METERS = [
  { manufacturer: 'Carlo Gavazzi', model: 'EM24' },
  { manufacturer: 'Eastron', model: 'SDM630' },
  { manufacturer: 'Eastron', model: 'SDM120' },
  { manufacturer: 'Schneider Electric', model: 'iEM3155' },
];

export const SUBMETER_NAMES = ['Pool pump', 'Hot water', 'EV charger', 'Air conditioner', 'Granny flat'];
export const PRODUCTS = ['Reposit Box', 'Reposit Box 3P', 'Reposit Nano'];
