import { generate } from 'otplib';
import { describe, expect, it } from 'vitest';
import { checkTotp, newTotpSecret, totpUri } from './totp.ts';

// RFC 6238 Appendix B: the seed is the ASCII digits repeated to the hash's block of key material.
const SEEDS = {
  sha1: '12345678901234567890',
  sha256: '12345678901234567890123456789012',
  sha512: '1234567890123456789012345678901234567890123456789012345678901234',
} as const;

const VECTORS: [number, keyof typeof SEEDS, string][] = [
  [59, 'sha1', '94287082'],
  [59, 'sha256', '46119246'],
  [59, 'sha512', '90693936'],
  [1111111109, 'sha1', '07081804'],
  [1111111109, 'sha256', '68084774'],
  [1111111109, 'sha512', '25091201'],
  [1111111111, 'sha1', '14050471'],
  [1111111111, 'sha256', '67062674'],
  [1111111111, 'sha512', '99943326'],
  [1234567890, 'sha1', '89005924'],
  [1234567890, 'sha256', '91819424'],
  [1234567890, 'sha512', '93441116'],
  [2000000000, 'sha1', '69279037'],
  [2000000000, 'sha256', '90698825'],
  [2000000000, 'sha512', '38618901'],
  [20000000000, 'sha1', '65353130'],
  [20000000000, 'sha256', '77737706'],
  [20000000000, 'sha512', '47863826'],
];

describe('TOTP library against RFC 6238 Appendix B', () => {
  it.each(VECTORS)('at T=%i with %s gives %s', async (epoch, algorithm, expected) => {
    const secret = new TextEncoder().encode(SEEDS[algorithm]);
    expect(await generate({ secret, algorithm, digits: 8, epoch })).toBe(expected);
  });
});

describe('checkTotp', () => {
  const secret = newTotpSecret();
  const epoch = 1_750_000_000;
  const step = Math.floor(epoch / 30);
  const codeAt = (t: number) => generate({ secret, epoch: t });

  it('accepts the current code and reports its step', async () => {
    expect(await checkTotp(secret, await codeAt(epoch), null, epoch)).toEqual({ ok: true, step });
  });

  it('refuses a code from another time as invalid', async () => {
    expect(await checkTotp(secret, await codeAt(epoch + 3600), null, epoch)).toEqual({ ok: false, reason: 'invalid' });
    expect(await checkTotp(secret, await codeAt(epoch - 60), null, epoch)).toEqual({ ok: false, reason: 'invalid' });
  });

  it('refuses the code of a step already used, or of an earlier step, as replayed', async () => {
    const code = await codeAt(epoch);
    expect(await checkTotp(secret, code, step, epoch)).toEqual({ ok: false, reason: 'replayed' });
    expect(await checkTotp(secret, await codeAt(epoch - 30), step, epoch)).toEqual({ ok: false, reason: 'replayed' });
  });

  it('accepts a code from the next step once the previous one was used', async () => {
    expect(await checkTotp(secret, await codeAt(epoch + 30), step, epoch)).toEqual({ ok: true, step: step + 1 });
  });

  it('allows one step of clock drift either way', async () => {
    expect(await checkTotp(secret, await codeAt(epoch - 30), null, epoch)).toEqual({ ok: true, step: step - 1 });
    expect(await checkTotp(secret, await codeAt(epoch + 30), null, epoch)).toEqual({ ok: true, step: step + 1 });
  });
});

describe('totpUri', () => {
  it('names the console and the account for the authenticator app', () => {
    const uri = new URL(totpUri('JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', 'maya@example.com'));
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.searchParams.get('secret')).toBe('JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP');
    expect(uri.searchParams.get('issuer')).toBe('VPP Console');
    expect(decodeURIComponent(uri.pathname)).toContain('maya@example.com');
  });
});
