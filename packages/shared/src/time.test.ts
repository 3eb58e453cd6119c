import { describe, expect, it } from 'vitest';
import { endOfPeriod, localMidnights, PERIOD_INTERVAL_S, periodOfInterval, startOfPeriod, zoneLabel } from './time.ts';

const SYDNEY = 'Australia/Sydney';
/** Epoch seconds of a UTC wall time. */
const utc = (y: number, mo: number, d: number, h = 0, mi = 0) => Date.UTC(y, mo - 1, d, h, mi) / 1000;
const HOUR = 3600;

describe('days in Sydney', () => {
  it('starts a day at local midnight and lasts 24 hours outside the daylight-saving changes', () => {
    // 15 July 2025 09:30 AEST (UTC+10).
    const start = startOfPeriod(utc(2025, 7, 14, 23, 30), 'day', SYDNEY);
    expect(start).toBe(utc(2025, 7, 14, 14));
    expect(endOfPeriod(start, 'day', SYDNEY) - start).toBe(24 * HOUR);
  });

  it('has 23 hours on the first Sunday of October, when clocks go forward', () => {
    // Sunday 5 October 2025: midnight is AEST (UTC+10), the next midnight AEDT (UTC+11).
    const start = startOfPeriod(utc(2025, 10, 5, 2), 'day', SYDNEY);
    expect(start).toBe(utc(2025, 10, 4, 14));
    const end = endOfPeriod(start, 'day', SYDNEY);
    expect(end).toBe(utc(2025, 10, 5, 13));
    expect(end - start).toBe(23 * HOUR);
  });

  it('has 25 hours on the first Sunday of April, when clocks go back', () => {
    // Sunday 6 April 2025: midnight is AEDT (UTC+11), the next midnight AEST (UTC+10).
    const start = startOfPeriod(utc(2025, 4, 6, 3), 'day', SYDNEY);
    expect(start).toBe(utc(2025, 4, 5, 13));
    const end = endOfPeriod(start, 'day', SYDNEY);
    expect(end).toBe(utc(2025, 4, 6, 14));
    expect(end - start).toBe(25 * HOUR);
  });

  it('puts the repeated hour of the April change into the same day', () => {
    // 02:30 local happens twice on 6 April 2025: at 15:30 and 16:30 UTC on the 5th.
    for (const t of [utc(2025, 4, 5, 15, 30), utc(2025, 4, 5, 16, 30)]) expect(startOfPeriod(t, 'day', SYDNEY)).toBe(utc(2025, 4, 5, 13));
  });

  it('keeps a day that starts at its own midnight, and the last second before the next one', () => {
    const start = utc(2025, 10, 4, 14);
    expect(startOfPeriod(start, 'day', SYDNEY)).toBe(start);
    expect(startOfPeriod(utc(2025, 10, 5, 13) - 1, 'day', SYDNEY)).toBe(start);
    expect(startOfPeriod(utc(2025, 10, 5, 13), 'day', SYDNEY)).toBe(utc(2025, 10, 5, 13));
  });

  it('has 24-hour days in Brisbane and Perth, which keep no daylight saving', () => {
    const bne = startOfPeriod(utc(2025, 10, 5, 2), 'day', 'Australia/Brisbane');
    expect(bne).toBe(utc(2025, 10, 4, 14));
    expect(endOfPeriod(bne, 'day', 'Australia/Brisbane') - bne).toBe(24 * HOUR);
    const per = startOfPeriod(utc(2025, 4, 6, 3), 'day', 'Australia/Perth');
    expect(per).toBe(utc(2025, 4, 5, 16));
    expect(endOfPeriod(per, 'day', 'Australia/Perth') - per).toBe(24 * HOUR);
  });

  it('lists the local midnights across both changes', () => {
    expect(localMidnights(utc(2025, 10, 3, 20), utc(2025, 10, 6, 13), SYDNEY)).toEqual([utc(2025, 10, 3, 14), utc(2025, 10, 4, 14), utc(2025, 10, 5, 13)]);
    expect(localMidnights(utc(2025, 4, 5, 13), utc(2025, 4, 7, 14), SYDNEY)).toEqual([utc(2025, 4, 5, 13), utc(2025, 4, 6, 14)]);
  });
});

describe('weeks in Sydney', () => {
  it('start on Monday', () => {
    // Wednesday 9 July 2025, noon: the week began on Monday 7 July.
    const start = startOfPeriod(utc(2025, 7, 9, 2), 'week', SYDNEY);
    expect(start).toBe(utc(2025, 7, 6, 14));
    expect(new Date((start + 10 * HOUR) * 1000).getUTCDay()).toBe(1);
    expect(endOfPeriod(start, 'week', SYDNEY) - start).toBe(7 * 24 * HOUR);
  });

  it('count a Sunday in the week that began the Monday before', () => {
    // Sunday 13 July 2025, 23:00 local.
    expect(startOfPeriod(utc(2025, 7, 13, 13), 'week', SYDNEY)).toBe(utc(2025, 7, 6, 14));
    // Monday 14 July 2025, 00:00 local begins the next week.
    expect(startOfPeriod(utc(2025, 7, 13, 14), 'week', SYDNEY)).toBe(utc(2025, 7, 13, 14));
  });

  it('lose an hour across the October change and gain one across the April change', () => {
    const oct = startOfPeriod(utc(2025, 10, 5, 2), 'week', SYDNEY);
    expect(oct).toBe(utc(2025, 9, 28, 14));
    expect(endOfPeriod(oct, 'week', SYDNEY)).toBe(utc(2025, 10, 5, 13));
    const apr = startOfPeriod(utc(2025, 4, 6, 3), 'week', SYDNEY);
    expect(apr).toBe(utc(2025, 3, 30, 13));
    expect(endOfPeriod(apr, 'week', SYDNEY) - apr).toBe(7 * 24 * HOUR + HOUR);
  });
});

describe('months in Sydney', () => {
  it('start on the first at local midnight and end on the first of the next month', () => {
    const start = startOfPeriod(utc(2025, 7, 20, 5), 'month', SYDNEY);
    expect(start).toBe(utc(2025, 6, 30, 14));
    expect(endOfPeriod(start, 'month', SYDNEY)).toBe(utc(2025, 7, 31, 14));
  });

  it('take the local month, not the UTC one, near its edges', () => {
    // 1 August 2025 08:00 local is still 31 July in UTC.
    expect(startOfPeriod(utc(2025, 7, 31, 22), 'month', SYDNEY)).toBe(utc(2025, 7, 31, 14));
  });

  it('are an hour short in October and an hour long in April', () => {
    const oct = startOfPeriod(utc(2025, 10, 15), 'month', SYDNEY);
    expect(oct).toBe(utc(2025, 9, 30, 14));
    expect(endOfPeriod(oct, 'month', SYDNEY)).toBe(utc(2025, 10, 31, 13));
    expect(endOfPeriod(oct, 'month', SYDNEY) - oct).toBe(31 * 24 * HOUR - HOUR);
    const apr = startOfPeriod(utc(2025, 4, 15), 'month', SYDNEY);
    expect(apr).toBe(utc(2025, 3, 31, 13));
    expect(endOfPeriod(apr, 'month', SYDNEY) - apr).toBe(30 * 24 * HOUR + HOUR);
  });

  it('have 28 days in February and 29 in a leap year', () => {
    const feb = startOfPeriod(utc(2025, 2, 10), 'month', SYDNEY);
    expect(endOfPeriod(feb, 'month', SYDNEY) - feb).toBe(28 * 24 * HOUR);
    const leap = startOfPeriod(utc(2028, 2, 10), 'month', SYDNEY);
    expect(endOfPeriod(leap, 'month', SYDNEY) - leap).toBe(29 * 24 * HOUR);
  });
});

describe('graph intervals', () => {
  it('sample a day at 5 minutes, a week hourly and a month daily', () => {
    expect(PERIOD_INTERVAL_S).toEqual({ day: 300, week: 3600, month: 86400 });
    expect(periodOfInterval(300)).toBe('day');
    expect(periodOfInterval(3600)).toBe('week');
    expect(periodOfInterval(86400)).toBe('month');
    expect(periodOfInterval(30)).toBeNull();
  });
});

describe('zoneLabel', () => {
  it('names a zone by its abbreviation at the moment and its place', () => {
    const january = Date.UTC(2026, 0, 15) / 1000;
    const july = Date.UTC(2026, 6, 15) / 1000;
    expect(zoneLabel('Australia/Brisbane', january)).toBe('AEST (Brisbane)');
    expect(zoneLabel('Australia/Sydney', january)).toBe('AEDT (Sydney)');
    expect(zoneLabel('Australia/Sydney', july)).toBe('AEST (Sydney)');
    expect(zoneLabel('Australia/Perth', july)).toBe('AWST (Perth)');
    expect(zoneLabel('Australia/Adelaide', january)).toBe('ACDT (Adelaide)');
  });
});
