import fs from 'node:fs';
import { type FleetDevice, fleetIdentitiesSchema } from '@vpp/shared/devices/identities';
import { BUFFER_LIMIT, type FleetLog, type HomeState, SimulatedDevice } from './device.ts';

export interface Fleet {
  devices: SimulatedDevice[];
  /** Stops every device: `offline` says so on each one's state; `quiet` leaves without a word (docs/devices.md). */
  stop(how?: 'offline' | 'quiet'): Promise<void>;
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

/** A clock in epoch seconds, and how long (ms) a span of its seconds takes: the console's when it runs the fleet in its process. */
export interface FleetClock {
  now(): number;
  delayMs(seconds: number): number;
}

const WALL: FleetClock = { now: () => Date.now() / 1000, delayMs: (s) => s * 1000 };

/**
 * Runs simulated devices against a broker: each connects with its own credential and reports every
 * `intervalS` seconds, on the interval's boundaries of the clock (a reading at `ts` holds for
 * [ts, ts + intervalS)). A device that starts behind (`homes`: where each stood) first reports the
 * intervals it missed. `online` (when given) says whether a home's internet is up at a time: while
 * it is down its device is cut off (the broker publishes its last will) and keeps its readings, and
 * it connects again and sends them once it is back.
 */
export function runFleet(o: {
  devices: readonly FleetDevice[];
  broker: string;
  intervalS: number;
  log: FleetLog;
  backupReserve?: number;
  clock?: FleetClock;
  homes?: ReadonlyMap<string, HomeState>;
  online?: (serial: string, ts: number) => boolean;
}): Fleet {
  const clock = o.clock ?? WALL;
  const devices = o.devices.map((d) => new SimulatedDevice(d, { broker: o.broker, log: o.log, backupReserve: o.backupReserve, home: o.homes?.get(d.serial) }));
  const first = Math.floor(clock.now());
  for (const d of devices) if (!o.online || o.online(d.identity.serial, first)) d.connect();
  let timer: NodeJS.Timeout | undefined;
  let running = true;
  const step = o.intervalS;
  const schedule = () => {
    const now = clock.now();
    const next = Math.floor(now / step) * step + step;
    timer = setTimeout(
      () => {
        if (!running) return;
        for (const d of devices) {
          const up = !o.online || o.online(d.identity.serial, next);
          if (!up && d.linked) void d.stop('drop');
          else if (up && !d.linked) d.connect();
          // The intervals it missed (behind after a hand-over), at most a buffer's worth, then this one.
          let from = d.nextTs !== null && d.nextTs < next ? Math.max(d.nextTs, next - BUFFER_LIMIT * step) : next;
          for (; from < next; from += step) d.report(from, step);
          d.report(next, step);
        }
        schedule();
      },
      Math.max(0, clock.delayMs(next - now)),
    );
  };
  schedule();
  return {
    devices,
    async stop(how: 'offline' | 'quiet' = 'offline') {
      running = false;
      clearTimeout(timer);
      await Promise.all(devices.map((d) => d.stop(how)));
    },
  };
}
