// What the event kinds' screen tests answer for the VPP an event goes to, and for the events themselves (tests only).
import type { CurtailmentSetpoint } from '@vpp/shared/curtailments/schemas';
import type { DispatchConstraints, DispatchDetail, DispatchPredictions } from '@vpp/shared/dispatches/schemas';

/** A VPP of three battery homes, as GET /api/powerstations lists it. */
export const VPP = {
  id: 7,
  name: 'Greater Sydney',
  type: 'STATIC',
  filters: { postcodes: [], state: null },
  duid: null,
  nodes: 3,
  namePlate: { batteryCapacity: 40, inverterPower: 15, batteryPower: 15, totalDeployments: 3 },
  createdAt: 1,
};

/** Its constraints for a new dispatch (GET /api/powerstations/7/constraints). */
export const CONSTRAINTS: DispatchConstraints = {
  realPowerPMin: -12.5,
  realPowerPMax: 9.8,
  realPowerAvailable: true,
  powerFactorMin: 0.7,
  powerFactorMax: 1,
  powerFactorAvailable: true,
  powerFactorLeadLag: ['LEADING', 'LAGGING'],
  powerFactorConstraintMessage: null,
  deploymentsAvailable: 3,
  conflictMessage: null,
};

/**
 * A dispatch event 42 of 'Sydney batteries' (a dispatch, or with `patch` a RERT dispatch), created by
 * Rita Retailer an hour before `now`, asking 12 nodes for -250 kW for an hour from `startTime`; in
 * progress, 11 nodes delivering -240.5 kW, unless `patch` says otherwise.
 */
export const dispatchDetail = (now: number, startTime: number, patch: Partial<DispatchDetail> = {}): DispatchDetail => ({
  id: 42,
  state: 'INPROGRESS',
  reason: null,
  triggered: false,
  createdBy: 'Rita Retailer',
  createdAt: now - 3600,
  cancelledAt: null,
  powerstation: { id: 7, name: 'Sydney batteries' },
  request: {
    startTime,
    duration: 3600,
    realPowerP: -250,
    powerFactor: null,
    powerFactorLeadLag: null,
    strategy: 'greedy',
    deploymentsRequested: 12,
  },
  customerMessage: null,
  currentResponse: { realPowerP: -240.5, rejectedRealPowerP: -9.5, deliveredKwh: 40.08, deploymentsResponded: 11 },
  audit: [{ action: 'CREATED', at: now - 3600, by: 'Rita Retailer', detail: null }],
  ...patch,
});

/** A VPP's predictions for `deployments` nodes (GET /api/powerstations/7/predictions, a dispatch's prediction): nothing predicted nor measured yet, unless `patch` says. */
export const predictionsOf = (deployments: number, patch: Partial<DispatchPredictions> = {}): DispatchPredictions => ({
  interval: 300,
  prediction: {},
  adjustedPrediction: null,
  warning: null,
  deployments,
  market: null,
  forecastError: {
    start: 0,
    end: 86_400,
    intervals: 0,
    medianAbsoluteErrorKw: null,
    relativeErrorPercent: null,
    homeMedianAbsoluteErrorKw: null,
    homeRelativeErrorPercent: null,
  },
  ...patch,
});

/** What a dispatch event's detail page is answered at `path` (its detail call's): the event, no response, charge or prediction yet. */
export const dispatchDetailReplies = (path: string, d: DispatchDetail) => ({
  [path]: { status: 'OK', data: d },
  [`${path}/response`]: { status: 'OK', data: { interval: 300, series: {}, total: d.currentResponse } },
  [`${path}/remainingcharge`]: { status: 'OK', data: { interval: 300, remainingCharge: {} } },
  [`${path}/prediction`]: { status: 'OK', data: predictionsOf(d.request.deploymentsRequested) },
});

/** The VPP's ACTIVE default setpoint 5, made an hour before `now`: gross -10 kW, net -3 kW, ramped over 120 s. */
export const setpointOf = (now: number, s: Partial<CurtailmentSetpoint> = {}): CurtailmentSetpoint => ({
  id: 5,
  powerstation: 7,
  powerstationName: 'Greater Sydney',
  created_at: now - 3600,
  status: 'ACTIVE',
  ramp_duration: 120,
  solar_limit: -10,
  grid_limit: -3,
  ...s,
});
