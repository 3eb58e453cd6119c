import { describe, expect, it } from 'vitest';
import { notificationDateLabel } from './day-label.ts';

const at = (iso: string) => Date.parse(iso) / 1000;

describe('notificationDateLabel', () => {
  // 10:00 on Sunday 6 April 2025 in Sydney, the day daylight saving ends (00:00 UTC).
  const now = Date.parse('2025-04-06T00:00:00Z');

  it('says Today for the same local day, even across the change of offset', () => {
    expect(notificationDateLabel(at('2025-04-05T13:30:00Z'), 'Australia/Sydney', now)).toBe('Today, 12:30 am');
    expect(notificationDateLabel(at('2025-04-05T23:59:00Z'), 'Australia/Sydney', now)).toBe('Today, 9:59 am');
  });

  it('says Yesterday for the local day before', () => {
    expect(notificationDateLabel(at('2025-04-05T12:59:00Z'), 'Australia/Sydney', now)).toBe('Yesterday, 11:59 pm');
  });

  it('gives the full date further back, in the account’s zone', () => {
    expect(notificationDateLabel(at('2025-04-03T01:00:00Z'), 'Australia/Sydney', now)).toBe('Thursday 3 April 2025, 12:00 pm');
    // 23:30 UTC on the 4th is already the 5th in Perth, which is yesterday there (Perth's today is the 6th).
    expect(notificationDateLabel(at('2025-04-04T23:30:00Z'), 'Australia/Perth', now)).toBe('Yesterday, 7:30 am');
  });
});
