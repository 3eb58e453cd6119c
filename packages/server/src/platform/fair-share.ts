import { setImmediate as yieldLoop } from 'node:timers/promises';
import { tooManyRequests } from './errors.ts';

/** The refusal when a user already has as many heavy reads running and waiting as allowed. */
export const FAIR_SHARE_MESSAGE = (running: number, waiting: number) =>
  `Too many heavy requests at once (long-range series, maps): ${running} run and ${waiting} wait for each user. Wait for your earlier ones to finish, then try again.`;

/**
 * A fair share of the server for heavy reads (issue 32 item 5, docs/performance.md): each user runs
 * at most `running` of them at a time; up to `waiting` more wait their turn in order; one beyond that
 * is refused at once with a 429 and FAIR_SHARE_MESSAGE. A heavy read starts after a turn of the
 * event loop, so that the requests already waiting to be read (a /healthz, another user's list) go first.
 */
export class FairShare {
  private readonly users = new Map<string, { running: number; queue: (() => void)[] }>();

  constructor(
    readonly running: number,
    readonly waiting: number,
  ) {}

  async run<T>(user: string, work: () => Promise<T>): Promise<T> {
    let u = this.users.get(user);
    if (!u) {
      u = { running: 0, queue: [] };
      this.users.set(user, u);
    }
    const slot = u;
    if (slot.running >= this.running) {
      if (slot.queue.length >= this.waiting) throw tooManyRequests(FAIR_SHARE_MESSAGE(this.running, this.waiting));
      await new Promise<void>((resolve) => slot.queue.push(resolve));
    } else slot.running++;
    try {
      await yieldLoop();
      return await work();
    } finally {
      const next = slot.queue.shift();
      // The turn passes straight to the next waiting request of the user (running stays the same).
      if (next) next();
      else if (--slot.running === 0) this.users.delete(user);
    }
  }

  /** How many of a user's heavy reads run and wait now. */
  load(user: string): { running: number; waiting: number } {
    const u = this.users.get(user);
    return { running: u?.running ?? 0, waiting: u?.queue.length ?? 0 };
  }
}
