import type { RecordMaker } from '../../test/record-owner.ts';

/** A record of the users area for the generated access-control and read-only-key matrices (test/records.ts gathers them). */
export const RECORD_MAKERS: Record<string, RecordMaker> = {
  user: async (_h, org) => org.userId,
};
