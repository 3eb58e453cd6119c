import { describe, expect, it } from 'vitest';
import {
  clearSky,
  cloudTransmittance,
  expectedPower,
  fitCloudResponse,
  KASTEN_CZEPLAK,
  localSlot,
  type ModelNode,
  ProfileBuilder,
  SLOT_S,
} from './forecast.model.ts';

const home: ModelNode = { id: 1, lat: -33.9, lng: 151.18, postcode: '2042', timezone: 'Australia/Sydney', solarKw: 6, inverterKw: 5 };
// Local midnight of Friday 27 November 2026 in Sydney (UTC+11).
const cutoff = Date.UTC(2026, 10, 26, 13) / 1000;
const DAY = 86_400;

/** Fourteen days of a home whose panels give 4 kW per unit of sky under a cloud response, and whose load is 0.5 kW on weekdays and 1 kW at weekends. */
function history(response = { depth: 0.7, shape: 1.5 }) {
  const b = new ProfileBuilder(home, cutoff);
  for (let t = cutoff - 14 * DAY; t < cutoff; t += SLOT_S) {
    const mid = t + SLOT_S / 2;
    const cover = ((t / DAY) % 5) / 5;
    const clear = clearSky(home.lat, home.lng, mid);
    const weekend = localSlot(home.timezone, t).weekend;
    b.add(t, 4 * clear * cloudTransmittance(cover, response), weekend ? 1 : 0.5, clear, cover);
  }
  return b;
}

describe('the console’s forecast model', () => {
  it('has no sun at night and a high one at a summer noon in Sydney', () => {
    expect(clearSky(home.lat, home.lng, cutoff)).toBe(0);
    const noon = cutoff + 13 * 3600;
    expect(clearSky(home.lat, home.lng, noon)).toBeGreaterThan(0.9);
    expect(clearSky(home.lat, home.lng, noon)).toBeLessThan(1.1);
  });

  it('learns the clouds’ dimming from days of different cover', () => {
    expect(fitCloudResponse([history()])).toEqual({ depth: 0.7, shape: 1.5 });
    // With nothing to learn from, Kasten and Czeplak's relation.
    expect(fitCloudResponse([new ProfileBuilder(home, cutoff)])).toEqual(KASTEN_CZEPLAK);
  });

  it('expects each slot’s median load of comparable days, and the panels’ response under the sky forecast', () => {
    const response = { depth: 0.7, shape: 1.5 };
    const profile = history(response).build(response, 1);
    expect(profile.days).toBe(14);
    // Saturday 28 November: a weekend day, forecast with a cover of 0.5.
    const from = cutoff + DAY;
    const e = expectedPower(
      [home],
      [profile],
      from,
      288,
      () => 0.5,
      () => 1,
      response,
    );
    expect(e.houseKw(0, 0)).toBe(1);
    expect(e.houseKw(0, 144)).toBe(1);
    const noon = 13 * 12;
    const mid = from + noon * SLOT_S + SLOT_S / 2;
    expect(e.solarKw(0, noon)).toBeCloseTo(Math.min(5, 4 * clearSky(home.lat, home.lng, mid) * cloudTransmittance(0.5, response)), 1);
    expect(e.solarKw(0, 0)).toBe(0);
    // Friday 27 November is a weekday.
    expect(
      expectedPower(
        [home],
        [profile],
        cutoff,
        1,
        () => 0.5,
        () => 1,
        response,
      ).houseKw(0, 0),
    ).toBe(0.5);
  });

  it('expects a home with no history to do what its VPP’s homes do, its solar scaled by its panels', () => {
    const response = { depth: 0.7, shape: 1.5 };
    const known = history(response).build(response, 1);
    const fresh = new ProfileBuilder({ ...home, id: 2 }, cutoff).build(response, 1);
    const small = { ...home, id: 2, solarKw: 3 };
    const e = expectedPower(
      [home, small],
      [known, fresh],
      cutoff + 13 * 3600,
      1,
      () => 0,
      () => 1,
      response,
    );
    expect(e.solarKw(1, 0)).toBeCloseTo(e.solarKw(0, 0) / 2, 3);
    expect(e.houseKw(1, 0)).toBe(e.houseKw(0, 0));
  });
});
