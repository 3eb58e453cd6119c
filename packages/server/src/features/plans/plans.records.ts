import type { RecordMaker } from '../../test/record-owner.ts';

/** A record of the plans area for the generated access-control and read-only-key matrices (test/records.ts gathers them). */
export const RECORD_MAKERS: Record<string, RecordMaker> = {
  plan: async (h, org) => {
    const res = await h.app.inject({
      method: 'POST',
      url: '/contracts/plan',
      headers: org.auth,
      payload: {
        name: 'Their plan',
        planCode: 'THEIRS-1',
        tariffType: 'FLAT_RATE',
        operationalNetworkUid: 'ausgrid',
        startDate: '2026-01-01',
        dailyCharge: '1',
        feedInTariff: '0.05',
        description: 'Their message',
        rates: [{ label: 'Base Rate', isBaseRate: true, blocks: [{ onset: '0', price: '0.25' }], periods: [] }],
      },
    });
    return res.json().data.uid;
  },
};
