/** How long any one condition may take to come true on a busy two-core machine (real time). */
export const DEADLINE_MS = 45_000;

/**
 * Polls `check` until it answers something other than undefined or false, and answers that; fails
 * after `deadlineMs`. Tests, the e2e support and the bench wait for conditions with it, never for a
 * fixed time.
 */
export async function waitFor<T>(what: string, check: () => Promise<T | undefined | false> | T | undefined | false, deadlineMs = DEADLINE_MS): Promise<T> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const v = await check();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
