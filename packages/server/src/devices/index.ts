import os from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../platform/context.ts';
import { defineJob } from '../platform/jobs.ts';
import type { FeatureModule } from '../platform/module.ts';
import { type EmbeddedBroker, startEmbeddedBroker } from './devices.broker.ts';
import { DeviceIngest } from './devices.ingest.ts';
import { connectExternal, type ExternalLink } from './devices.link.ts';
import { CommandOutbox } from './devices.outbox.ts';
import * as repo from './devices.repo.ts';
import type { FleetReports } from './devices.reports.ts';
import { embeddedBrokers, verifyDevice } from './devices.service.ts';

export { BrokerPortTaken } from './devices.broker.ts';
export { commandResponses, ordersOver } from './devices.commands.repo.ts';
export {
  type CommandSpec,
  cancelCommands,
  commandSpec,
  endCommands,
  followedWindows,
  type NewCommand,
  netExportCaps,
  PRECEDENCE,
  precededSeconds,
  sendCommands,
} from './devices.commands.ts';
export { RESEND_S, toControl } from './devices.outbox.ts';
export { credentialedNodeIds, saveCredential } from './devices.repo.ts';
export type { ConnectivityChange, FleetReports, UnitContact } from './devices.reports.ts';
export {
  commissionDemoFleet,
  commissionFleet,
  type DeviceNode,
  hashSecret,
  issueCredential,
  newSecret,
  nodeDevice,
} from './devices.service.ts';

/**
 * Forgets, every hour, the sequence numbers older than raw retention (and an hour): they guard
 * nothing, such a reading is refused as too old. A recurring job: one run an hour across the
 * console processes.
 */
const pruneSequencesJob = defineJob('devices.prune-sequences', z.object({ at: z.number().int() }), async (ctx, { at }) => {
  await repo.pruneSequences(ctx.db, at - ctx.config.TELEMETRY_RAW_RETENTION_DAYS * 86400 - 3600);
});

/**
 * Devices on the wire: the upkeep of their records. A node's device and its credential are served
 * by the nodes area (its node page), which finds the node for the caller and asks here.
 */
export const devicesModule: FeatureModule = {
  name: 'devices',
  jobs: [pruneSequencesJob],
  recurring: [{ kind: pruneSequencesJob.kind, periodS: 3600 }],
};

export interface DeviceLink {
  ingest: DeviceIngest;
  outbox: CommandOutbox;
  /** The embedded broker's port (null on an external broker). */
  port: number | null;
  /** Whether devices' messages reach this console now: always on the embedded broker; on an external one, while connected and subscribed. */
  listening(): boolean;
  stop(): Promise<void>;
}

/**
 * Starts the console's side of the device wire: the embedded broker (MQTT_PORT) or a connection to
 * an external one (MQTT_URL), the ingest of what devices publish and the command outbox. Returns
 * null when MQTT_PORT is 0 and no MQTT_URL is set. Throws BrokerPortTaken when MQTT_PORT is taken.
 */
export async function startDevices(
  ctx: AppContext,
  log: FastifyBaseLogger,
  reports: FleetReports,
  opts: { outboxEveryMs?: number; clientId?: string } = {},
): Promise<DeviceLink | null> {
  const { MQTT_URL, MQTT_PORT, HOST, PORT } = ctx.config;
  if (!MQTT_URL && MQTT_PORT === 0) return null;
  let outbox: CommandOutbox | null = null;
  const ingest = new DeviceIngest(ctx, log, reports, {
    back: () => outbox?.soon(),
    ack: (nodeId, ack) => (outbox as CommandOutbox).ack(nodeId, ack as Parameters<CommandOutbox['ack']>[1]),
  });
  let broker: EmbeddedBroker | null = null;
  let external: ExternalLink | null = null;
  if (MQTT_URL) {
    external = await connectExternal(MQTT_URL, {
      log,
      clientId: opts.clientId ?? `vpp-console-${os.hostname()}-${PORT}`,
      shareGroup: ctx.config.MQTT_SHARE_GROUP,
      handle: (serial, kind, payload) => ingest.handle(serial, kind, payload),
    });
  } else {
    broker = await startEmbeddedBroker({
      host: HOST,
      port: MQTT_PORT,
      log,
      verify: async (username, password) => ((await verifyDevice(ctx, username, password)) ? { kind: 'device', serial: username } : null),
      fromDevice: (serial, kind, payload) => ingest.handle(serial, kind, payload),
      refused(serial, clientId, topic, what) {
        log.warn({ serial, clientId, topic }, `MQTT ${what} refused: a device may use only its own topics`);
        if (!serial) return;
        void ingest
          .node(serial)
          .then((node) => node && ingest.refuse(node, `Refused a ${what} on another device's topic ${topic}.`))
          .catch((err) => log.error({ err }, 'device refusal could not be recorded'));
      },
    });
    ctx.deviceBroker = { url: null, port: broker.port };
    embeddedBrokers.set(ctx, broker);
  }
  const link = broker ?? (external as ExternalLink);
  outbox = new CommandOutbox(ctx.db, (topic, payload) => link.publish(topic, payload), log, ctx.dialect);
  outbox.start(opts.outboxEveryMs);
  // The rate limit's dropped counts reach the nodes' records even while no reading is stored.
  const upkeep = setInterval(() => void ingest.drain().catch((err) => log.error({ err }, 'device ingest upkeep failed')), 5000);
  return {
    ingest,
    outbox,
    port: broker?.port ?? null,
    listening: () => external?.subscribed ?? true,
    async stop() {
      clearInterval(upkeep);
      outbox?.stop();
      await link.close();
      await ingest.drain();
    },
  };
}
