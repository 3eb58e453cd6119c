import { type RecordMaker, theirVpp } from '../../test/record-owner.ts';

/** A record of the vpps area for the generated access-control and read-only-key matrices (test/records.ts gathers them). */
export const RECORD_MAKERS: Record<string, RecordMaker> = {
  powerstation: async (h, org) => (await theirVpp(h, org)).json().data.id,
};
