import { tzOffsetS } from '@vpp/shared/time';
import * as SunCalc from 'suncalc';
import { hash01, smoothNoise, stringKey } from './random.ts';

/** What the simulator needs to know of a node: its place, equipment and household. */
export interface NodeModel {
  id: number;
  lat: number;
  lng: number;
  region: string;
  postcode: string;
  timezone: string;
  phases: 1 | 3;
  solarKw: number;
  inverterKw: number;
  batteryKwh: number;
  batteryKw: number;
  /**
   * The backup reserve the household keeps (kWh): its own use (self-consumption) stops there, as a
   * home battery's 'backup reserve' setting does; orders (a dispatch) and an outage may go below it.
   */
  backupReserveKwh?: number;
  /** Scales the household's consumption (0.6 small flat to 1.8 large family). */
  loadScale: number;
  submeterIds: number[];
}

/** An order the node obeys for a time: battery power, an export or import limit, or charging to full. */
export type Command =
  | { kind: 'battery_power'; start: number; end: number; kw: number }
  | ExportLimit
  | ImportLimit
  | { kind: 'charge_full'; start: number; end: number }
  /** The grid is out over the window: the home runs islanded on solar and battery (meter 0). */
  | { kind: 'grid_outage'; start: number; end: number };

/**
 * A limit on a node modelled on CSIP-AUS (IEEE 2030.5 for Australia): `net` is opModExpLimW, the
 * export at the meter; `gross` is opModGenLimW, the inverter's output. kW, 0 or more. A `standing`
 * limit is the DefaultDERControl: it applies whenever no event limit (a DERControl) of the same mode
 * is active, and moves to its value linearly over `rampS` seconds from its start (setGradW), from
 * `rampFromKw` (the previous default's value; null: from no limit, the inverter's rating).
 */
export interface ExportLimit {
  kind: 'export_limit';
  start: number;
  end: number;
  kw: number;
  mode: 'net' | 'gross';
  standing?: boolean;
  rampS?: number;
  rampFromKw?: number | null;
}

/**
 * A site import limit modelled on CSIP-AUS opModImpLimW: the import at the meter held to at most `kw`
 * (0 or more) by the battery, which first stops charging from the grid and then discharges to cover
 * the load, within its power rating and above the household's backup reserve. The solar and the load
 * are not touched: what the battery cannot cover is still imported.
 */
export interface ImportLimit {
  kind: 'import_limit';
  start: number;
  end: number;
  kw: number;
}

/** The tightest import limit (kW) among a node's active commands, or null for none. */
export function importCap(active: readonly Command[]): number | null {
  let cap: number | null = null;
  for (const c of active) if (c.kind === 'import_limit') cap = Math.min(cap ?? Number.POSITIVE_INFINITY, Math.max(0, c.kw));
  return cap;
}

/**
 * The cap (kW) a node obeys in a mode at `ts` among its active limits, or null for none. As in
 * CSIP-AUS, while any event limit (DERControl) is active the standing ones (DefaultDERControl) are
 * set aside whatever their mode; among the limits that apply, the most restrictive wins.
 */
export function effectiveLimit(n: Pick<NodeModel, 'inverterKw'>, active: readonly Command[], mode: 'net' | 'gross', ts: number): number | null {
  const limits = active.filter((c): c is ExportLimit => c.kind === 'export_limit');
  const event = limits.some((c) => !c.standing);
  let cap: number | null = null;
  for (const c of limits) {
    if (c.mode !== mode || (event && c.standing)) continue;
    let kw = Math.max(0, c.kw);
    if (c.standing && c.rampS && c.rampS > 0 && ts < c.start + c.rampS) {
      const from = Math.max(0, c.rampFromKw ?? n.inverterKw);
      kw = from + (kw - from) * Math.max(0, (ts - c.start) / c.rampS);
    }
    cap = cap === null ? kw : Math.min(cap, kw);
  }
  return cap;
}

/** Round-trip efficiency is split evenly between charge and discharge. */
export const ONE_WAY_EFFICIENCY = 0.95;

/** Cloud cover in [0, 1] over a market region: weather systems of hours with passing clouds. */
export function cloudCover(region: string, ts: number): number {
  const k = stringKey(region);
  const systems = smoothNoise(k, ts, 6 * 3600);
  const passing = smoothNoise(k + 1, ts, 1200);
  const c = systems ** 1.6 * 0.9 + (passing - 0.5) * 0.35 * systems;
  return Math.min(1, Math.max(0, c));
}

/**
 * Air temperature (°C) at a place and instant: the annual mean falls with latitude (Darwin about 28,
 * Hobart about 15), summer peaks in late January with a swing that grows away from the tropics, the
 * day peaks at 15:00 solar time and clouds damp the daily swing; weather systems of days over the
 * region (cool changes, and in summer the odd heat wave) and a small steady offset per postcode.
 */
export function airTemperature(place: { lat: number; lng: number; region: string; postcode: string }, ts: number): number {
  const away = Math.max(0, Math.abs(place.lat) - 12);
  const mean = 28 - 0.42 * away;
  // Epoch day 0 is 1 January 1970; the Gregorian mean year keeps the seasons in step.
  const summer = Math.cos((2 * Math.PI * (((ts / 86_400) % 365.2425) - 20)) / 365.2425);
  const seasonal = (1 + 0.22 * away) * summer;
  const solarHour = (((ts / 3600 + place.lng / 15) % 24) + 24) % 24;
  const daily = 6 * (1 - 0.6 * cloudCover(place.region, ts)) * Math.cos((2 * Math.PI * (solarHour - 15)) / 24);
  const key = stringKey(place.region);
  const systems = (smoothNoise(key + 7, ts, 3 * 86_400) - 0.5) * (4 + 0.3 * away);
  const heatWave = Math.max(0, summer) * Math.max(0, smoothNoise(key + 11, ts, 4 * 86_400) - 0.75) * 28;
  const local = (hash01(stringKey(place.postcode)) - 0.5) * 2;
  return mean + seasonal + daily + systems + heatWave + local;
}

const sunCache = new Map<number, number>();

/**
 * Clear-sky output fraction (0 to 1) from the sun's altitude, shared by neighbours: positions are
 * cached on a 0.1° grid per 30 seconds (suncalc answers in degrees).
 */
function clearSky(lat: number, lng: number, ts: number): number {
  const cell = Math.round((lat + 50) * 10) * 1000 + Math.round((lng - 100) * 10);
  const key = Math.floor(ts / 30) * 1e6 + cell;
  let v = sunCache.get(key);
  if (v === undefined) {
    const { altitude } = SunCalc.getPosition(new Date(ts * 1000), lat, lng);
    v = altitude <= 0 ? 0 : Math.sin((altitude * Math.PI) / 180) ** 1.25;
    if (sunCache.size > 2_000_000) sunCache.clear();
    sunCache.set(key, v);
  }
  return v;
}

/** Solar generation available (kW) from the sun's altitude at the node, its panels and the clouds. */
export function solarAvailableKw(n: NodeModel, ts: number): number {
  const clear = clearSky(n.lat, n.lng, ts);
  if (clear === 0) return 0;
  const kw = n.solarKw * 0.86 * clear * (1 - 0.78 * cloudCover(n.region, ts) ** 1.4);
  return Math.min(kw, n.inverterKw);
}

/**
 * A household's expected load per unit of its scale (kW) in a zone at an instant: the daily shape
 * with morning and evening peaks, and the season, without the noise. Forecasts use it.
 */
export function houseLoadShape(zone: string, ts: number): number {
  const local = ts + tzOffsetS(zone, ts);
  const hour = (local % 86400) / 3600;
  const dayOfYear = Math.floor(local / 86400) % 365.25;
  const bump = (centre: number, width: number, height: number) => height * Math.exp(-(((hour - centre) / width) ** 2));
  const shape = 0.32 + bump(7.5, 1.3, 0.55) + bump(13, 3, 0.18) + bump(18.8, 2.1, 1.15);
  // Winter (July) heating and summer (January) cooling both lift consumption.
  const season = 1 + 0.22 * Math.cos((2 * Math.PI * (dayOfYear - 196)) / 365) + 0.12 * Math.cos((2 * Math.PI * (dayOfYear - 15)) / 365);
  return shape * season;
}

/** The least a household draws (kW): standby loads never stop. */
export const MIN_HOUSE_KW = 0.05;

/** Household load (kW): the zone's daily and seasonal shape, scaled by the household, with noise (mean 1). */
export function houseLoadKw(n: NodeModel, ts: number): number {
  const noise = 0.75 + 0.5 * hash01(n.id, Math.floor(ts / 300));
  return Math.max(MIN_HOUSE_KW, n.loadScale * houseLoadShape(n.timezone, ts) * noise);
}

export interface StepResult {
  solarKw: number;
  sgaKw: number;
  houseKw: number;
  batteryKw: number;
  gridKw: number;
  socKwh: number;
  /** Solar held back (kW) to meet an export limit (net or gross); 0 with none in force. */
  curtailedKw: number;
}

/**
 * One step of `dt` seconds: the battery self-consumes (charges from surplus solar, covers the load)
 * unless a command says otherwise, always within its power limit and its usable energy; solar is
 * curtailed to meet an export limit, and the battery holds an import limit; the grid meter is the balance (positive import), so that
 * house = solar + grid − battery (battery positive is charge).
 */
export function step(n: NodeModel, ts: number, dt: number, socKwh: number, commands: readonly Command[]): StepResult {
  const sga = solarAvailableKw(n, ts);
  const house = houseLoadKw(n, ts);
  const active = commands.filter((c) => c.start <= ts && ts < c.end);
  const hours = dt / 3600;
  if (active.some((c) => c.kind === 'grid_outage')) return islanded(n, sga, house, hours, socKwh);

  // A gross limit caps the inverter's solar output before anything else sees it.
  const grossCap = effectiveLimit(n, active, 'gross', ts);
  const solarCapped = grossCap === null ? sga : Math.min(sga, grossCap);
  let target = solarCapped - house;
  const power = active.find((c) => c.kind === 'battery_power');
  if (power) target = power.kw;
  else if (active.some((c) => c.kind === 'charge_full')) target = n.batteryKw;
  if (n.batteryKwh <= 0) target = 0;

  const maxCharge = Math.min(n.batteryKw, Math.max(0, (n.batteryKwh - socKwh) / hours / ONE_WAY_EFFICIENCY));
  const floor = power ? 0 : (n.backupReserveKwh ?? 0);
  const maxDischarge = Math.min(n.batteryKw, Math.max(0, ((socKwh - floor) * ONE_WAY_EFFICIENCY) / hours));
  let battery = Math.max(-maxDischarge, Math.min(maxCharge, target));

  let solar = solarCapped;
  // A net limit: the battery has already soaked up what it can of the surplus (self-consumption
  // charges it first); the solar that would still be exported beyond the limit is curtailed.
  const cap = effectiveLimit(n, active, 'net', ts);
  if (cap !== null) {
    const exportKw = solar - house - battery;
    if (exportKw > cap) solar = Math.max(0, solar - (exportKw - cap));
    // The limit is on the connection: with no solar left to curtail, a commanded discharge is held back too.
    const still = solar - house - battery;
    if (still > cap) battery += still - cap;
  }
  // An import limit: what crosses the meter beyond it is taken off the battery's charge, then
  // discharged, down to the backup reserve (a command's own deeper discharge is not undone).
  const importLimit = importCap(active);
  if (importLimit !== null && n.batteryKwh > 0) {
    const over = house + battery - solar - importLimit;
    if (over > 0) {
      const reserve = Math.min(n.batteryKw, Math.max(0, ((socKwh - (n.backupReserveKwh ?? 0)) * ONE_WAY_EFFICIENCY) / hours));
      battery = Math.max(battery - over, Math.min(battery, -reserve));
    }
  }
  const grid = house + battery - solar;
  const socNext = socKwh + (battery > 0 ? battery * ONE_WAY_EFFICIENCY : battery / ONE_WAY_EFFICIENCY) * hours;
  return {
    solarKw: solar,
    sgaKw: sga,
    houseKw: house,
    batteryKw: battery,
    gridKw: grid,
    socKwh: Math.min(n.batteryKwh, Math.max(0, socNext)),
    curtailedKw: Math.max(0, sga - solar),
  };
}

/**
 * A step with the grid out: nothing crosses the meter. The battery covers what the solar does not
 * (within its power limit, down to its floor) and takes the surplus (within its room); the load the
 * two cannot carry is not served (the house goes dark), and the solar they cannot use is curtailed.
 */
function islanded(n: NodeModel, sga: number, house: number, hours: number, socKwh: number): StepResult {
  const hasBattery = n.batteryKwh > 0 && n.batteryKw > 0;
  const maxCharge = hasBattery ? Math.min(n.batteryKw, Math.max(0, (n.batteryKwh - socKwh) / hours / ONE_WAY_EFFICIENCY)) : 0;
  const maxDischarge = hasBattery ? Math.min(n.batteryKw, Math.max(0, (socKwh * ONE_WAY_EFFICIENCY) / hours)) : 0;
  // (|| 0: no -0 in the readings.)
  const battery = Math.max(-maxDischarge, Math.min(maxCharge, sga - house)) || 0;
  // Served load and used solar balance the battery: house = solar - battery.
  const served = Math.min(house, sga - battery) || 0;
  const solar = served + battery;
  const socNext = socKwh + (battery > 0 ? battery * ONE_WAY_EFFICIENCY : battery / ONE_WAY_EFFICIENCY) * hours;
  // Solar unused with the grid out is not held back for an export limit: no curtailment to credit.
  return { solarKw: solar, sgaKw: sga, houseKw: served, batteryKw: battery, gridKw: 0, socKwh: Math.min(n.batteryKwh, Math.max(0, socNext)), curtailedKw: 0 };
}

/** Voltage at the connection point: the street's level, lifted by local export, lowered by import. */
export function voltage(n: NodeModel, ts: number, gridKw: number, phase: number): number {
  const street = 234 + 9 * hash01(stringKey(n.postcode));
  const perPhase = n.phases === 3 ? gridKw / 3 : gridKw;
  return street + Math.max(0, -perPhase) * 1.1 - Math.max(0, perPhase) * 0.45 + (hash01(n.id, phase, Math.floor(ts / 30)) - 0.5) * 1.6;
}

/** Grid frequency of the region: close to 50 Hz. */
export function frequency(region: string, ts: number): number {
  return 50 + (smoothNoise(stringKey(region) + 7, ts, 90) - 0.5) * 0.12;
}

/** Submeter loads (kW): each a share of the house with its own daily habit, in the node's local time. */
export function submeterPower(name: string, id: number, ts: number, houseKw: number, zone: string): number {
  const hour = ((((ts + tzOffsetS(zone, ts)) / 3600) % 24) + 24) % 24;
  const on = hash01(id, Math.floor(ts / 1800)) < 0.5;
  if (name === 'Pool pump') return hour >= 0 && hour < 6 ? 1.1 : 0;
  if (name === 'Hot water') return hour >= 14 && hour < 17 && on ? 3.6 : 0.02;
  if (name === 'EV charger') return hour >= 8 && hour < 12 && on ? 7 : 0;
  return Math.min(houseKw * 0.35, 3);
}

/**
 * Whether a home's customer opts out of a command: about one in twenty declines a battery command
 * (fixed per home and command); every device takes export limits and outage preparation.
 */
export function customerOptsOut(homeKey: number, commandId: number, batteryCommand: boolean): boolean {
  return batteryCommand && hash01(homeKey, commandId, 77) < 0.05;
}
