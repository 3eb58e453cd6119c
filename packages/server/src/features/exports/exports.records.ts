import type { RecordMaker } from '../../test/record-owner.ts';

/** A record of the exports area for the generated access-control and read-only-key matrices (test/records.ts gathers them). */
export const RECORD_MAKERS: Record<string, RecordMaker> = {
  // An export of their node (queued; the matrix needs the record, not its files).
  export: async (h, org) => {
    const now = Math.floor(Date.now() / 1000);
    const res = await h.app.inject({
      method: 'POST',
      url: '/analysis/export-jobs',
      headers: org.auth,
      payload: { type: 'operational', params: { start: now - 86400, end: now, queries: ['meter_power'], deploymentUids: [org.nodeId] } },
    });
    return res.json().data.task_id;
  },
};
