import { type RecordMaker, theirVpp } from '../../test/record-owner.ts';

/** A record of the dispatches area for the generated access-control and read-only-key matrices (test/records.ts gathers them). */
export const RECORD_MAKERS: Record<string, RecordMaker> = {
  dispatch: async (h, org) => {
    // A reporting battery makes the VPP dispatchable.
    const now = Math.floor(Date.now() / 1000);
    await h.ctx.telemetry.ingest([{ nodeId: org.nodeId, ts: now - (now % 30) - 30, dt: 30, remaining: 10, soc: null }]);
    const vpp = await theirVpp(h, org);
    const startTime = now - (now % 3600) + 7200;
    const res = await h.app.inject({
      method: 'POST',
      url: '/dispatch',
      headers: org.auth,
      payload: { powerstation: vpp.json().data.id, startTime, duration: 1800, realPowerP: -1, customerMessage: 'Their message' },
    });
    return res.json().data.id;
  },
};
