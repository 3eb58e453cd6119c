import { deviceTopics } from '@vpp/shared/devices/schemas';
import mqtt from 'mqtt';
import pino from 'pino';
import { expect, it } from 'vitest';
import { freePort } from '../test/free-port.ts';
import { waitFor } from '../test/wait.ts';
import { startEmbeddedBroker } from './devices.broker.ts';

/**
 * A dispatch hands the embedded broker thousands of messages at once. Beyond its concurrency aedes'
 * emitter (mqemitter) queued them, and drained its queue by recursion through every message that
 * no one subscribes to (a command to a device away, a device's answer): the console's process died
 * of a stack overflow in bench:devices' dispatch to 10,000 batteries.
 */
it('takes a dispatch of thousands of commands at once, to devices connected and away', async () => {
  const broker = await startEmbeddedBroker({
    host: '127.0.0.1',
    port: await freePort(),
    log: pino({ level: 'silent' }),
    verify: async (username) => ({ kind: 'device', serial: username }),
    fromDevice: async () => undefined,
    refused: () => undefined,
  });
  const here = Array.from({ length: 200 }, (_, i) => `RPB${i}`);
  const clients = await Promise.all(
    here.map((serial) => mqtt.connectAsync(`mqtt://127.0.0.1:${broker.port}`, { username: serial, password: 'x', reconnectPeriod: 0 })),
  );
  try {
    let received = 0;
    for (const [i, c] of clients.entries()) {
      c.on('message', () => received++);
      await c.subscribeAsync(deviceTopics(here[i]).cmd, { qos: 1 });
    }
    const away = Array.from({ length: 20_000 }, (_, i) => `RPA${i}`);
    const command = (serial: string, id: number) => broker.publish(deviceTopics(serial).cmd, JSON.stringify({ id, cancel: true }));
    await Promise.all([...here.map((serial, i) => command(serial, i + 1)), ...away.map((serial, i) => command(serial, here.length + i + 1))]);
    await waitFor('every command at its device', () => received === here.length);
    expect(received).toBe(here.length);
  } finally {
    for (const c of clients) c.end(true);
    await broker.close();
  }
});
