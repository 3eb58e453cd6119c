import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type Database, nowS } from '../db/database.ts';
import { ApiError } from './errors.ts';

/**
 * Marks a one-time token spent. True the first time for an id, false ever after, whichever server
 * process asks: the database's unique key decides.
 */
export async function spendOnce(db: Database, id: string): Promise<boolean> {
  const r = await db
    .insertInto('used_tokens')
    .values({ id, used_at: nowS() })
    .onConflict((oc) => oc.column('id').doNothing())
    .executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0) === 1;
}

/** What a download link grants: one path, to one user, until a time; `once` links work a single time. */
export interface DownloadGrant {
  path: string;
  userId: number;
  expiresAt: number;
  once: boolean;
}

export const DOWNLOAD_LINK_MESSAGE = 'This download link has expired or was already used. Start the download again from the console.';

const b64 = (s: string) => Buffer.from(s).toString('base64url');
const mac = (key: Buffer, body: string) => createHmac('sha256', key).update(body).digest();

/**
 * A token for one download link (CSV, PDF, export file), carried in the link's query instead of the
 * session token: an HMAC over the path, the user, the expiry and a nonce. The session never leaves
 * the browser's memory, and a leaked link opens one file for a short time.
 */
export function signDownload(key: Buffer, grant: { path: string; userId: number; ttlS: number; once?: boolean }, now = nowS()): string {
  const body = b64(JSON.stringify({ p: grant.path, u: grant.userId, e: now + grant.ttlS, o: grant.once ? 1 : 0, n: randomUUID() }));
  return `${body}.${mac(key, body).toString('base64url')}`;
}

/**
 * The grant of a download token presented for `requestPath`, or a 403: forged, altered, for another
 * path, expired, or (for a single-use link) already used.
 */
export async function redeemDownload(db: Database, key: Buffer, token: string, requestPath: string, now = nowS()): Promise<DownloadGrant> {
  const refuse = () => new ApiError(403, 'download_link_invalid', DOWNLOAD_LINK_MESSAGE);
  const [body, sig] = token.split('.');
  if (!body || !sig) throw refuse();
  const expected = mac(key, body);
  const given = Buffer.from(sig, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw refuse();
  let claims: { p?: unknown; u?: unknown; e?: unknown; o?: unknown; n?: unknown };
  try {
    claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    throw refuse();
  }
  if (claims.p !== requestPath || typeof claims.u !== 'number' || typeof claims.e !== 'number' || typeof claims.n !== 'string') throw refuse();
  if (claims.e <= now) throw refuse();
  if (claims.o === 1 && !(await spendOnce(db, `download:${claims.n}`))) throw refuse();
  return { path: claims.p, userId: claims.u, expiresAt: claims.e, once: claims.o === 1 };
}

/** Where generated files (exports, invoices) are kept: a folder under DATA_DIR today, an object store later. */
export interface FileStore {
  /** Writes a file whole (from a buffer, a string or a stream) and answers its size in bytes. */
  write(name: string, data: string | Buffer | Readable): Promise<number>;
  read(name: string): Readable;
  exists(name: string): Promise<boolean>;
  size(name: string): Promise<number>;
  remove(name: string): Promise<void>;
}

/** Names are relative paths of plain segments: no traversal out of the store, no hidden files. */
const SAFE_NAME = /^(?:[A-Za-z0-9][A-Za-z0-9._-]*\/)*[A-Za-z0-9][A-Za-z0-9._-]*$/;

/**
 * The file store on the local disk. A file is written under a temporary name and renamed when
 * complete, so a reader never sees half a file, not even after a crash mid-write.
 */
export function localFileStore(root: string): FileStore {
  const resolve = (name: string) => {
    if (!SAFE_NAME.test(name) || name.split('/').some((s) => s === '..' || s === '.')) throw new Error(`Not a file store name: ${name}`);
    return path.join(root, name);
  };
  return {
    async write(name, data) {
      const file = resolve(name);
      await fsp.mkdir(path.dirname(file), { recursive: true });
      const tmp = `${file}.${randomUUID()}.partial`;
      try {
        if (data instanceof Readable) await pipeline(data, fs.createWriteStream(tmp));
        else await fsp.writeFile(tmp, data);
        await fsp.rename(tmp, file);
      } catch (err) {
        await fsp.rm(tmp, { force: true });
        throw err;
      }
      return (await fsp.stat(file)).size;
    },
    read: (name) => fs.createReadStream(resolve(name)),
    async exists(name) {
      return fsp.stat(resolve(name)).then(
        (s) => s.isFile(),
        () => false,
      );
    },
    async size(name) {
      return (await fsp.stat(resolve(name))).size;
    },
    async remove(name) {
      await fsp.rm(resolve(name), { force: true });
    },
  };
}
