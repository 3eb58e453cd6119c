import net from 'node:net';
import { Readable } from 'node:stream';
import { DEVICE_TOPIC_PREFIX, type DeviceTopicKind, parseDeviceTopic } from '@vpp/shared/devices/schemas';
import { Aedes, type AuthenticateError, type Client } from 'aedes';
import type { FastifyBaseLogger } from 'fastify';

/** Who an MQTT connection is: the console's own service account, or a device by its serial number. */
export type BrokerIdentity = { kind: 'console' } | { kind: 'device'; serial: string };

export interface EmbeddedBrokerOptions {
  host: string;
  /** MQTT_PORT as set (undefined: unset). */
  port: number | undefined;
  log: FastifyBaseLogger;
  /** Checks a connection's username and password. */
  verify(username: string, password: Buffer): Promise<BrokerIdentity | null>;
  /** A device's message on one of its own topics; the broker acknowledges it once this settles. */
  fromDevice(serial: string, kind: Exclude<DeviceTopicKind, 'cmd'>, payload: Buffer): Promise<void>;
  /** A device that published or subscribed outside its own topics. */
  refused(serial: string, clientId: string, topic: string, what: 'publish' | 'subscribe'): void;
}

export interface EmbeddedBroker {
  port: number;
  publish(topic: string, payload: string): Promise<void>;
  /** Closes a device's connections (its credential was rotated: the old secret is no good from now). */
  disconnect(serial: string): void;
  close(): Promise<void>;
}

/** What aedes keeps of a connection's subscriptions, by topic (not in its types). */
type Subscribed = { subscriptions: Record<string, { qos: number } | undefined> };

/** Why the start stops: MQTT_PORT names a port that another program holds. */
export class BrokerPortTaken extends Error {}

/** Connections the kernel holds for the broker before it accepts them (capped by net.core.somaxconn, 4,096 on Debian). */
const ACCEPT_BACKLOG = 8192;

function listen(server: net.Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (err: Error) => reject(err);
    server.once('error', onError);
    // A fleet reconnecting at once knocks thousands of times in a second: Node's default queue of
    // 511 waiting connections overflows, and the devices refused wait out TCP's backoff (1, 3, 7 s…).
    server.listen({ port, host, backlog: ACCEPT_BACKLOG }, () => {
      server.off('error', onError);
      resolve((server.address() as net.AddressInfo).port);
    });
  });
}

/**
 * Retained messages found by topic for a subscription without wildcards. aedes' memory store tests
 * every retained message against each subscription's topic: with every device's `state` retained,
 * each device subscribing to its own `cmd` read them all, so a fleet reconnecting at once cost the
 * square of its size (at 2,000 devices, 2.3 s of the console's CPU; at 18,000, minutes). A topic
 * without `+` or `#` matches only itself: its retained message, if any, is one map lookup away.
 */
function indexRetained(aedes: Aedes) {
  type Retained = { topic: string; payload: Buffer };
  const store = (aedes as unknown as { persistence: unknown }).persistence as {
    storeRetained(packet: Retained, cb?: (err?: Error) => void): unknown;
    createRetainedStreamCombi(patterns: string[]): Readable;
  };
  const retained = new Map<string, Retained>();
  const storeRetained = store.storeRetained.bind(store);
  const combi = store.createRetainedStreamCombi.bind(store);
  store.storeRetained = (packet, cb) => {
    if (packet.payload.length === 0) retained.delete(packet.topic);
    else retained.set(packet.topic, { ...packet });
    return storeRetained(packet, cb);
  };
  store.createRetainedStreamCombi = (patterns) =>
    patterns.some((p) => p.includes('+') || p.includes('#')) ? combi(patterns) : Readable.from(patterns.flatMap((p) => retained.get(p) ?? []));
}

/**
 * The MQTT broker that comes with the console (aedes). Every connection authenticates; a device may
 * publish only its own telemetry, state and cmd/ack, and subscribe only to its own cmd; the console's
 * account may do the rest. A device's message is handed to the console before the broker
 * acknowledges it, so a reading the device was told is received has been stored (or refused).
 * Port: MQTT_PORT when set (taken: the start stops), else 1883 or, when that is taken, a free port.
 */
export async function startEmbeddedBroker(o: EmbeddedBrokerOptions): Promise<EmbeddedBroker> {
  const identities = new WeakMap<Client, BrokerIdentity>();
  const devices = new Map<string, Set<Client>>();
  const aedes = await Aedes.createBroker({
    // No bound on the messages its emitter (mqemitter) delivers at once. Beyond the bound (100 by
    // default) it queues them and drains the queue by recursion through every message that no one
    // subscribes to (a device's reading or answer, a command to a device away): a dispatch's
    // thousands of commands and answers overflowed the stack and killed the console's process.
    // What comes in is bounded already: by each device's messages in flight, by the outbox's rounds.
    concurrency: 0,
    authenticate(client, username, password, done) {
      const fail = () => {
        const err = new Error('Bad user name or password') as AuthenticateError;
        err.returnCode = 4;
        done(err, false);
      };
      if (!username || !password) return fail();
      o.verify(username, password).then(
        (id) => {
          if (!id) {
            o.log.warn({ clientId: client.id, username }, 'MQTT connection refused: bad user name or password');
            return fail();
          }
          identities.set(client, id);
          if (id.kind === 'device') devices.set(id.serial, (devices.get(id.serial) ?? new Set()).add(client));
          done(null, true);
        },
        (err: unknown) => {
          o.log.error({ err }, 'MQTT authentication failed');
          fail();
        },
      );
    },
    authorizePublish(client, packet, done) {
      const id = client ? identities.get(client) : undefined;
      if (!client || id?.kind === 'console') return done(null);
      const topic = parseDeviceTopic(packet.topic);
      if (!id || !topic || topic.serial !== id.serial || topic.kind === 'cmd') {
        o.refused(id?.serial ?? '', client.id, packet.topic, 'publish');
        return done(new Error(`not allowed to publish on ${packet.topic}`));
      }
      const payload = Buffer.isBuffer(packet.payload) ? packet.payload : Buffer.from(packet.payload);
      o.fromDevice(topic.serial, topic.kind, payload).then(
        () => done(null),
        (err: unknown) => {
          o.log.error({ err, serial: topic.serial }, 'device message could not be handled');
          done(err as Error);
        },
      );
    },
    authorizeSubscribe(client, sub, done) {
      const id = identities.get(client);
      if (id?.kind === 'console') return done(null, sub);
      if (id?.kind === 'device' && sub.topic === `${DEVICE_TOPIC_PREFIX}/${id.serial}/cmd`) return done(null, sub);
      o.refused(id?.kind === 'device' ? id.serial : '', client.id, sub.topic, 'subscribe');
      done(null, null);
    },
  });
  indexRetained(aedes);
  aedes.on('clientDisconnect', (client) => {
    const id = identities.get(client);
    if (id?.kind === 'device') devices.get(id.serial)?.delete(client);
  });
  const server = net.createServer(aedes.handle);
  const sockets = new Set<net.Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  let port: number;
  try {
    port = await listen(server, o.port ?? 1883, o.host);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
    if (o.port !== undefined)
      throw new BrokerPortTaken(`MQTT_PORT ${o.port} is taken by another program: set MQTT_PORT to a free port, or to 0 to run without the embedded broker.`);
    port = await listen(server, 0, o.host);
    o.log.info(`Port 1883 is taken: the embedded MQTT broker listens on port ${port} instead (set MQTT_PORT to choose)`);
  }
  o.log.info(`Embedded MQTT broker on port ${port}`);
  return {
    port,
    publish(topic, payload) {
      const packet = { cmd: 'publish' as const, topic, payload: Buffer.from(payload), qos: 1 as const, retain: false, dup: false };
      // A device subscribes to its own `cmd` only, and no one else may: a command's subscribers are
      // its device's connections, known here. Handed to them straight (aedes' Client#publish, QoS 1
      // as their subscription's), a command skips what the broker does for each message: its look-up
      // of persistent sessions to queue for, the match against every subscription, its `publish`
      // event. Through the broker when the device is not connected and subscribed (a persistent
      // session away queues it there).
      const serial = parseDeviceTopic(topic)?.serial;
      const to = [...((serial && devices.get(serial)) || [])].filter((c) => c.connected && (c as unknown as Subscribed).subscriptions[topic]);
      if (!to.length) return new Promise((resolve, reject) => aedes.publish(packet, (err) => (err ? reject(err) : resolve())));
      return Promise.all(to.map((c) => new Promise<void>((resolve) => c.publish(packet, () => resolve())))).then(() => undefined);
    },
    disconnect(serial) {
      for (const client of devices.get(serial) ?? []) client.close();
      devices.delete(serial);
    },
    async close() {
      // No new connection first: a device reconnecting while the broker closes would hold it open.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      await new Promise<void>((resolve) => aedes.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}
