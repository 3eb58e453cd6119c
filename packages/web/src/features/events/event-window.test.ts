import { localDateToEpoch } from '@vpp/shared/time';
import { describe, expect, it } from 'vitest';
import { endTimesAfter, startTimesOfDay } from './event-window.ts';

const SYDNEY = 'Australia/Sydney';

describe("an event's window", () => {
  it('offers the 5-minute starts of a local day, 23 hours on the day daylight saving begins', () => {
    expect(startTimesOfDay(localDateToEpoch('2026-11-25', SYDNEY), SYDNEY)).toHaveLength(288);
    expect(startTimesOfDay(localDateToEpoch('2026-10-04', SYDNEY), SYDNEY)).toHaveLength(276);
    const ends = endTimesAfter(1000 * 300);
    expect(ends[0]).toBe(1001 * 300);
    expect(ends.at(-1)).toBe(1000 * 300 + 86_400);
  });
});
