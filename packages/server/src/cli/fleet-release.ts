// Takes nodes out of an organisation's fleet (issue 33 item 6; docs/settlement.md, "The platform's invoices"):
//   npm run fleet:release -- --organisation "Sunrise Energy" --serial RPT0000012 [--serial …]
// Their fleet stays, and their stays in the organisation's manual VPPs, close now: a later month's
// invoice no longer counts them, a past month's still does. Nothing changes when the organisation is
// unknown or a serial is not in its fleet.
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/database.ts';
import { releaseNodes } from '../features/vpps/index.ts';

const { values } = parseArgs({ options: { organisation: { type: 'string' }, serial: { type: 'string', multiple: true } } });
if (!values.organisation || !values.serial?.length) {
  console.error('Give --organisation NAME and one --serial SERIAL or more.');
  process.exit(1);
}
const config = loadConfig();
const handle = await openDatabase({ url: config.DATABASE_URL, dataDir: config.dataDir, schema: config.DATABASE_SCHEMA });
try {
  const released = await releaseNodes(handle.db, values.organisation, values.serial);
  console.info(`Released ${released.length} nodes from ${values.organisation}'s fleet.`);
} catch (e) {
  console.error((e as Error).message);
  process.exitCode = 1;
} finally {
  await handle.close();
}
