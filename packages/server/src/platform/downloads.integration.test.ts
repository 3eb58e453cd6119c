import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { expect, it } from 'vitest';
import { describeEachDatabase } from '../test/harness.ts';
import { DOWNLOAD_LINK_MESSAGE, localFileStore, redeemDownload, signDownload, spendOnce } from './downloads.ts';

describeEachDatabase('download links', (h) => {
  const key = () => h().ctx.keys.download;
  const refused = { statusCode: 403, code: 'download_link_invalid', message: DOWNLOAD_LINK_MESSAGE };

  it('grants the path, the user and the expiry it was signed for', async () => {
    const token = await signDownload(key(), { path: '/billing/month/csv', userId: 7, ttlS: 60 }, 1000);
    await expect(redeemDownload(h().ctx.db, key(), token, '/billing/month/csv', 1030)).resolves.toEqual({
      path: '/billing/month/csv',
      userId: 7,
      expiresAt: 1060,
      once: false,
      madeBy: null,
    });
    // The sign-in or key that made it travels with it, so that the link dies with them.
    const bySession = await signDownload(key(), { path: '/x', userId: 7, ttlS: 60, madeBy: { session: 'family-1' } }, 1000);
    await expect(redeemDownload(h().ctx.db, key(), bySession, '/x', 1030)).resolves.toMatchObject({ madeBy: { session: 'family-1' } });
    const byKey = await signDownload(key(), { path: '/x', userId: 7, ttlS: 60, madeBy: { apiKey: 12 } }, 1000);
    await expect(redeemDownload(h().ctx.db, key(), byKey, '/x', 1030)).resolves.toMatchObject({ madeBy: { apiKey: 12 } });
    // Not single-use: the same link works again while it lasts.
    await expect(redeemDownload(h().ctx.db, key(), token, '/billing/month/csv', 1031)).resolves.toMatchObject({ userId: 7 });
  });

  it('refuses a link that is expired, for another path, altered, or signed with another key', async () => {
    const token = await signDownload(key(), { path: '/a.csv', userId: 1, ttlS: 60 }, 1000);
    await expect(redeemDownload(h().ctx.db, key(), token, '/a.csv', 1060)).rejects.toMatchObject(refused);
    await expect(redeemDownload(h().ctx.db, key(), token, '/b.csv', 1001)).rejects.toMatchObject(refused);
    const [header, body, sig] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(body, 'base64url').toString()), sub: '2' })).toString('base64url');
    await expect(redeemDownload(h().ctx.db, key(), `${header}.${forged}.${sig}`, '/a.csv', 1001)).rejects.toMatchObject(refused);
    const other = await signDownload(Buffer.alloc(32, 1), { path: '/a.csv', userId: 1, ttlS: 60 }, 1000);
    await expect(redeemDownload(h().ctx.db, key(), other, '/a.csv', 1001)).rejects.toMatchObject(refused);
    await expect(redeemDownload(h().ctx.db, key(), 'not-a-token', '/a.csv', 1001)).rejects.toMatchObject(refused);
  });

  it('lets a single-use link work once, across server processes (the database decides)', async () => {
    const token = await signDownload(key(), { path: '/invoice.pdf', userId: 3, ttlS: 60, once: true }, 1000);
    await expect(redeemDownload(h().ctx.db, key(), token, '/invoice.pdf', 1001)).resolves.toMatchObject({ once: true });
    await expect(redeemDownload(h().ctx.db, key(), token, '/invoice.pdf', 1002)).rejects.toMatchObject(refused);
    expect(await spendOnce(h().ctx.db, 'test:x')).toBe(true);
    expect(await spendOnce(h().ctx.db, 'test:x')).toBe(false);
  });
});

it('keeps files whole under its root: written through a temporary name, read back, removed; no name leaves the root', async () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'vpp-files-'));
  const store = localFileStore(root);
  expect(await store.write('exports/42/data.csv', 'a,b\n1,2\n')).toBe(8);
  expect(await store.write('exports/43.csv', Readable.from(['x,y\n', '3,4\n']))).toBe(8);
  expect(await text(store.read('exports/42/data.csv'))).toBe('a,b\n1,2\n');
  expect(await store.exists('exports/43.csv')).toBe(true);
  expect(await store.size('exports/43.csv')).toBe(8);
  expect(fs.readdirSync(path.join(root, 'exports')).filter((f) => f.endsWith('.partial'))).toEqual([]);
  await store.remove('exports/43.csv');
  expect(await store.exists('exports/43.csv')).toBe(false);
  for (const bad of ['../escape.csv', '/etc/passwd', 'a/../../b', '.hidden', 'a//b']) {
    await expect(store.write(bad, 'x')).rejects.toThrow('Not a file store name');
  }
  // A stream that fails leaves no file, whole or partial.
  const failing = new Readable({
    read() {
      this.destroy(new Error('disk gone'));
    },
  });
  await expect(store.write('exports/44.csv', failing)).rejects.toThrow('disk gone');
  expect(await store.exists('exports/44.csv')).toBe(false);
  expect(fs.readdirSync(path.join(root, 'exports')).filter((f) => f.endsWith('.partial'))).toEqual([]);
  fs.rmSync(root, { recursive: true, force: true });
});
