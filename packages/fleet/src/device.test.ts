import type { FleetDevice } from '@vpp/shared/devices/identities';
import { deviceCmdMessageSchema, deviceReadingSchema } from '@vpp/shared/devices/schemas';
import { describe, expect, it } from 'vitest';
import { SimulatedDevice, toCommands } from './device.ts';

const home: FleetDevice = {
  serial: 'RP20000001',
  secret: 'a-secret-of-enough-length',
  lat: -33.9,
  lng: 151.18,
  region: 'NSW1',
  postcode: '2042',
  timezone: 'Australia/Sydney',
  phases: 3,
  solarKw: 6.6,
  inverterKw: 5,
  batteryKw: 5,
  batteryKwh: 13.5,
  submeters: [{ id: 17, name: 'Pool pump' }],
};
const quiet = { info() {}, warn() {} };

describe('a simulated device', () => {
  it('reads the wire commands as its physics obey them', () => {
    const at = { id: 1, createdAt: 100, validFrom: 200, validTo: 500 };
    expect(toCommands({ ...at, control: { type: 'batteryPowerW', w: -3000 } })).toEqual([{ kind: 'battery_power', start: 200, end: 500, kw: -3 }]);
    expect(toCommands({ ...at, control: { type: 'opModExpLimW', w: 1500, rampS: 60, rampFromW: null, standing: true } })).toEqual([
      {
        kind: 'export_limit',
        mode: 'net',
        start: 200,
        end: 500,
        kw: 1.5,
        rampS: 60,
        rampFromKw: null,
        standing: true,
      },
    ]);
    expect(toCommands({ ...at, control: { type: 'opModGenLimW', w: 0 } })).toEqual([{ kind: 'export_limit', mode: 'gross', start: 200, end: 500, kw: 0 }]);
    expect(toCommands({ ...at, control: { type: 'opModImpLimW', w: 1500 } })).toEqual([{ kind: 'import_limit', start: 200, end: 500, kw: 1.5 }]);
    // A site import limit is 0 or more watts, and carries no ramp (the console sends none).
    expect(deviceCmdMessageSchema.safeParse({ ...at, control: { type: 'opModImpLimW', w: -1 } }).success).toBe(false);
    expect(deviceCmdMessageSchema.safeParse({ ...at, control: { type: 'opModImpLimW', w: 1, rampS: 5 } }).success).toBe(false);
    expect(toCommands({ ...at, control: { type: 'chargeToFull' } })).toEqual([{ kind: 'charge_full', start: 200, end: 500 }]);
    expect(toCommands({ ...at, control: { type: 'outageReserve' } })).toEqual([{ kind: 'grid_outage', start: 200, end: 500 }]);
  });

  it('follows a command only in the windows the console sends with it', () => {
    const at = { id: 2, createdAt: 100, validFrom: 200, validTo: 500, control: { type: 'batteryPowerW', w: 0 } } as const;
    expect(
      toCommands({
        ...at,
        windows: [
          { from: 200, to: 300 },
          { from: 400, to: 500 },
        ],
      }),
    ).toEqual([
      { kind: 'battery_power', start: 200, end: 300, kw: 0 },
      { kind: 'battery_power', start: 400, end: 500, kw: 0 },
    ]);
    // Set aside for all of its span: nothing to follow.
    expect(toCommands({ ...at, windows: [] })).toEqual([]);
  });

  it('takes readings the protocol accepts, numbered by their time, and keeps them while it has no broker', () => {
    const d = new SimulatedDevice(home, { broker: 'mqtt://127.0.0.1:1', log: quiet });
    const t = 1_795_000_000;
    const readings = [d.report(t, 30), d.report(t + 30, 30)];
    for (const r of readings) expect(deviceReadingSchema.parse(r)).toEqual(r);
    expect(readings.map((r) => r.seq)).toEqual([t, t + 30]);
    expect(readings[0].meterPowerC).not.toBeUndefined();
    expect(readings[0].submeters?.map((s) => s.id)).toEqual([17]);
    expect(d.buffer).toEqual(readings);
  });
});
