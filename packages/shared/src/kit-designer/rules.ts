import { KIT_MESSAGES as M } from './messages.ts';
import {
  type BatteryType,
  GRID_PHASES,
  type InverterSystem,
  type InverterType,
  KIT_LIMITS,
  type KitDesign,
  type KitDesignErrors,
  type KitOrder,
  type KitOrderLine,
  SOLAR_PHASES,
  type SystemErrors,
} from './schemas.ts';

// The kit designer's rules (spec 2 §4 and §5), shared: the browser applies the change rules as the
// installer edits, the server checks the whole design and writes the order.

export interface KitCatalogue {
  inverterTypes: readonly InverterType[];
  batteryTypes: readonly BatteryType[];
}

/** Spec 2 §4: gridPhases 1, no inverter systems. */
export const defaultDesign = (): KitDesign => ({ gridPhases: 1, inverterSystems: {} });

/** A new, empty system: no inverter, solar not connected. */
export const emptySystem = (existing: boolean): InverterSystem => ({ inverter: null, pvConnected: false, pvPhases: null, battery: null, existing });

/** The recognised header order codes of spec 2 §3: grid phases, then solar-connected systems. */
export const HEADER_CODES = ['1L', '1L1S', '1L2S', '1L3S', '2L', '2L1S', '2L2S', '2L3S', '3L', '3L1S', '3L2S', '3L3S'] as const;
export type HeaderCode = (typeof HEADER_CODES)[number];

export function headerCode(gridPhases: number, solarSystems: number): HeaderCode {
  const code = `${gridPhases}L${solarSystems > 0 ? `${solarSystems}S` : ''}`;
  if (!(HEADER_CODES as readonly string[]).includes(code)) throw new Error(`no header for ${gridPhases} grid phases and ${solarSystems} solar systems`);
  return code as HeaderCode;
}

/** The batteries an inverter takes; 'Not Connected' is offered too unless the inverter is all-in-one. */
export function batteryChoices(inverter: InverterType | undefined, batteries: readonly BatteryType[]) {
  if (!inverter) return { batteries: [] as BatteryType[], notConnected: true };
  return { batteries: batteries.filter((b) => inverter.compatibleBatteryTypes.includes(b.id)), notConnected: !inverter.allInOne };
}

/**
 * Spec 2 §4, choosing an inverter: a type that cannot take solar disconnects it; a type whose solar
 * phases are not chosen (pvCompatible not null) clears them; a type with no compatible batteries
 * clears the battery.
 */
export function changeInverter(system: InverterSystem, inverter: InverterType | null): InverterSystem {
  const next: InverterSystem = { ...system, inverter: inverter?.id ?? null };
  // No inverter: no battery can be chosen for it either.
  if (!inverter) return { ...next, battery: null };
  if (inverter.pvCompatible === false) next.pvConnected = false;
  if (inverter.pvCompatible !== null) next.pvPhases = null;
  if (inverter.compatibleBatteryTypes.length === 0) next.battery = null;
  return next;
}

/** Setting pvConnected false clears pvPhases. */
export const changePvConnected = (system: InverterSystem, pvConnected: boolean): InverterSystem =>
  pvConnected ? { ...system, pvConnected } : { ...system, pvConnected, pvPhases: null };

/** Setting pvPhases alone sets pvConnected true. */
export const changePvPhases = (system: InverterSystem, pvPhases: number | null): InverterSystem =>
  pvPhases === null ? { ...system, pvPhases } : { ...system, pvPhases, pvConnected: true };

/** The design's systems split into existing and new, each in order. */
export function systemCounts(design: KitDesign) {
  const systems = Object.values(design.inverterSystems);
  const existing = systems.filter((s) => s.existing).length;
  return { existing, new: systems.length - existing };
}

/**
 * Changing the number of existing or new systems adds empty systems at the end of that group or
 * removes from its end; the other group is kept as it is.
 */
export function resizeSystems(design: KitDesign, existing: boolean, count: number, newId: () => string): KitDesign {
  const entries = Object.entries(design.inverterSystems);
  const group = entries.filter(([, s]) => !!s.existing === existing);
  const kept = count >= group.length ? group : group.slice(0, count);
  const added: [string, InverterSystem][] = Array.from({ length: Math.max(0, count - group.length) }, () => [newId(), emptySystem(existing)]);
  const mine = [...kept, ...added];
  // Existing systems first, then new ones: the order the order's notes list them in.
  const others = entries.filter(([, s]) => !!s.existing !== existing);
  const ordered = existing ? [...mine, ...others] : [...others, ...mine];
  return { ...design, inverterSystems: Object.fromEntries(ordered) };
}

const findInverter = (c: KitCatalogue, id: number | null) => (id === null ? undefined : c.inverterTypes.find((t) => t.id === id));
const findBattery = (c: KitCatalogue, id: number | null) => (id === null ? undefined : c.batteryTypes.find((t) => t.id === id));

/** Every rule of spec 2 §4 and §5 and the electrical sense of the design; null when it holds. */
export function checkDesign(design: KitDesign, catalogue: KitCatalogue): KitDesignErrors | null {
  const errors: KitDesignErrors = { inverterSystems: {} };
  let failed = false;
  const grid = design.gridPhases;
  const gridKnown = (GRID_PHASES as readonly number[]).includes(grid);
  if (!gridKnown) {
    errors.gridPhases = M.gridPhases;
    failed = true;
  }
  const counts = systemCounts(design);
  if (counts.existing > KIT_LIMITS.existingSystems || counts.new > KIT_LIMITS.newSystems) {
    errors.gridPhases ??= M.tooManySystems;
    failed = true;
  }
  let solar = 0;
  for (const [id, s] of Object.entries(design.inverterSystems)) {
    const e: SystemErrors = {};
    const inverter = findInverter(catalogue, s.inverter);
    if (s.inverter === null) e.inverter = M.inverterRequired;
    else if (!inverter) e.inverter = M.inverterUnknown;
    else if (inverter.phases === 3 && gridKnown && grid < 3) e.inverter = M.inverterPhases;

    if (s.battery === null) {
      if (inverter?.allInOne) e.battery = M.batteryRequired;
    } else if (!findBattery(catalogue, s.battery)) e.battery = M.batteryUnknown;
    else if (inverter && !inverter.compatibleBatteryTypes.includes(s.battery)) e.battery = M.batteryIncompatible;

    if (s.pvConnected && inverter?.pvCompatible === false) e.pvConnected = M.pvNotCompatible;
    else if (s.pvConnected && ++solar > KIT_LIMITS.solarSystems) e.pvConnected = M.pvTooMany;

    if (s.pvPhases !== null) {
      if (!s.pvConnected) e.pvPhases = M.pvPhasesWithoutSolar;
      else if (inverter && inverter.pvCompatible !== null) e.pvPhases = M.pvPhasesNotApplicable;
      else if (!(SOLAR_PHASES as readonly number[]).includes(s.pvPhases)) e.pvPhases = M.pvPhasesValue;
      else if (s.pvPhases === 3 && gridKnown && grid < 3) e.pvPhases = M.pvPhasesGrid;
    } else if (s.pvConnected && inverter?.pvCompatible === null) e.pvPhases = M.pvPhasesRequired;

    if (Object.keys(e).length > 0) {
      errors.inverterSystems[id] = e;
      failed = true;
    }
  }
  return failed ? errors : null;
}

const phaseWord = (n: number) => (n === 1 ? 'single-phase' : n === 2 ? 'two-phase' : 'three-phase');

/**
 * The parts to order for a design that passed checkDesign: the monitoring header for the site
 * (grid phases and solar-connected systems), per system the 16 mm² CT clamps for the inverter's
 * circuit and for solar on its own inverter, the communications cable to each inverter, and the new
 * inverters and batteries themselves; lines of the same part are added up.
 */
export function buildOrder(design: KitDesign, catalogue: KitCatalogue): KitOrder {
  const systems = Object.values(design.inverterSystems);
  const grid = design.gridPhases;
  const solar = systems.filter((s) => s.pvConnected).length;
  const lines: KitOrderLine[] = [];
  const add = (line: KitOrderLine) => {
    const same = lines.find((l) => l.code === line.code);
    if (same) same.qty += line.qty;
    else lines.push(line);
  };
  const header = headerCode(grid, solar);
  add({
    code: header,
    description: `Monitoring header: ${phaseWord(grid)} grid meter${solar > 0 ? ` with ${solar} solar-connected system${solar === 1 ? '' : 's'}` : ''}`,
    qty: 1,
    poles: grid,
    solarPhases: null,
    gridPhases: grid,
  });
  add({
    code: `CT16-${grid}P`,
    description: `16 mm² CT clamp set, ${grid}-pole, for the grid connection`,
    qty: 1,
    poles: grid,
    solarPhases: null,
    gridPhases: grid,
  });
  const notes: string[] = [];
  systems.forEach((s, i) => {
    const inverter = findInverter(catalogue, s.inverter);
    const battery = findBattery(catalogue, s.battery);
    if (!inverter) throw new Error('buildOrder needs a checked design');
    const p = inverter.phases;
    add({ code: `CT16-${p}P`, description: `16 mm² CT clamp set, ${p}-pole, for an inverter circuit`, qty: 1, poles: p, solarPhases: null, gridPhases: grid });
    if (s.pvConnected && inverter.pvCompatible === null && s.pvPhases) {
      const sp = s.pvPhases;
      add({
        code: `CT16-${sp}P-PV`,
        description: `16 mm² CT clamp set, ${sp}-pole, for a solar inverter circuit`,
        qty: 1,
        poles: sp,
        solarPhases: sp,
        gridPhases: grid,
      });
    }
    add({ code: 'COMMS-RS485', description: 'Inverter communications cable, RS485, 10 m', qty: 1, poles: null, solarPhases: null, gridPhases: null });
    if (!s.existing) {
      add({
        code: inverter.code,
        description: inverter.displayName,
        qty: 1,
        poles: p,
        solarPhases: s.pvConnected ? (s.pvPhases ?? p) : null,
        gridPhases: grid,
      });
      // An all-in-one unit holds its battery: ordering the inverter orders the battery with it.
      if (battery && !inverter.allInOne)
        add({ code: battery.code, description: battery.displayName, qty: 1, poles: null, solarPhases: null, gridPhases: null });
    }
    const solarNote = !s.pvConnected
      ? 'solar not connected'
      : inverter.pvCompatible === null
        ? `solar connected on its own ${phaseWord(s.pvPhases ?? 1)} inverter`
        : 'solar connected to the inverter';
    notes.push(
      `System ${i + 1} (${s.existing ? 'existing, metering only' : 'new'}): ${inverter.displayName}, battery ${battery ? battery.displayName : M.notConnected}, ${solarNote}.`,
    );
  });
  if (systems.length === 0) notes.push('No inverter systems: the header meters the grid connection only.');
  notes.unshift(`Header ${header}: ${phaseWord(grid)} grid connection, ${solar} solar-connected system${solar === 1 ? '' : 's'}.`);
  return { lines, referenceNotes: notes };
}

/** Checks the design and, when it holds, writes its order. */
export function designOrder(design: KitDesign, catalogue: KitCatalogue): { order: KitOrder } | { errors: KitDesignErrors } {
  const errors = checkDesign(design, catalogue);
  return errors ? { errors } : { order: buildOrder(design, catalogue) };
}
