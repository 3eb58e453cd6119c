import type { RecordMaker } from '../../test/record-owner.ts';

/** A record of the nodes area for the generated access-control and read-only-key matrices (test/records.ts gathers them). */
export const RECORD_MAKERS: Record<string, RecordMaker> = {
  node: async (_h, org) => org.nodeId,
};
