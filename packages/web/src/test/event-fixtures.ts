// What the event kinds' screen tests answer for the VPP an event goes to (tests only).

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
export const CONSTRAINTS = {
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
