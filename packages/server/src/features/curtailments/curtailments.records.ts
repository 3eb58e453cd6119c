import { type RecordMaker, theirVpp } from '../../test/record-owner.ts';

/** A record of the curtailments area for the generated access-control and read-only-key matrices (test/records.ts gathers them). */
export const RECORD_MAKERS: Record<string, RecordMaker> = {
  curtailment: async (h, org) => {
    const vpp = await theirVpp(h, org);
    const now = Math.floor(Date.now() / 1000);
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/curtailments',
      headers: org.auth,
      payload: { powerstation: vpp.json().data.id, startTime: now - (now % 3600) + 7200, realPowerP: -1 },
    });
    return res.json().data.id;
  },
};
