/** Curtailments and default setpoints (spec 3 §2.7, §4.3, §5, §8, §9): the texts users see and the defaults. */
export const CURTAILMENT_MESSAGES = {
  title: 'Feed-In Management',
  curtailmentsTab: 'Curtailments',
  setpointsTab: 'Default Setpoints',
  newCurtailment: 'New Curtailment',
  newSetpoint: 'New Default Setpoint',
  newSetpointTitle: 'New Curtailment Setpoint',
  createSetpoint: 'Create Setpoint',
  empty: 'No curtailments found.',
  emptySetpoints: 'No curtailment setpoints found.',
  unknownVpp: 'Unknown',

  noVpp: 'You must create a Virtual Power Plant before you can curtail.',
  noVppSetpoint: 'You must create a Virtual Power Plant before you can set a default setpoint.',
  noCurtailableNodes: 'The selected Virtual Power Plant has no curtailable nodes.',
  /** Ours: an FCAS VPP is the market's, not the operator's to limit (as it cannot be dispatched). */
  /** Ours: the spec's default gross limit of 0 stops all solar generation; the setpoint modal says so. */
  grossZero: "A gross limit of 0 kW holds the Virtual Power Plant's solar generation at 0 kW until a newer setpoint replaces it.",
  fcasNotCurtailable: 'An FCAS Virtual Power Plant cannot be curtailed or given a default setpoint: choose a manual or automatic one.',
  futurePredictions: 'Predictions for future dates are likely to be inaccurate.',

  loadListFailed: 'Failed to load curtailments.',
  loadFailed: 'Failed to load curtailment.',
  setpointChangesFailed: 'Failed to fetch curtailment setpoint changes.',
  setpointsFailed: 'Failed to fetch curtailment setpoints.',
  responseFailed: 'Failed to load curtailment response.',
  predictionFailed: 'Failed to load curtailment prediction.',
  constraintsFailed: 'Failed to load curtailment constraints.',
  predictionsFailed: 'Failed to load curtailment predictions.',
  nodesFailed: 'Failed to load curtailment nodes.',
  executeFailed: 'Failed to execute Curtailment.',
  setpointFailed: 'Failed to create new default setpoint.',
  cancelFailed: 'Failed to cancel curtailment.',

  executed: 'Curtailment successfully executed',
  cancelled: 'Curtailment successfully cancelled.',
  setpointCreated: 'Setpoint successfully created',
  // Ours (the spec has no removal): a setpoint can be removed, not only superseded (issue 34).
  removeSetpoint: 'Remove',
  removeSetpointConfirm: "Are you sure want to remove this setpoint? The Virtual Power Plant's standing limits are lifted until a new setpoint is created.",
  setpointRemoved: 'Setpoint successfully removed.',
  setpointRemoveFailed: 'Failed to remove setpoint.',
  setpointNotActive: 'Only the active setpoint can be removed: a superseded or removed one holds no limit.',
  noGraphData: 'No data to display on the graph.',

  // The server's and modals' own texts: the spec names these rules but gives no words for them.
  confirm: 'Are you sure you want to execute this curtailment?',
  cancelConfirm: 'Are you sure you want to cancel this curtailment?',
  startInPast: 'The curtailment cannot start in the past.',
  startStep: 'startTime must be on a 5-minute step.',
  durationStep: 'duration must be a whole number of 5-minute steps.',
  powerStep: 'realPowerP must be on a 0.1 kW step.',
  belowConstraint: (min: number) => `realPowerP must be from ${min} to 0 kW: the Virtual Power Plant's solar cannot give more than ${-min} kW.`,
  notCancellable: 'Only an upcoming or in-progress curtailment can be cancelled.',
  overlaps: (id: number) => `The Virtual Power Plant already has curtailment ${id} at that time.`,
  predictionHorizon: 'Predictions reach at most 7 days ahead.',
  // Ours: an import limit comes only from a network's VTN (issue 31), never from the New Curtailment modal.
  componentChoice: 'component must be one of grid, solar.',
  importFromVtnOnly: "component import is made only from a network's OpenADR VTN (an IMPORT_CAPACITY_LIMIT event): choose grid or solar.",
  noBatteryHomes: 'The selected Virtual Power Plant has no homes with a battery to hold an import limit.',
} as const;

/** Curtailment component values users choose (spec 3 §9): grid is a net limit (export at the meters), solar a gross one (solar generation). */
export const CURTAILMENT_COMPONENTS = ['grid', 'solar'] as const;
export type CurtailmentComponent = (typeof CURTAILMENT_COMPONENTS)[number];
/**
 * Every component a curtailment may have. Ours beyond the spec: `import`, a network's import capacity
 * limit (OpenADR IMPORT_CAPACITY_LIMIT) that the console, as a VEN of the network's VTN, makes into a
 * curtailment; its realPowerP is the VPP's maximum net import (kW, 0 or more). Never chosen by a user.
 */
export const CURTAILMENT_ALL_COMPONENTS = ['grid', 'solar', 'import'] as const;
export type AnyCurtailmentComponent = (typeof CURTAILMENT_ALL_COMPONENTS)[number];
/** How a component is shown: solar displays as Gross, grid as Net (spec 3 §3.6), import (ours) as Import. */
export const curtailmentComponentLabel = (component: string): 'Net' | 'Gross' | 'Import' =>
  component === 'solar' ? 'Gross' : component === 'import' ? 'Import' : 'Net';
/** How a component's limit is named on the graph and in the node history: 'Net limit', 'Gross limit', 'Import limit'. */
export const curtailmentLimitLabel = (component: string) => `${curtailmentComponentLabel(component)} limit`;

/** The event type of a curtailment in the events table, the node history and the VPP event list. */
export const CURTAILMENT = 'CURTAILMENT';
/** Default curtailment duration, seconds (spec 3 §9). */
export const CURTAILMENT_DEFAULT_DURATION_S = 14_400;
/** Default setpoint ramp duration, seconds (spec 3 §9). */
export const SETPOINT_DEFAULT_RAMP_S = 120;
/** The longest setpoint ramp accepted (the spec states no bound; a day is far beyond any DER's ramp). */
export const SETPOINT_MAX_RAMP_S = 86_400;
/** The real power slider's step, kW (spec 3 §5). */
export const CURTAILMENT_POWER_STEP_KW = 0.1;
export const SETPOINT_STATUSES = ['ACTIVE', 'INACTIVE'] as const;
export type SetpointStatus = (typeof SETPOINT_STATUSES)[number];

/** Refresh periods (spec 3 §4): the detail while in progress, and its node table. */
export const CURTAILMENT_DETAIL_REFRESH_MS = 8_000;
export const CURTAILMENT_NODES_REFRESH_MS = 15_000;

/**
 * The title of a curtailment's detail (spec 3 §2.7): its reason when it was triggered, otherwise
 * its VPP's name, 'Unknown' when the VPP is not found.
 */
export function curtailmentTitle(c: { triggered: boolean; reason: string | null; powerstation: { name: string } | null }): string {
  if (c.triggered && c.reason) return c.reason;
  return c.powerstation?.name ?? CURTAILMENT_MESSAGES.unknownVpp;
}
