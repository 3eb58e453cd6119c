// Commissions the first N nodes of the console's fleet as devices of a simulated fleet that runs as
// its own process (docs/devices.md, "The simulated fleet"):
//   npm run fleet:commission -- --nodes 50 [--out fleet-credentials.json]
// Each node gets a new device credential (the console keeps only its hash; an earlier secret stops
// working); the file holds the secrets in clear with what the devices know of their homes, for
// `npm run fleet` to read. Keep it as secret as a password file.
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/database.ts';
import { commissionFleet } from '../devices/index.ts';

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

const { values } = parseArgs({ options: { nodes: { type: 'string' }, out: { type: 'string', default: 'fleet-credentials.json' } } });
const count = Number(values.nodes);
if (!Number.isInteger(count) || count < 1) fail('Give --nodes N (a whole number of at least 1).');
const config = loadConfig();
const handle = await openDatabase({ url: config.DATABASE_URL, dataDir: config.dataDir, schema: config.DATABASE_SCHEMA });
const identities = await commissionFleet(handle.db, { count });
await handle.close();
if (!identities.devices.length) fail('The console has no commissioned node (start it once with DEMO=true, or commission nodes first).');
fs.writeFileSync(values.out, `${JSON.stringify(identities, null, 1)}\n`, { mode: 0o600 });
console.info(`Commissioned ${identities.devices.length} devices; their credentials are in ${values.out}.`);
