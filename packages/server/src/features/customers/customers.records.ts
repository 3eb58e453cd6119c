import type { RecordMaker } from '../../test/record-owner.ts';

/** A record of the customers area for the generated access-control and read-only-key matrices (test/records.ts gathers them). */
export const RECORD_MAKERS: Record<string, RecordMaker> = {
  // A customer's id is its NMI: their home's.
  customer: async (h, org) => (await h.ctx.db.selectFrom('nodes').select('nmi').where('id', '=', org.nodeId).executeTakeFirstOrThrow()).nmi,
};
