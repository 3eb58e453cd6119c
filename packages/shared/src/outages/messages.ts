/** Grid outages (spec 3 §2.6, §3.5, §8): the texts users see and the defaults. */
export const OUTAGE_MESSAGES = {
  defaultTitle: 'Storm Approaching',
  plannedTitle: 'Planned Outage',
  unknownTitle: 'Unknown Grid Outage',
  empty: 'No grid outages have been found',
  executed: 'Grid Outage Request successfully executed',
  executeFailed: 'Failed to execute Grid Outage Request.',
  cancelled: 'Grid Outage Request successfully cancelled.',
  cancelFailed: 'Failed to cancel Grid Outage Request.',
  loadListFailed: 'Failed to load grid outages.',
  loadFailed: 'Failed to load grid outage.',
  loadResponseFailed: 'Failed to load grid outage response.',
  cancelConfirm: 'Are you sure want to cancel this grid outage?',
  startStep: 'The start must be on a 5-minute boundary.',
  durationStep: 'The duration must be a whole number of 5 minutes.',
  startInPast: 'The start must not be in the past.',
  noBatteryNodes: 'The selected Virtual Power Plant has no commissioned nodes with a battery.',
  fcasNoOutage: 'An FCAS Virtual Power Plant cannot prepare for a grid outage: choose a manual or automatic one.',
  overlaps: (id: number) => `This Virtual Power Plant already has grid outage ${id} at that time: cancel it, or choose a time after it ends.`,
  notCancellable: 'Only an upcoming or in-progress grid outage can be cancelled.',
  optOutClosed: 'This grid outage has ended or was cancelled: it can no longer be opted out of.',
} as const;

export const OUTAGE_REASONS = ['STORM', 'PLANNED'] as const;
export type OutageReason = (typeof OUTAGE_REASONS)[number];
/** The reasons as the New Grid Outage modal names them. */
export const OUTAGE_REASON_LABELS: Record<OutageReason, string> = { STORM: 'Storm', PLANNED: 'Planned Outage' };

/** Default outage duration, seconds (spec 3 §9). */
export const OUTAGE_DEFAULT_DURATION_S = 7200;
/** The event type of a grid outage in the events table and the list's contract_type. */
export const GRID_OUTAGE = 'GRID_OUTAGE';

/** The message title an outage gets when none is given. */
export const defaultOutageTitle = (reason: OutageReason) => (reason === 'PLANNED' ? OUTAGE_MESSAGES.plannedTitle : OUTAGE_MESSAGES.defaultTitle);

/** The customer app's default message for an outage, naming the organisation (spec 3 §2.6). */
export function defaultOutageMessage(reason: OutageReason, organisation: string): string {
  return reason === 'PLANNED'
    ? `${organisation} has been told of planned work on the grid in your area. Your battery will charge to full before the power goes off, so your home keeps power during the outage.`
    : `${organisation} has been warned of a storm approaching your area that may cut the grid. Your battery will charge to full before it arrives, so your home keeps power if the grid goes down.`;
}

/** The word the detail's summary sentence uses for an outage's reason: 'Storm Approaching' reads 'storm'. */
export const outageReasonWord = (reason: string | null) => (reason === OUTAGE_MESSAGES.defaultTitle ? 'storm' : (reason ?? 'grid outage').toLowerCase());
