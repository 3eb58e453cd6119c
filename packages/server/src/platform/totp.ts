import { APP_TITLE } from '@vpp/shared/constants';
import { generateSecret, generateURI, verify } from 'otplib';

/** A new 160-bit TOTP secret, base32. */
export const newTotpSecret = (): string => generateSecret({ length: 20 });

/** The otpauth:// URI an authenticator app scans. */
export const totpUri = (secret: string, account: string): string => generateURI({ issuer: APP_TITLE, label: account, secret });

export type TotpCheck = { ok: true; step: number } | { ok: false; reason: 'invalid' | 'replayed' };

/**
 * Checks a 6-digit RFC 6238 code (30 s steps, SHA-1), allowing one step of clock drift either way.
 * A code whose step is not later than the last accepted one is a replay: each code works once.
 */
export async function checkTotp(secret: string, code: string, lastStep: number | null, epoch = Date.now() / 1000): Promise<TotpCheck> {
  const result = await verify({ secret, token: code, epoch: Math.floor(epoch), epochTolerance: 30 });
  if (!result.valid) return { ok: false, reason: 'invalid' };
  // otplib reports the matched step as `timeStep` for TOTP (its HOTP result has none).
  const step = 'timeStep' in result ? (result.timeStep as number) : Math.floor(epoch / 30) + result.delta;
  if (lastStep != null && step <= lastStep) return { ok: false, reason: 'replayed' };
  return { ok: true, step };
}
