import type { GridOutage } from '@vpp/shared/outages/schemas';
import { describe, expect, it } from 'vitest';
import { outageRefreshMs, outageSummary, outageTitle, sortOutages } from './outage-format.ts';

const base: GridOutage = {
  id: 1,
  request: { startTime: 1_800_000_000, duration: 7200 },
  reason: 'Storm Approaching',
  outageReason: 'STORM',
  powerstation: { id: 3, name: 'Coast' },
  state: 'UPCOMING',
  createdAt: 1_799_990_000,
  createdBy: 'Rita Retailer',
  cancelledAt: null,
  customerMessage: null,
};

describe('grid outage formats', () => {
  it('titles an outage by its reason and VPP, or Unknown Grid Outage', () => {
    expect(outageTitle(base)).toBe('Storm Approaching - Coast');
    expect(outageTitle({ ...base, reason: null })).toBe('Unknown Grid Outage - Coast');
  });

  it("reads 'Storm Approaching' as storm in the summary, other reasons as written", () => {
    expect(outageSummary(base, 'Australia/Sydney', base.createdAt)).toContain('expected storm outage');
    expect(outageSummary({ ...base, reason: 'Planned Outage' }, 'Australia/Sydney', base.createdAt)).toContain('expected planned outage from');
  });

  it('refreshes every 2 s while new, 10 s while upcoming or in progress, otherwise 5 minutes', () => {
    const s = (t: number) => t * 1000;
    expect(outageRefreshMs(base, s(base.createdAt + 30))).toBe(2000);
    expect(outageRefreshMs(base, s(base.createdAt + 120))).toBe(10_000);
    expect(outageRefreshMs(base, s(base.request.startTime + 60))).toBe(10_000);
    expect(outageRefreshMs(base, s(base.request.startTime + 7200))).toBe(300_000);
    expect(outageRefreshMs({ ...base, cancelledAt: base.createdAt + 100 }, s(base.createdAt + 120))).toBe(300_000);
  });

  it('sorts by start descending, then duration descending', () => {
    const a = { ...base, id: 1 };
    const b = { ...base, id: 2, request: { startTime: base.request.startTime, duration: 9000 } };
    const c = { ...base, id: 3, request: { startTime: base.request.startTime + 60, duration: 300 } };
    expect(sortOutages([a, b, c]).map((o) => o.id)).toEqual([3, 2, 1]);
  });
});
