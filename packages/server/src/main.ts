import { buildApp } from './app.ts';
import { loadConfig, PORT_TAKEN_EXIT } from './config.ts';
import { openDatabase, setClock } from './db/database.ts';
import { type FleetHistory, startFleet } from './demo/fleet.ts';
import { demoHistory } from './demo-history.ts';
import { BrokerPortTaken, type DeviceLink, startDevices } from './devices/index.ts';
import { seedDemoInvoices } from './features/billing/index.ts';
import { enrolDemoCustomers } from './features/customers/index.ts';
import { FEATURES, seedDemo } from './features/index.ts';
import { nodeReports } from './features/nodes/index.ts';
import { createContext } from './platform/context.ts';
import { armCrashPoint } from './platform/crash-points.ts';
import { createWorker } from './platform/jobs.ts';
import { mailJob } from './platform/mail.ts';

/** Reads the settings, migrates, seeds the demo when in demo mode, and listens. */
async function main() {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (err) {
    console.error((err as Error).message);
    process.exit(1);
  }
  // Only the crash tests set CRASH_AT: the process then kills itself at the point it names.
  armCrashPoint(config.CRASH_AT);
  // Only tests set CLOCK_RATE: the clock (nowS) then runs fast, the same in every process given the same anchor.
  if (config.CLOCK_RATE !== 1) setClock(config.CLOCK_RATE, config.CLOCK_ANCHOR ?? Math.floor(Date.now() / 1000));
  const handle = await openDatabase({ url: config.DATABASE_URL, dataDir: config.dataDir, schema: config.DATABASE_SCHEMA });
  const ctx = await createContext(config, handle.db, handle.dialect);
  if (config.demo) await seedDemo(ctx);
  const app = await buildApp(ctx);
  // Background work (e-mail, digests) from the durable job table; WORKER=false leaves it to other processes.
  const worker = createWorker(ctx, [mailJob, ...FEATURES.flatMap((f) => f.jobs ?? [])], {
    log: app.log,
    leaseS: config.JOB_LEASE_S,
    recurring: FEATURES.flatMap((f) => f.recurring ?? []),
  });
  // The fleet's start, awaited by a stop that comes during it, so that the start never writes to a
  // database the stop has closed.
  let fleet: ReturnType<typeof startFleet> | null = null;
  let devices: DeviceLink | null = null;
  const stop = async () => {
    await (await fleet?.catch(() => null))?.stop();
    await devices?.stop();
    await worker.stop();
    await app.close();
    await handle.close();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  const reports = nodeReports(ctx, (err) => app.log.error({ err }, 'node status notification failed'));
  // The device wire (docs/devices.md): the embedded broker or an external one, ingest and command outbox.
  try {
    devices = await startDevices(ctx, app.log, reports);
  } catch (err) {
    if (!(err instanceof BrokerPortTaken)) throw err;
    console.error(err.message);
    process.exit(1);
  }
  try {
    await app.listen({ port: config.PORT, host: config.HOST });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
    console.error(`Port ${config.PORT} on ${config.HOST} is taken: set PORT to a free port.`);
    process.exit(PORT_TAKEN_EXIT);
  }
  // Jobs start once the port is this process's: a start that cannot listen exits having done no work
  // (a test's retry on another port, or a second console started by mistake on the same data).
  if (config.WORKER) worker.start();
  app.log.info(`Console at http://localhost:${config.PORT} (${handle.dialect}${config.demo ? ', demo' : ''})`);
  if (devices?.port) app.log.info(`Devices connect to mqtt://localhost:${devices.port}`);
  // The simulated fleet: built and backfilled on first start (the console answers meanwhile), then
  // reporting live. SIMULATOR=false turns it off.
  if (config.simulator) {
    // The demo's homes become its organisations' customers as they join (agreements, plans).
    const joined = config.demo
      ? async (ids: readonly number[]) => {
          await reports.joined(ids);
          await enrolDemoCustomers(ctx.db, ids);
        }
      : reports.joined;
    // The demo's past dispatches, ordered as at their time so that the backfilled homes obey them.
    const events = config.demo && config.SIM_DEMO_DISPATCHES ? demoHistory(ctx, app.log) : undefined;
    // Then the platform's invoices of the past months, the history's last step: they count the
    // nodes under management and the dispatches run, so the past events are written first.
    const history: FleetHistory | undefined = config.demo
      ? async (from, to) => [...(events ? await events(from, to) : []), { at: to - (to % 300), act: () => seedDemoInvoices(ctx) }]
      : undefined;
    // The demo's live fleet walks the wire: its devices connect to the embedded broker with their own credentials.
    const host = config.HOST === '0.0.0.0' || config.HOST === '::' ? '127.0.0.1' : config.HOST;
    const wire = config.SIM_WIRE && devices?.port ? { broker: `mqtt://${host.includes(':') ? `[${host}]` : host}:${devices.port}` } : undefined;
    if (config.SIM_WIRE && !wire) app.log.info('The simulated fleet reports directly: no embedded MQTT broker (MQTT_PORT=0 or MQTT_URL)');
    fleet = startFleet(ctx, app.log, { ...reports, joined }, history, wire);
    await fleet;
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
