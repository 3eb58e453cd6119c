/**
 * Test-only kill points for the crash tests (`*.crash.test.ts`): `CRASH_AT=telemetry-write:3` makes
 * the process SIGKILL itself at the third pass through the telemetry-write point, as a power cut
 * or an OOM kill would, with no chance to clean up. main.ts arms the one point the setting names;
 * unarmed (the default, and always in-process tests), a pass costs one comparison.
 */
/**
 * A point's name is the word its caller passes (`crashPoint('export')`), lower case with dashes: no
 * list to keep, so an area adds a point where its code needs one. `CRASH_AT` is checked against this
 * form; a name no code passes never fires, which the crash test that armed it then reports.
 */
export type CrashPointName = string;
export const CRASH_POINT_FORM = /^[a-z][a-z-]*:[1-9][0-9]*(:[a-z.-]+)?$/;

const kill = () => {
  process.kill(process.pid, 'SIGKILL');
};

let armed: { point: CrashPointName; pass: number; only: string | undefined; crash: () => void } | null = null;
let passes = 0;

/**
 * Arms the point `name:pass` (from the CRASH_AT setting); undefined disarms. In-process tests pass
 * a `crash` that throws instead: the work in hand stops at the same place, minus the process.
 */
export function armCrashPoint(spec: string | undefined, crash: () => void = kill): void {
  passes = 0;
  if (!spec) {
    armed = null;
    return;
  }
  const [point, pass, only] = spec.split(':');
  armed = { point: point as CrashPointName, pass: Number(pass), only, crash };
}

/**
 * Crashes here when this is the armed point's chosen pass. `what` narrows a point (a job's kind):
 * `CRASH_AT=job:1:mail.send` counts only the passes of that kind, so an hourly job that happens to
 * fall due first cannot take the crash.
 */
export function crashPoint(name: CrashPointName, what?: string): void {
  if (armed?.point !== name || (armed.only !== undefined && armed.only !== what)) return;
  if (++passes === armed.pass) armed.crash();
}
