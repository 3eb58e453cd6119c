import { generate } from 'otplib';
import { waitFor } from '../../packages/server/src/test/wait.ts';

const STEP_S = 30;
const currentStep = () => Math.floor(Date.now() / 1000 / STEP_S);

/**
 * Authenticator codes for one user on one server. The server accepts each 30 s time step once per
 * user, and a code one step either side of its clock: so each code handed out is for a later step
 * than the one before (the current step, else the next), and only when that would be two steps
 * ahead does this wait for the next step boundary. A code is good for at least 30 s once given.
 */
export function authenticator(secret: string) {
  let last = Number.NEGATIVE_INFINITY;
  let lastCode = '';
  return {
    /** A code the server has not yet accepted for this user. */
    async next(): Promise<string> {
      const step = Math.max(last + 1, currentStep());
      await waitFor('the clock to reach the step before the next code', () => step <= currentStep() + 1, 2 * STEP_S * 1000);
      last = step;
      lastCode = await generate({ secret, epoch: step * STEP_S });
      return lastCode;
    },
    /** The code `next` gave last: accepted once already, still inside the server's window. */
    previous(): string {
      if (!lastCode) throw new Error('no code given yet');
      return lastCode;
    },
    /** A 6-digit code that no step near now produces: the server must call it invalid. */
    async wrong(): Promise<string> {
      const now = currentStep();
      const near = await Promise.all([-2, -1, 0, 1, 2].map((d) => generate({ secret, epoch: (now + d) * STEP_S })));
      return ['000000', '111111', '222222'].find((c) => !near.includes(c)) as string;
    },
  };
}
