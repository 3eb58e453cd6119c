/** The exact dispatch texts of spec 3 §4.1, §5 and §8 that server and browser share. */
export const DISPATCH_MESSAGES = {
  noVpp: 'You must create a Virtual Power Plant before you can dispatch.',
  futurePredictions: 'Predictions for future dates are likely to be inaccurate.',
  /**
   * Issue 33 item 1: the New Dispatch modal's warning, before Confirm and Execute, when the energy
   * delivered at the meters (against the homes' baseline) would go against the request: the homes'
   * batteries would already do more than asked on their own.
   */
  wrongWayDelivery: (requestKw: number, ownKw: number, deliveredKwh: number) =>
    requestKw < 0
      ? `Delivered energy would go the wrong way: on their own the homes' batteries would discharge about ${Math.abs(ownKw).toFixed(2)} kW for the homes' own use, more than the ${Math.abs(requestKw).toFixed(2)} kW requested, so at the meters this dispatch would add ${Math.abs(deliveredKwh).toFixed(2)} kWh of import instead of exporting. It would be settled as a cost, not revenue.`
      : `Delivered energy would go the wrong way: on their own the homes' batteries would charge about ${Math.abs(ownKw).toFixed(2)} kW from their solar, more than the ${Math.abs(requestKw).toFixed(2)} kW requested, so at the meters this dispatch would add ${Math.abs(deliveredKwh).toFixed(2)} kWh of export instead of importing. It would be settled on that basis.`,
  futurePredictionsNoPrices: 'Predictions for future dates are likely to be inaccurate and market price predictions are unavailable.',
  multipleRegions: 'This Virtual Power Plant spans multiple NEM regions.',
  leadLagNeedsPowerFactor: 'Leading/lagging can only be set when power factor is less than 1.',
  confirm: 'Are you sure you want to execute this dispatch?',
  defaultMessageTitle: 'GridCredits Event',

  loadFailed: 'Failed to load dispatch.',
  predictionFailed: 'Failed to load dispatch prediction.',
  remainingChargeFailed: 'Failed to load remaining charge.',
  costFailed: 'Failed to load dispatch cost.',
  responseFailed: 'Failed to load dispatch response.',
  constraintsFailed: 'Failed to load dispatch constraints.',
  messagesFailed: 'Failed to load previous dispatch messages.',
  pricesFailed: 'Failed to load dispatch prices.',
  tradingPricesFailed: 'Failed to load trading prices',
  executeFailed: 'Failed to execute Dispatch.',
  executed: 'Dispatch successfully executed',
  noGraphData: 'No data to display on the graph.',

  // The server's own texts: the spec names these rules but gives no words for them.
  /** Modelled on the spec's curtailment warning ('The selected Virtual Power Plant has no curtailable nodes.'). */
  noBatteryNodes: 'The selected Virtual Power Plant has no dispatchable nodes.',
  powerFactorWhenDischarging: 'Power factor can only be set when discharging, or when real power is not available.',
  powerFactorRange: 'powerFactor must be from 0.7 to 1 in steps of 0.05.',
  powerFactorBelowInverters: (min: number) => `The inverters cannot hold a power factor below ${min.toFixed(2)} at this power.`,
  predictionHorizon: 'Predictions reach at most 7 days ahead.',
  /** A dispatch's page while its start is beyond the prediction horizon: what it shows instead. */
  predictionLater:
    'This dispatch starts more than 7 days from now: its prediction is made once it is 7 days away. Until then this page shows its request; the nodes take their orders within 24 hours of the start.',
  dispatchWithoutStart: 'dispatchStart and dispatchDuration are needed with dispatchRealPowerP.',
  /** The spec names a standard default message without giving its words. */
  defaultMessageText: 'Your battery is helping the grid during a GridCredits event. Thank you for taking part.',
  fcasNotDispatchable: 'An FCAS Virtual Power Plant cannot be dispatched: choose a manual or automatic one.',
  startInPast: 'The dispatch cannot start in the past.',
  startStep: 'startTime must be on a 5-minute step.',
  durationStep: 'duration must be a whole number of 5-minute steps.',
  powerStep: 'realPowerP must be on a 0.1 kW step.',
  powerOutOfRange: (min: number, max: number) => `realPowerP must be from ${min} to ${max} kW for this duration.`,
  leadLagRequired: 'Choose leading or lagging when power factor is less than 1.',
  overlaps: (id: number) => `These nodes are already in dispatch ${id} at that time.`,
  /** Never names the events (another organisation's are not the caller's to see): docs/precedence.md. */
  heldElsewhere: (n: number) =>
    `${n} ${n === 1 ? 'node follows' : 'nodes follow'} a grid outage or another organisation's event with precedence at that time, so the range leaves ${n === 1 ? 'it' : 'them'} out.`,
  lockoutTooLong: (hours: number) => `A lockout may last at most ${hours} ${hours === 1 ? 'hour' : 'hours'}.`,
  lockoutTooManyNodes: (max: number) => `Your organisation's lockouts may hold at most ${max} nodes at any one time.`,
  alreadyEnded: 'This dispatch has already ended.',
  alreadyCancelled: 'This dispatch has already been cancelled.',
} as const;
