import { RERT_MESSAGES } from '@vpp/shared/rert/messages';

/** Texts of the RERT screens the spec does not give. */
export const RERT_TEXTS = {
  noDispatches: 'No RERT dispatches have been found',
  notFound: 'This RERT dispatch could not be found. It may have been removed, or it belongs to another organisation.',
  backToList: 'Back to RERT Dispatches',
  powerHint: 'RERT discharges the batteries (negative power); 0 locks them out.',
  executeConfirm: 'Are you sure you want to execute this RERT dispatch?',
  rescheduleConfirm: RERT_MESSAGES.rescheduleConfirm,
} as const;

/** The list and detail paths (spec 3 §2.1). */
export const RERT_LIST_PATH = '/virtual-power-plants/rert-dispatches?limit=10&offset=0';
export const rertPath = (id: number) => `/virtual-power-plants/rert-dispatches/${id}`;
