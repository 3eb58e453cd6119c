import type { Database } from '../../db/database.ts';
import { createPowerstation, insertDuidUnits } from './vpps.repo.ts';

/** Serial number of the n-th unit the simulated fleet builds (see demo/builder.ts). */
const serialOf = (n: number) => `RP${20000000 + n}`;

/**
 * The demo's VPPs: for the retailer two FCAS VPPs, whose units are registered under their DUIDs
 * by serial number (so they join as the simulated fleet is built), and two automatic ones; for the
 * network one by state. Manual VPPs are left for the user to build.
 */
export async function seedDemoVpps(db: Database, orgs: { retailer?: number; network?: number }) {
  if (orgs.retailer !== undefined) {
    const fcas = [
      { name: 'FCAS Contingency Raise', duid: 'SUNVPP1R', every: 6, from: 1 },
      { name: 'FCAS Contingency Lower', duid: 'SUNVPP1L', every: 9, from: 4 },
    ];
    for (const f of fcas) {
      await createPowerstation(db, orgs.retailer, { name: f.name, type: 'FCAS', state: null, postcodes: [], duid: f.duid });
      const serials = [];
      for (let n = f.from; n <= 300; n += f.every) serials.push({ duid: f.duid, serial_number: serialOf(n) });
      await insertDuidUnits(db, serials);
    }
    await createPowerstation(db, orgs.retailer, {
      name: 'Greater Sydney',
      type: 'DYNAMIC',
      state: null,
      postcodes: ['2026', '2042', '2067', '2077', '2148', '2154', '2750'],
    });
    await createPowerstation(db, orgs.retailer, { name: 'Queensland', type: 'DYNAMIC', state: 'QLD', postcodes: [] });
  }
  if (orgs.network !== undefined) await createPowerstation(db, orgs.network, { name: 'NSW Network Support', type: 'DYNAMIC', state: 'NSW', postcodes: [] });
}
