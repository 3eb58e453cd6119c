import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from './passwords.ts';

describe('password hashes', () => {
  it("are written at the product's scrypt cost, N 16384, r 8, p 1, with a 16-byte salt, and verify only the right password", async () => {
    const stored = await hashPassword('Correct horse 1!');
    const [kind, n, r, p, salt, hash] = stored.split('$');
    expect([kind, n, r, p]).toEqual(['scrypt', '16384', '8', '1']);
    expect(Buffer.from(salt, 'base64')).toHaveLength(16);
    expect(Buffer.from(hash, 'base64')).toHaveLength(32);
    expect(await verifyPassword('Correct horse 1!', stored)).toBe(true);
    expect(await verifyPassword('Correct horse 1?', stored)).toBe(false);
  });

  it('verify at the cost written in the hash, so a cheaper fixture hash still checks the password', async () => {
    const stored = await hashPassword('Fixture pw 1!', { N: 1024 });
    expect(stored.split('$')[1]).toBe('1024');
    expect(await verifyPassword('Fixture pw 1!', stored)).toBe(true);
    expect(await verifyPassword('fixture pw 1!', stored)).toBe(false);
  });

  it('never match a missing hash or one of another kind', async () => {
    expect(await verifyPassword('anything', null)).toBe(false);
    expect(await verifyPassword('anything', undefined)).toBe(false);
    expect(await verifyPassword('anything', 'bcrypt$10$abc')).toBe(false);
  });
});
