import os from 'node:os';
import { DEVICE_TOPIC_PREFIX, parseDeviceTopic } from '@vpp/shared/devices/schemas';
import type { FastifyBaseLogger } from 'fastify';
import mqtt, { type ISubscriptionMap, type MqttClient } from 'mqtt';

/** The subscriptions' group by default (MQTT_SHARE_GROUP): console processes in one group split the devices' messages between them. */
export const SHARE_GROUP = 'vpp-console';
const MAX_BACKOFF_MS = 30_000;

export interface ExternalLink {
  publish(topic: string, payload: string): Promise<void>;
  close(): Promise<void>;
  client: MqttClient;
  /** True while connected with the subscriptions granted on this connection (false from a disconnection until the next suback). */
  readonly subscribed: boolean;
}

/** Passing this to MQTT.js's message callback skips its acknowledgement: the console sends it itself once the message is handled. */
const ACK_LATER = new Error('acknowledged once handled');

/**
 * The console on an external broker (MQTT_URL: Mosquitto, EMQX, HiveMQ, VerneMQ), with its own
 * credentials from the URL. MQTT 5 with a shared subscription, so that several console processes
 * split the devices; a persistent session named after the host and port, so that messages it had
 * not acknowledged when it stopped come back to it. Each message is acknowledged only once handled
 * (stored or refused). Reconnects with a backoff that doubles up to 30 s.
 */
export async function connectExternal(
  url: string,
  o: {
    log: FastifyBaseLogger;
    clientId?: string;
    shareGroup?: string;
    handle(serial: string, kind: 'telemetry' | 'state' | 'ack', payload: Buffer): Promise<void>;
  },
): Promise<ExternalLink> {
  const clientId = o.clientId ?? `vpp-console-${os.hostname()}-${process.pid}`;
  const client = mqtt.connect(url, {
    clientId,
    protocolVersion: 5,
    clean: false,
    properties: { sessionExpiryInterval: 3600, receiveMaximum: 65_535 },
    reconnectPeriod: 1000,
    connectTimeout: 10_000,
  });
  client.on('connect', () => {
    client.options.reconnectPeriod = 1000;
    o.log.info(`Connected to the MQTT broker as ${clientId}`);
  });
  client.on('reconnect', () => {
    client.options.reconnectPeriod = Math.min(MAX_BACKOFF_MS, (client.options.reconnectPeriod ?? 1000) * 2);
  });
  client.on('offline', () => o.log.warn('The MQTT broker is away: reconnecting'));
  let subscribed = false;
  client.on('close', () => {
    subscribed = false;
  });
  client.on('error', (err) => {
    if (err !== ACK_LATER) o.log.error({ err }, 'MQTT client error');
  });
  /** Messages being handled, not yet acknowledged: a shutdown waits for them. */
  const inFlight = new Set<Promise<void>>();
  client.handleMessage = (packet, callback) => {
    const topic = parseDeviceTopic(packet.topic);
    const kind = topic?.kind;
    const handled = topic && kind && kind !== 'cmd' ? o.handle(topic.serial, kind, packet.payload as Buffer) : Promise.resolve();
    const settled = handled.then(
      () => undefined,
      () => undefined,
    );
    inFlight.add(settled);
    void settled.finally(() => inFlight.delete(settled));
    if (packet.qos === 0) {
      void handled.catch((err: unknown) => o.log.error({ err }, 'device message could not be handled'));
      return callback();
    }
    // MQTT.js handles incoming packets one at a time: holding the callback would hold every device
    // behind this message. The acknowledgement goes out when the message is handled instead; one
    // that fails is never acknowledged, and the broker sends it again.
    handled.then(
      () => (client as unknown as { _sendPacket(p: object): void })._sendPacket({ cmd: 'puback', messageId: packet.messageId, reasonCode: 0 }),
      (err: unknown) => o.log.error({ err }, 'device message could not be handled; the broker will send it again'),
    );
    callback(ACK_LATER);
  };
  const topics = ['telemetry', 'state', 'cmd/ack'].map((k) => `$share/${o.shareGroup ?? SHARE_GROUP}/${DEVICE_TOPIC_PREFIX}/+/${k}`);
  // On every connection, not only the first: Mosquitto 2.0 restores a persistent session after its
  // restart without its shared subscriptions (and MQTT.js subscribes again only to a new session).
  client.on('connect', () => {
    // `resubscribe` makes MQTT.js send topics it believes it holds already.
    const map = { ...Object.fromEntries(topics.map((t) => [t, { qos: 1 as const }])), resubscribe: true } as unknown as ISubscriptionMap;
    client.subscribe(map, (err) => {
      if (err) o.log.error({ err }, 'MQTT subscription failed');
      else subscribed = client.connected;
    });
  });
  await new Promise<void>((resolve, reject) => {
    client.once('connect', () => resolve());
    client.once('error', reject);
  });
  await client.subscribeAsync(topics, { qos: 1 });
  subscribed = client.connected;
  return {
    client,
    get subscribed() {
      return subscribed;
    },
    async publish(topic, payload) {
      await client.publishAsync(topic, payload, { qos: 1 });
    },
    /**
     * A shutdown: takes no more messages, acknowledges those in hand once handled, and ends the
     * session. A broker (Mosquitto) keeps sharing messages with a persistent session that is away:
     * a process stopped for good must not hold its share of the devices until the session expires.
     * (A process killed keeps its session: what it held comes back to it when it starts again.)
     */
    async close() {
      if (client.connected) await client.unsubscribeAsync(topics).catch(() => undefined);
      await Promise.all(inFlight);
      await client.endAsync(false, { properties: { sessionExpiryInterval: 0 } });
    },
  };
}
