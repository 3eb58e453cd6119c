import { describe, expect, it } from 'vitest';
import { KIT_MESSAGES as M } from './messages.ts';
import {
  batteryChoices,
  buildOrder,
  changeInverter,
  changePvConnected,
  changePvPhases,
  checkDesign,
  defaultDesign,
  emptySystem,
  HEADER_CODES,
  headerCode,
  type KitCatalogue,
  resizeSystems,
  systemCounts,
} from './rules.ts';
import type { InverterType } from './schemas.ts';

const inv = (id: number, patch: Partial<InverterType>): InverterType => ({
  id,
  code: `INV${id}`,
  displayName: `Inverter ${id}`,
  manufacturer: 'Test',
  allInOne: false,
  pvCompatible: true,
  phases: 1,
  ratedPowerW: 5000,
  compatibleBatteryTypes: [1, 2],
  imageUrl: '/kit/hybrid-inverter.svg',
  ...patch,
});
const HYBRID = inv(1, {});
const AC_COUPLED = inv(2, { pvCompatible: null, allInOne: true, compatibleBatteryTypes: [3] });
const NO_SOLAR = inv(3, { pvCompatible: false });
const SOLAR_ONLY = inv(4, { compatibleBatteryTypes: [] });
const battery = (id: number) => ({
  id,
  code: `B${id}`,
  displayName: `Battery ${id}`,
  manufacturer: 'Test',
  usableCapacityWh: 10000,
  imageUrl: '/kit/hv-battery.svg',
});
const CATALOGUE: KitCatalogue = { inverterTypes: [HYBRID, AC_COUPLED, NO_SOLAR, SOLAR_ONLY], batteryTypes: [battery(1), battery(2), battery(3)] };

describe('the kit builder’s change rules (spec 2 §4)', () => {
  it('starts with one grid phase and no systems', () => {
    expect(defaultDesign()).toEqual({ gridPhases: 1, inverterSystems: {} });
  });

  it('disconnects solar for an inverter that takes none, clears phases unless they are chosen, and clears the battery without compatible ones', () => {
    const s = { inverter: 2, pvConnected: true, pvPhases: 3, battery: 3, existing: false };
    expect(changeInverter(s, NO_SOLAR)).toEqual({ inverter: 3, pvConnected: false, pvPhases: null, battery: 3, existing: false });
    expect(changeInverter(s, HYBRID)).toEqual({ inverter: 1, pvConnected: true, pvPhases: null, battery: 3, existing: false });
    expect(changeInverter(s, AC_COUPLED)).toEqual(s);
    expect(changeInverter(s, SOLAR_ONLY)).toEqual({ inverter: 4, pvConnected: true, pvPhases: null, battery: null, existing: false });
    // No inverter, no battery for it.
    expect(changeInverter(s, null)).toEqual({ ...s, inverter: null, battery: null });
  });

  it('clears the phases when solar is disconnected, and connects solar when phases are chosen', () => {
    const s = { inverter: 2, pvConnected: true, pvPhases: 3, battery: 3 };
    expect(changePvConnected(s, false)).toEqual({ ...s, pvConnected: false, pvPhases: null });
    expect(changePvConnected({ ...s, pvConnected: false, pvPhases: null }, true)).toEqual({ ...s, pvConnected: true, pvPhases: null });
    expect(changePvPhases({ ...s, pvConnected: false, pvPhases: null }, 1)).toEqual({ ...s, pvConnected: true, pvPhases: 1 });
    expect(changePvPhases(s, null)).toEqual({ ...s, pvPhases: null });
  });

  it('offers the compatible batteries, and Not Connected unless the inverter is all-in-one', () => {
    expect(batteryChoices(HYBRID, CATALOGUE.batteryTypes)).toEqual({ batteries: [battery(1), battery(2)], notConnected: true });
    expect(batteryChoices(AC_COUPLED, CATALOGUE.batteryTypes)).toEqual({ batteries: [battery(3)], notConnected: false });
    expect(batteryChoices(SOLAR_ONLY, CATALOGUE.batteryTypes)).toEqual({ batteries: [], notConnected: true });
  });

  it('adds empty systems at the end of their group and removes from its end, keeping the other group', () => {
    let n = 0;
    const id = () => `s${++n}`;
    let d = resizeSystems(defaultDesign(), false, 2, id);
    expect(d.inverterSystems).toEqual({ s1: emptySystem(false), s2: emptySystem(false) });
    d = { ...d, inverterSystems: { ...d.inverterSystems, s1: { ...emptySystem(false), inverter: 1 } } };
    d = resizeSystems(d, true, 1, id);
    expect(Object.keys(d.inverterSystems)).toEqual(['s3', 's1', 's2']);
    expect(systemCounts(d)).toEqual({ existing: 1, new: 2 });
    d = resizeSystems(d, false, 1, id);
    expect(d.inverterSystems).toEqual({ s3: emptySystem(true), s1: { ...emptySystem(false), inverter: 1 } });
    d = resizeSystems(d, false, 0, id);
    expect(d.inverterSystems).toEqual({ s3: emptySystem(true) });
  });
});

describe('the design check', () => {
  it('holds for a consistent design and names each broken rule', () => {
    expect(checkDesign({ gridPhases: 1, inverterSystems: { a: { inverter: 1, pvConnected: true, pvPhases: null, battery: 1 } } }, CATALOGUE)).toBeNull();
    expect(checkDesign({ gridPhases: 1, inverterSystems: { a: { inverter: 2, pvConnected: false, pvPhases: null, battery: null } } }, CATALOGUE)).toEqual({
      inverterSystems: { a: { battery: M.batteryRequired } },
    });
    expect(checkDesign({ gridPhases: 3, inverterSystems: { a: { inverter: 3, pvConnected: true, pvPhases: null, battery: 1 } } }, CATALOGUE)).toEqual({
      inverterSystems: { a: { pvConnected: M.pvNotCompatible } },
    });
  });

  it('orders an all-in-one unit once (its battery is inside it), a hybrid with its battery', () => {
    const order = buildOrder(
      {
        gridPhases: 1,
        inverterSystems: {
          a: { inverter: 2, pvConnected: false, pvPhases: null, battery: 3, existing: false },
          b: { inverter: 1, pvConnected: true, pvPhases: null, battery: 1, existing: false },
        },
      },
      CATALOGUE,
    );
    const codes = order.lines.map((l) => l.code);
    expect(codes).toContain('INV2');
    expect(codes).not.toContain('B3');
    expect(codes).toContain('INV1');
    expect(codes).toContain('B1');
  });

  it('knows the twelve header codes and no others', () => {
    expect(HEADER_CODES.map((c) => c)).toHaveLength(12);
    expect(headerCode(2, 3)).toBe('2L3S');
    expect(() => headerCode(1, 4)).toThrow();
    expect(() => headerCode(4, 0)).toThrow();
  });
});
