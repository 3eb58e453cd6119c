import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { startServerProcess } from './start-server.ts';

describe('a server started on a port that another process holds', () => {
  it('exits with PORT_TAKEN_EXIT, which the start reports as a taken port (a port it chose itself is chosen again)', async () => {
    const holder = net.createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const { port } = holder.address() as net.AddressInfo;
    try {
      await expect(startServerProcess({ port, name: 'port-taken', env: { DEMO: 'false', SIMULATOR: 'false', MQTT_PORT: '0' } })).rejects.toThrow(
        `port ${port} was taken`,
      );
    } finally {
      holder.close();
    }
  });
});
