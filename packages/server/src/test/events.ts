import { vi } from 'vitest';
import type { Harness } from './harness.ts';

// What the API tests of the event kinds (dispatches, RERT, outages, curtailments) share beyond their
// records (factories.ts: homesVpp, batteryVpp, dispatchUsers): what an event left on the wire, and a
// moment inside or after its window.

/** The statuses of an event's node commands (by their source) that are not cancelled: none once the event is cancelled. */
export function commandsLeft(h: Harness, source: string) {
  return h.ctx.db.selectFrom('node_commands').select('status').where('source', '=', source).where('status', '!=', 'CANCELLED').execute();
}

/** Runs `f` with the clock (Date only: timers stay real) at epoch second `at`, then restores the real clock. */
export async function atTime(at: number, f: () => Promise<void>): Promise<void> {
  vi.useFakeTimers({ toFake: ['Date'] });
  try {
    vi.setSystemTime(at * 1000);
    await f();
  } finally {
    vi.useRealTimers();
  }
}
