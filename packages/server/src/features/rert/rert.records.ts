import { type RecordMaker, theirVpp } from '../../test/record-owner.ts';

/** A record of the rert area for the generated access-control and read-only-key matrices (test/records.ts gathers them). */
export const RECORD_MAKERS: Record<string, RecordMaker> = {
  'rert dispatch': async (h, org) => {
    const now = Math.floor(Date.now() / 1000);
    await h.ctx.telemetry.ingest([{ nodeId: org.nodeId, ts: now - (now % 30) - 30, dt: 30, remaining: 10, soc: null }]);
    const vpp = await theirVpp(h, org);
    // Two hours after the dispatch's: the same node is not in two events at once.
    const startTime = now - (now % 3600) + 4 * 3600;
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/rert-dispatches',
      headers: org.auth,
      payload: { powerstation: vpp.json().data.id, startTime, duration: 1800, realPowerP: -1, customerMessage: 'Their message' },
    });
    return res.json().data.id;
  },
};
