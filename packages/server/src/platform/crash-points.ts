/**
 * Test-only kill points for the crash tests (`crash.test.ts`): `CRASH_AT=telemetry-write:3` makes
 * the process SIGKILL itself at the third pass through the telemetry-write point, as a power cut
 * or an OOM kill would, with no chance to clean up. main.ts arms the one point the setting names;
 * unarmed (the default, and always in-process tests), a pass costs one comparison.
 */
export const CRASH_POINTS = ['telemetry-write', 'telemetry-fold', 'job', 'vpp-change', 'rert-reschedule', 'settlement', 'export', 'demo-history'] as const;
export type CrashPointName = (typeof CRASH_POINTS)[number];

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
