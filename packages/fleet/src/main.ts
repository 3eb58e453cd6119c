// The simulated fleet as its own process (docs/devices.md, "The simulated fleet"):
//   npm run fleet:commission -- --nodes 50            (on the console's side: credentials into fleet-credentials.json)
//   npm run fleet -- --nodes 50 --broker mqtt://localhost:1883
// It reads only its identities file and speaks only MQTT; FLEET_INTERVAL_S sets the report interval (30 s).
import { parseArgs } from 'node:util';
import { readIdentities, runFleet } from './fleet.ts';

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

const { values } = parseArgs({
  options: {
    nodes: { type: 'string' },
    broker: { type: 'string' },
    credentials: { type: 'string', default: process.env.FLEET_CREDENTIALS ?? 'fleet-credentials.json' },
  },
});
if (!values.broker || !/^mqtts?:\/\//.test(values.broker)) fail('Give --broker mqtt://host:port (the console names its broker in its log).');
const intervalS = Number(process.env.FLEET_INTERVAL_S ?? 30);
if (!Number.isInteger(intervalS) || intervalS < 1 || intervalS > 3600) fail('FLEET_INTERVAL_S must be a whole number of seconds from 1 to 3600.');
let devices: ReturnType<typeof readIdentities>;
try {
  devices = readIdentities(values.credentials);
} catch (err) {
  fail((err as Error).message);
}
const count = values.nodes === undefined ? devices.length : Number(values.nodes);
if (!Number.isInteger(count) || count < 1) fail('--nodes must be a whole number of at least 1.');
if (count > devices.length) fail(`--nodes ${count}: ${values.credentials} holds ${devices.length} devices (commission more with npm run fleet:commission).`);

const log = { info: (m: string) => console.info(m), warn: (m: string) => console.warn(m) };
const fleet = runFleet({ devices: devices.slice(0, count), broker: values.broker, intervalS, log });
log.info(`Fleet of ${count} devices reporting every ${intervalS} s to ${values.broker.replace(/\/\/[^@/]*@/, '//')}`);
const status = setInterval(() => {
  const online = fleet.devices.filter((d) => d.connected).length;
  const kept = fleet.devices.reduce((a, d) => a + d.buffer.length, 0);
  log.info(`${online} of ${count} devices connected${kept ? `, ${kept} readings kept for the broker's return` : ''}`);
}, 60_000);
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => {
    clearInterval(status);
    void fleet.stop().then(() => process.exit(0));
  });
