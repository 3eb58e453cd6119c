import fs from 'node:fs';
import { type FleetDevice, fleetIdentitiesSchema } from '@vpp/shared';
import { type FleetLog, SimulatedDevice } from './device.ts';

export interface Fleet {
  devices: SimulatedDevice[];
  stop(): Promise<void>;
}

/** Reads an identities file (`npm run fleet:commission` writes it), saying what is wrong when it is not one. */
export function readIdentities(file: string): FleetDevice[] {
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`Cannot read the fleet's identities from ${file}: ${(err as Error).message}`);
  }
  const parsed = fleetIdentitiesSchema.safeParse(raw);
  if (!parsed.success) throw new Error(`${file} is not a fleet identities file: ${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message}`);
  return parsed.data.devices;
}

/**
 * Runs simulated devices against a broker: each connects with its own credential and reports every
 * `intervalS` seconds, on the interval's boundaries of the wall clock (a reading at `ts` holds for
 * [ts, ts + intervalS)).
 */
export function runFleet(o: { devices: readonly FleetDevice[]; broker: string; intervalS: number; log: FleetLog; backupReserve?: number }): Fleet {
  const devices = o.devices.map((d) => new SimulatedDevice(d, { broker: o.broker, log: o.log, backupReserve: o.backupReserve }));
  for (const d of devices) d.connect();
  let timer: NodeJS.Timeout | undefined;
  let running = true;
  const intervalMs = o.intervalS * 1000;
  const schedule = () => {
    const now = Date.now();
    const next = now - (now % intervalMs) + intervalMs;
    timer = setTimeout(() => {
      if (!running) return;
      const ts = Math.floor(next / 1000);
      for (const d of devices) d.report(ts, o.intervalS);
      schedule();
    }, next - now);
  };
  schedule();
  return {
    devices,
    async stop() {
      running = false;
      clearTimeout(timer);
      await Promise.all(devices.map((d) => d.stop()));
    },
  };
}
