import { describe, expect, it } from 'vitest';
import { digestDueAt } from './digest.ts';

const at = (iso: string) => Date.parse(iso) / 1000;
const iso = (s: number | null) => (s === null ? null : new Date(s * 1000).toISOString());

describe('digestDueAt', () => {
  it('is the top of the hour for hourly digests', () => {
    expect(iso(digestDueAt('HOURLY', at('2025-03-10T05:42:10Z'), 'Australia/Sydney'))).toBe('2025-03-10T05:00:00.000Z');
  });

  it('is 07:00 in the user’s time zone for daily digests, yesterday’s before 07:00', () => {
    // 08:30 in Perth (UTC+8) is 00:30 UTC: today's 07:00 Perth is 23:00 UTC the day before.
    expect(iso(digestDueAt('DAILY', at('2025-03-10T00:30:00Z'), 'Australia/Perth'))).toBe('2025-03-09T23:00:00.000Z');
    // 06:30 in Perth: yesterday's 07:00.
    expect(iso(digestDueAt('DAILY', at('2025-03-09T22:30:00Z'), 'Australia/Perth'))).toBe('2025-03-08T23:00:00.000Z');
  });

  it('keeps 07:00 local across the end of daylight saving in Sydney (6 April 2025)', () => {
    // 5 April: AEDT (UTC+11), 07:00 is 20:00 UTC on the 4th; 6 April: AEST (UTC+10), 07:00 is 21:00 UTC on the 5th.
    expect(iso(digestDueAt('DAILY', at('2025-04-05T12:00:00Z'), 'Australia/Sydney'))).toBe('2025-04-04T20:00:00.000Z');
    expect(iso(digestDueAt('DAILY', at('2025-04-06T12:00:00Z'), 'Australia/Sydney'))).toBe('2025-04-05T21:00:00.000Z');
  });

  it('is Monday 07:00 local for weekly digests', () => {
    // Wednesday 12 March 2025, Sydney: the Monday before, 10 March 07:00 AEDT = 9 March 20:00 UTC.
    expect(iso(digestDueAt('WEEKLY', at('2025-03-12T03:00:00Z'), 'Australia/Sydney'))).toBe('2025-03-09T20:00:00.000Z');
    // Monday 06:00 Sydney is before that week's digest: the previous Monday.
    expect(iso(digestDueAt('WEEKLY', at('2025-03-09T19:00:00Z'), 'Australia/Sydney'))).toBe('2025-03-02T20:00:00.000Z');
  });

  it('has no digest for NOW and NEVER', () => {
    expect(digestDueAt('NOW', 0, 'UTC')).toBeNull();
    expect(digestDueAt('NEVER', 0, 'UTC')).toBeNull();
  });
});
