import { describe, expect, it } from 'vitest';
import { padRange } from '../../components/time-series-chart-types.ts';
import {
  detailRefreshMs,
  dispatchStatusLabel,
  formatAud,
  formatDispatchStart,
  graphScale,
  localiseStamps,
  percentNotIncluded,
  REFRESH_FAST_MS,
  REFRESH_IN_PROGRESS_MS,
  REFRESH_SLOW_MS,
} from './event-format.ts';

const at = (iso: string) => Date.parse(iso) / 1000;

describe('dispatch start (spec 3 §2.2)', () => {
  const now = at('2026-11-24T01:00:00Z');

  it("reads 'D MMMM, h:mm a' in the current year, in the user's zone", () => {
    // 05:05 UTC is 4:05 pm in Sydney (daylight saving, +11).
    expect(formatDispatchStart(at('2026-11-24T05:05:00Z'), 'Australia/Sydney', now)).toBe('24 November, 4:05 pm');
    expect(formatDispatchStart(at('2026-09-02T23:00:00Z'), 'Australia/Sydney', now)).toBe('3 September, 9:00 am');
    // Midnight and noon are 12, not 0.
    expect(formatDispatchStart(at('2026-06-30T14:00:00Z'), 'Australia/Sydney', now)).toBe('1 July, 12:00 am');
    expect(formatDispatchStart(at('2026-07-01T02:30:00Z'), 'Australia/Sydney', now)).toBe('1 July, 12:30 pm');
  });

  it("reads 'D MMM YY, h:mm a' in another year, with a three-letter month", () => {
    expect(formatDispatchStart(at('2025-09-14T08:15:00Z'), 'Australia/Sydney', now)).toBe('14 Sep 25, 6:15 pm');
    expect(formatDispatchStart(at('2027-01-03T22:00:00Z'), 'Australia/Perth', now)).toBe('4 Jan 27, 6:00 am');
  });

  it("judges the year in the user's zone: New Year's Eve in UTC is already next year in Sydney", () => {
    const newYearsEve = at('2026-12-31T14:00:00Z'); // 1 Jan 2027, 1:00 am in Sydney
    expect(formatDispatchStart(at('2026-12-31T13:30:00Z'), 'Australia/Sydney', newYearsEve)).toBe('1 January, 12:30 am');
    expect(formatDispatchStart(at('2026-12-31T12:00:00Z'), 'Australia/Sydney', newYearsEve)).toBe('31 Dec 26, 11:00 pm');
    expect(formatDispatchStart(at('2026-12-31T12:00:00Z'), 'UTC', newYearsEve)).toBe('31 December, 12:00 pm');
  });
});

describe('times around a daylight-saving change (issue 34 item 9)', () => {
  const now = at('2027-03-01T00:00:00Z');

  it('names the zone where a local time repeats, so two starts never read alike', () => {
    // Sydney leaves daylight saving at 3:00 am AEDT on 4 April 2027 (16:00 UTC): 2:00–3:00 am happens twice.
    const first = formatDispatchStart(at('2027-04-03T15:30:00Z'), 'Australia/Sydney', now);
    const second = formatDispatchStart(at('2027-04-03T16:30:00Z'), 'Australia/Sydney', now);
    expect(first).toBe('4 April, 2:30 am AEDT');
    expect(second).toBe('4 April, 2:30 am AEST');
    // An end within the repeated hour reads after its start: 2:45 am AEDT to 2:15 am AEST.
    expect(formatDispatchStart(at('2027-04-03T15:45:00Z'), 'Australia/Sydney', now)).toBe('4 April, 2:45 am AEDT');
    expect(formatDispatchStart(at('2027-04-03T16:15:00Z'), 'Australia/Sydney', now)).toBe('4 April, 2:15 am AEST');
  });

  it('leaves every other time as it was, the spring change included', () => {
    expect(formatDispatchStart(at('2027-04-03T14:30:00Z'), 'Australia/Sydney', now)).toBe('4 April, 1:30 am');
    expect(formatDispatchStart(at('2027-04-03T17:30:00Z'), 'Australia/Sydney', now)).toBe('4 April, 3:30 am');
    // 3 October 2027: 2:00 am AEST jumps to 3:00 am AEDT; nothing repeats.
    expect(formatDispatchStart(at('2027-10-02T16:30:00Z'), 'Australia/Sydney', now)).toBe('3 October, 3:30 am');
    expect(formatDispatchStart(at('2027-04-03T15:30:00Z'), 'Australia/Brisbane', now)).toBe('4 April, 1:30 am');
  });
});

describe('audit details (issue 34 item 8)', () => {
  it("writes the server's UTC stamps in the user's zone", () => {
    const now = at('2026-11-24T01:00:00Z');
    expect(localiseStamps('Rescheduled from 2026-11-28T05:00:00Z for 240 min to 2026-11-29T06:30:00Z for 60 min.', 'Australia/Sydney', now)).toBe(
      'Rescheduled from 28 November, 4:00 pm for 240 min to 29 November, 5:30 pm for 60 min.',
    );
    expect(localiseStamps('No stamps here.', 'Australia/Sydney', now)).toBe('No stamps here.');
  });
});

describe('status labels (spec 3 §4)', () => {
  it("shows INPROGRESS as 'In Progress', and a cancelled dispatch as Cancelled", () => {
    expect(dispatchStatusLabel({ state: 'UPCOMING', cancelledAt: null })).toBe('Upcoming');
    expect(dispatchStatusLabel({ state: 'INPROGRESS', cancelledAt: null })).toBe('In Progress');
    expect(dispatchStatusLabel({ state: 'COMPLETED', cancelledAt: null })).toBe('Completed');
    expect(dispatchStatusLabel({ state: 'UPCOMING', cancelledAt: 1_700_000_000 })).toBe('Cancelled');
  });
});

describe('detail refresh period (spec 3 §4)', () => {
  const start = at('2026-11-24T06:00:00Z');
  const dispatch = (createdAt: number, cancelledAt: number | null = null) => ({
    createdAt,
    cancelledAt,
    request: { startTime: start, duration: 3600 },
  });
  const ms = (s: number) => s * 1000;

  it('refreshes every 2 s for a minute after the dispatch is created', () => {
    const created = start - 7200;
    expect(detailRefreshMs(dispatch(created) as never, ms(created + 1))).toBe(REFRESH_FAST_MS);
    expect(detailRefreshMs(dispatch(created) as never, ms(created + 59))).toBe(REFRESH_FAST_MS);
    expect(detailRefreshMs(dispatch(created) as never, ms(created + 60))).toBe(REFRESH_SLOW_MS);
  });

  it('refreshes every 8 s while in progress, every 5 minutes once completed', () => {
    const created = start - 86_400;
    expect(detailRefreshMs(dispatch(created) as never, ms(start))).toBe(REFRESH_IN_PROGRESS_MS);
    expect(detailRefreshMs(dispatch(created) as never, ms(start + 3599))).toBe(REFRESH_IN_PROGRESS_MS);
    expect(detailRefreshMs(dispatch(created) as never, ms(start + 3600))).toBe(REFRESH_SLOW_MS);
  });

  it('refreshes an upcoming dispatch every 5 minutes, and once more as it starts', () => {
    const created = start - 86_400;
    expect(detailRefreshMs(dispatch(created) as never, ms(start - 3600))).toBe(REFRESH_SLOW_MS);
    expect(detailRefreshMs(dispatch(created) as never, ms(start - 120))).toBe(120_500);
    expect(detailRefreshMs(dispatch(created) as never, ms(start - 1))).toBe(REFRESH_FAST_MS);
  });

  it('does not treat a cancelled dispatch as in progress', () => {
    const created = start - 86_400;
    expect(detailRefreshMs(dispatch(created, start - 600) as never, ms(start + 60))).toBe(REFRESH_SLOW_MS);
  });
});

describe('graph rules (spec 3 §9)', () => {
  it('pads the y-domain by 22% of the span on both sides', () => {
    expect(padRange(-100, 100, 0.22)).toEqual([-144, 144]);
    expect(padRange(0, 50, 0.22)).toEqual([-11, 61]);
    const [lo, hi] = padRange(20, 20, 0.22);
    expect(lo).toBeLessThan(20);
    expect(hi).toBeGreaterThan(20);
  });

  it('shows MW or MWh over 1000, kW or kWh otherwise', () => {
    expect(graphScale([12, -999.9, null], false)).toEqual({ unit: 'kW', factor: 1 });
    expect(graphScale([-1500, 3], false)).toEqual({ unit: 'MW', factor: 1 / 1000 });
    expect(graphScale([1200], true)).toEqual({ unit: 'MWh', factor: 1 / 1000 });
    expect(graphScale([800], true)).toEqual({ unit: 'kWh', factor: 1 });
  });
});

describe('cost', () => {
  it('shows AUD with 2 decimals', () => {
    expect(formatAud(1234.5)).toBe('$1,234.50');
    expect(formatAud(-12)).toBe('-$12.00');
  });

  it('warns of a partial settlement with the percent of nodes not included', () => {
    expect(percentNotIncluded(null)).toBeNull();
    expect(percentNotIncluded(1)).toBeNull();
    expect(percentNotIncluded(0.75)).toBe('25');
    expect(percentNotIncluded(0.876)).toBe('12.4');
    expect(percentNotIncluded(0.9999)).toBe('0.1');
  });
});
