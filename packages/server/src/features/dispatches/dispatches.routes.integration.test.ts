import { DISPATCH_MESSAGES } from '@vpp/shared/dispatches/messages';
import { MESSAGES } from '@vpp/shared/messages';
import { beforeAll, describe, expect, it } from 'vitest';
import { nowS } from '../../db/database.ts';
import { node } from '../../test/factories.ts';
import { describeEachDatabase } from '../../test/harness.ts';

// Batteries chosen so that the bounds can be worked out by hand (efficiency 0.95 each way, a reserve
// of 10% of the usable energy): `small` holds 5 of 10 kWh, so it can give (5 − 1) × 0.95 = 3.8 kWh
// and take 5 ÷ 0.95 = 5.26 kWh; `large` holds 18 of 20 kWh: it can give 15.2 kWh and take 2.11 kWh.
// Both have 5 kW batteries and 5 kW inverters.
describeEachDatabase('dispatch constraints and predictions', (h) => {
  let headers: { authorization: string };
  let network: { authorization: string };
  let otherHeaders: { authorization: string };
  let nobody: { authorization: string };
  let fleet: number;
  let solarOnly: number;
  const now = nowS();
  const hour = now - (now % 3600);

  const get = (url: string, hdrs = headers) => h().app.inject({ method: 'GET', url, headers: hdrs });
  const constraints = async (id: number, query = '') => {
    const res = await get(`/api/powerstations/${id}/constraints${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  };

  beforeAll(async () => {
    const org = await h().org('RETAILER', 'Sunrise');
    const networkOrg = await h().org('NETWORK', 'Coastal');
    const otherOrg = await h().org('RETAILER', 'Elsewhere');
    headers = await h().bearer((await h().user(org)).username);
    network = await h().bearer(
      (await h().user(networkOrg, { permissions: ['fleet.powerstations.any', 'fleet.powerstations.edit', 'fleet.dispatches.edit'] })).username,
    );
    otherHeaders = await h().bearer((await h().user(otherOrg)).username);
    nobody = await h().bearer(
      (await h().user(org, { permissions: ['fleet.powerstations.view', 'fleet.dispatches.view', 'fleet.dispatches.strategy', 'fleet.dispatches.powerFactor'] }))
        .username,
    );
    const { db, telemetry } = h().ctx;
    const battery = async (usableKwh: number, remaining: number, opts: { commissioned?: boolean; offline?: boolean; lastReport?: number } = {}) => {
      const n = await node(h(), [org, networkOrg], { commissioned: opts.commissioned });
      await db
        .updateTable('nodes')
        .set({ battery_usable_kwh: usableKwh, battery_kwh: usableKwh, battery_kw: usableKwh ? 5 : 0, connection_offline: opts.offline ? 1 : 0 })
        .where('id', '=', n.id)
        .execute();
      await telemetry.ingest([{ nodeId: n.id, ts: opts.lastReport ?? now - (now % 30) - 30, dt: 30, remaining: usableKwh ? remaining : null, soc: null }]);
      return n.id;
    };
    const small = await battery(10, 5);
    const large = await battery(20, 18);
    const solar = await battery(0, 0);
    const offline = await battery(10, 9, { offline: true });
    const stale = await battery(10, 9, { lastReport: now - 3600 });
    const uncommissioned = await battery(10, 9, { commissioned: false });
    const create = async (name: string, nodes: number[], hdrs = headers) => {
      const res = await h().app.inject({ method: 'POST', url: '/api/powerstations', headers: hdrs, payload: { type: 'STATIC', name, nodes } });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data.id as number;
    };
    fleet = await create('Fleet', [small, large, solar, offline, stale, uncommissioned]);
    solarOnly = await create('Solar only', [solar]);
    await create('Network fleet', [small, large], network);
  });

  describe('constraints', () => {
    it('bounds the power by the reporting batteries’ energy above their reserve: lower over a longer duration', async () => {
      // 4 h (the default): discharge 3.8/4 + 15.2/4 = 4.75 kW → −4.7; charge 5.26/4 + 2.11/4 = 1.84 kW → 1.8.
      expect(await constraints(fleet)).toEqual({
        realPowerPMin: -4.7,
        realPowerPMax: 1.8,
        realPowerAvailable: true,
        powerFactorMin: 0.7,
        powerFactorMax: 1,
        powerFactorAvailable: true,
        powerFactorLeadLag: ['LEADING', 'LAGGING'],
        powerFactorConstraintMessage: null,
        deploymentsAvailable: 2,
        conflictMessage: null,
      });
      // 1 h: discharge 3.8 + 5 (its power limit) = 8.8; charge 5 + 2.11 = 7.1.
      expect(await constraints(fleet, '?duration=3600')).toMatchObject({ realPowerPMin: -8.8, realPowerPMax: 7.1 });
      // 30 min: both at their 5 kW limit to discharge; charging, the large one's room gives 4.21 kW.
      expect(await constraints(fleet, '?duration=1800')).toMatchObject({ realPowerPMin: -10, realPowerPMax: 9.2 });
    });

    it('raises the lowest power factor when the inverters carry more real power, and says why a power factor cannot be set', async () => {
      // −8 kW: 4 kW on each 5 kW inverter needs a power factor of at least 0.8.
      expect(await constraints(fleet, '?duration=1800&realPowerP=-8&powerFactor=0.8')).toMatchObject({
        powerFactorMin: 0.8,
        powerFactorConstraintMessage: null,
      });
      expect(await constraints(fleet, '?duration=1800&realPowerP=-8&powerFactor=0.75')).toMatchObject({
        powerFactorMin: 0.8,
        powerFactorConstraintMessage: 'The inverters cannot hold a power factor below 0.80 at this power.',
      });
      expect(await constraints(fleet, '?realPowerP=1&powerFactor=0.9')).toMatchObject({
        powerFactorConstraintMessage: 'Power factor can only be set when discharging, or when real power is not available.',
      });
    });

    it('offers nothing on a VPP with no battery nodes, with the reason', async () => {
      expect(await constraints(solarOnly)).toEqual({
        realPowerPMin: 0,
        realPowerPMax: 0,
        realPowerAvailable: false,
        powerFactorMin: 0.7,
        powerFactorMax: 1,
        powerFactorAvailable: false,
        powerFactorLeadLag: [],
        powerFactorConstraintMessage: DISPATCH_MESSAGES.noBatteryNodes,
        deploymentsAvailable: 0,
        conflictMessage: null,
      });
    });
  });

  describe('predictions', () => {
    it('forecasts the day at 5 minutes from the reporting nodes, empty before now', async () => {
      const start = hour - 3600;
      const res = await get(`/api/powerstations/${fleet}/predictions?start=${start}`);
      expect(res.statusCode, res.body).toBe(200);
      const data = res.json().data;
      expect(Object.keys(data.prediction)).toHaveLength(288);
      expect(data).toMatchObject({ interval: 300, adjustedPrediction: null, warning: null, deployments: 3 });
      expect(data.prediction[start]).toEqual({ solarPower: null, housePower: null, batteryPower: null, meterPower: null, remainingCharge: null, soc: null });
      const next = data.prediction[hour + 3600];
      expect(next.housePower).toBeGreaterThan(0);
      expect(next.meterPower).toBeCloseTo(next.housePower + next.batteryPower - next.solarPower, 2);
      expect(next.soc).toBeCloseTo((next.remainingCharge / 30) * 100, 2);
    });

    it('applies a dispatch through the engine’s allocation in the adjusted prediction', async () => {
      const dispatchStart = hour + 2 * 3600;
      const res = await get(
        `/api/powerstations/${fleet}/predictions?start=${hour}&dispatchStart=${dispatchStart}&dispatchDuration=1800&dispatchRealPowerP=-4&strategy=uniform`,
      );
      expect(res.statusCode, res.body).toBe(200);
      const { prediction, adjustedPrediction } = res.json().data;
      expect(adjustedPrediction[dispatchStart - 300]).toEqual(prediction[dispatchStart - 300]);
      // 2 kW from each battery for 30 minutes: well within both batteries' energy.
      expect(adjustedPrediction[dispatchStart].batteryPower).toBe(-4);
      expect(adjustedPrediction[dispatchStart + 1500].batteryPower).toBe(-4);
      expect(adjustedPrediction[dispatchStart + 1800].batteryPower).not.toBe(-4);
      expect(adjustedPrediction[dispatchStart + 1800].remainingCharge).toBeLessThan(prediction[dispatchStart + 1800].remainingCharge);
    });

    it('refuses a dispatch on a VPP with no battery nodes, with the reason', async () => {
      const res = await get(
        `/api/powerstations/${solarOnly}/predictions?start=${hour}&dispatchStart=${hour + 3600}&dispatchDuration=3600&dispatchRealPowerP=-1`,
      );
      expect(res.statusCode).toBe(400);
      expect(res.json().data.message).toBe(DISPATCH_MESSAGES.noBatteryNodes);
      const plain = await get(`/api/powerstations/${solarOnly}/predictions?start=${hour}`);
      expect(plain.statusCode).toBe(200);
    });

    it('warns on a later day: price predictions are unavailable to those who see market data, not mentioned to a NETWORK user without marketTrader', async () => {
      const later = hour + 2 * 86400;
      expect((await get(`/api/powerstations/${fleet}/predictions?start=${later}`)).json().data.warning).toBe(
        'Predictions for future dates are likely to be inaccurate and market price predictions are unavailable.',
      );
      const networkVpp = (await get('/v2/powerstations', network)).json().result[0].id;
      expect((await get(`/api/powerstations/${networkVpp}/predictions?start=${later}`, network)).json().data.warning).toBe(
        'Predictions for future dates are likely to be inaccurate.',
      );
    });
  });

  describe('prices with the predictions', () => {
    it("gives the day's region prices to a retailer, 48 half-hours, the same as the VPP's price series", async () => {
      const data = (await get(`/api/powerstations/${fleet}/predictions?start=${hour}`)).json().data;
      expect(data.market).toMatchObject({ region: 'NSW1', multipleRegions: false, step: 1800 });
      expect(Object.keys(data.market.rrp)).toHaveLength(48);
      const series = (await get(`/powerstation/${fleet}/prices?start=${hour}&end=${hour + 86400}`)).json().market;
      expect(data.market.rrp).toEqual(series.rrp);
    });

    it('gives none to a NETWORK user without fleet.dispatches.marketTrader, nor for a day beyond the price forecast', async () => {
      const networkVpp = (await get('/v2/powerstations', network)).json().result[0].id;
      expect((await get(`/api/powerstations/${networkVpp}/predictions?start=${hour}`, network)).json().data.market).toBeNull();
      const beyond = (await get(`/api/powerstations/${fleet}/predictions?start=${hour + 2 * 86400}`)).json().data;
      expect(beyond.market).toBeNull();
      // A day that ends within the 2-day forecast has its prices.
      const tomorrow = (await get(`/api/powerstations/${fleet}/predictions?start=${hour + 86400}`)).json().data;
      expect(tomorrow.market).not.toBeNull();
    });
  });

  describe('bad input, permissions and other organisations', () => {
    const refusals: [string, string][] = [
      ['constraints?duration=abc', 'duration must be a whole number from 1 to 604800.'],
      ['constraints?duration=0', 'duration must be a whole number from 1 to 604800.'],
      ['constraints?realPowerP=lots', 'realPowerP must be a number from -10000000 to 10000000.'],
      ['constraints?powerFactor=0.72', 'powerFactor must be from 0.7 to 1 in steps of 0.05.'],
      ['constraints?powerFactor=1.5', 'powerFactor must be from 0.7 to 1 in steps of 0.05.'],
      ['constraints?powerFactor=high', 'powerFactor must be from 0.7 to 1 in steps of 0.05.'],
      ['predictions', 'start must be epoch seconds from 0 to 4102444800.'],
      ['predictions?start=-5', 'start must be epoch seconds from 0 to 4102444800.'],
      ['predictions?start=1&strategy=fastest', 'strategy must be one of greedy, uniform.'],
      ['predictions?start=1&dispatchDuration=1.5&dispatchStart=1', 'dispatchDuration must be a whole number from 1 to 604800.'],
      ['predictions?start=1&dispatchRealPowerP=-3', 'dispatchStart and dispatchDuration are needed with dispatchRealPowerP.'],
      [`predictions?start=${4_000_000_000}`, 'Predictions reach at most 7 days ahead.'],
    ];

    it.each(refusals)('answers 400 to %s: %s', async (path, message) => {
      const res = await get(`/api/powerstations/${fleet}/${path}`);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().data.message).toBe(message);
    });

    it('answers 403 to a user without fleet.dispatches.edit', async () => {
      for (const path of ['constraints', `predictions?start=${hour}`]) {
        const res = await get(`/api/powerstations/${fleet}/${path}`, nobody);
        expect(res.statusCode, path).toBe(403);
        expect(res.json().data.message).toBe(MESSAGES.notAuthorized);
      }
    });

    it('answers 404 to another organisation, never the VPP’s data', async () => {
      for (const path of ['constraints', `predictions?start=${hour}`]) {
        const res = await get(`/api/powerstations/${fleet}/${path}`, otherHeaders);
        expect(res.statusCode, path).toBe(404);
        expect(res.json().data.message).toBe('No such Virtual Power Plant.');
        expect(res.body).not.toContain('realPowerPMin');
      }
    });
  });
});
