import { createHash, randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { jwtVerify, SignJWT } from 'jose';
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
  /** The sign-in (session family) or API key that made the link: the link dies with it. */
  madeBy: DownloadMaker;
}

/** Who made a link: a session's sign-in, an API key, or neither (a link the server made for itself). */
export type DownloadMaker = { session: string } | { apiKey: number } | null;

export const DOWNLOAD_LINK_MESSAGE = 'This download link has expired or was already used. Start the download again from the console.';

/**
 * A token for one download link (CSV, PDF, export file), carried in the link's query instead of the
 * session token: a JWT (HS256, like the access and portal tokens) over the path, the user, the
 * expiry and a nonce. The session never leaves the browser's memory, and a leaked link opens one
 * file for a short time.
 */
export function signDownload(
  key: Buffer,
  grant: { path: string; userId: number; ttlS: number; once?: boolean; madeBy?: DownloadMaker },
  now = nowS(),
): Promise<string> {
  const by = grant.madeBy ?? null;
  return new SignJWT({
    path: grant.path,
    once: grant.once ?? false,
    ...(by && 'session' in by ? { sid: by.session } : {}),
    ...(by && 'apiKey' in by ? { kid: by.apiKey } : {}),
  })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(String(grant.userId))
    .setJti(randomUUID())
    .setIssuedAt(now)
    .setExpirationTime(now + grant.ttlS)
    .sign(key);
}

/**
 * The grant of a download token presented for `requestPath`, or a 403: forged, altered, for another
 * path, expired, or (for a single-use link) already used.
 */
export async function redeemDownload(db: Database, key: Buffer, token: string, requestPath: string, now = nowS()): Promise<DownloadGrant> {
  const refuse = () => new ApiError(403, 'download_link_invalid', DOWNLOAD_LINK_MESSAGE);
  const claims = await jwtVerify(token, key, { algorithms: ['HS256'], currentDate: new Date(now * 1000) }).then(
    (r) => r.payload,
    () => null,
  );
  const userId = Number(claims?.sub);
  if (!claims || claims.path !== requestPath || !Number.isInteger(userId) || typeof claims.exp !== 'number' || typeof claims.jti !== 'string') throw refuse();
  if (claims.once === true && !(await spendOnce(db, `download:${claims.jti}`))) throw refuse();
  const madeBy = typeof claims.sid === 'string' ? { session: claims.sid } : typeof claims.kid === 'number' ? { apiKey: claims.kid } : null;
  return { path: requestPath, userId, expiresAt: claims.exp, once: claims.once === true, madeBy };
}

/** Where generated files (exports, invoices) are kept: a folder under DATA_DIR today, an object store later. */
export interface FileStore {
  /** Writes a file whole (from a buffer, a string or a stream) and answers its size in bytes. */
  write(name: string, data: string | Buffer | Readable): Promise<number>;
  read(name: string): Readable;
  exists(name: string): Promise<boolean>;
  size(name: string): Promise<number>;
  remove(name: string): Promise<void>;
  /**
   * Starts a file written piece by piece (a large export): it is invisible under `name` until
   * `commit`, which makes it durable (fsync) and then renames it; `abort` throws it away.
   */
  create(name: string): Promise<FileWriter>;
  /** Removes a folder of files (`exports/abc`), finished and unfinished alike. */
  removeFolder(folder: string): Promise<void>;
}

/** A file being written: `write` waits while the disk catches up (backpressure); `commit` answers the size in bytes. */
export interface FileWriter {
  write(chunk: string | Uint8Array): Promise<void>;
  commit(): Promise<number>;
  abort(): Promise<void>;
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
    async create(name) {
      const file = resolve(name);
      await fsp.mkdir(path.dirname(file), { recursive: true });
      const tmp = `${file}.${randomUUID()}.partial`;
      const out = fs.createWriteStream(tmp);
      const failed = new Promise<never>((_, reject) => out.once('error', reject));
      failed.catch(() => undefined);
      const finish = () => Promise.race([new Promise<void>((done) => out.end(() => done())), failed]);
      return {
        async write(chunk) {
          if (!out.write(chunk)) await Promise.race([new Promise<void>((r) => out.once('drain', () => r())), failed]);
        },
        async commit() {
          await finish();
          // Written and flushed to the disk before the name appears: a crash never leaves a short file under it.
          const fh = await fsp.open(tmp, 'r+');
          try {
            await fh.sync();
          } finally {
            await fh.close();
          }
          await fsp.rename(tmp, file);
          return (await fsp.stat(file)).size;
        },
        async abort() {
          out.destroy();
          await fsp.rm(tmp, { force: true });
        },
      };
    },
    async removeFolder(folder) {
      await fsp.rm(resolve(folder), { recursive: true, force: true });
    },
  };
}

/** How long a single-use download token works (issue 15: within a minute). */
export const DOWNLOAD_TOKEN_TTL_S = 60;

/**
 * The form of a download's path and query a token is bound to: the path as requested, the query's
 * parameters sorted, `token` left out. The browser's link and the server's request reduce to the same.
 */
export function downloadPathOf(url: string): string {
  const u = new URL(url, 'http://download.invalid');
  const params = [...u.searchParams.entries()]
    .filter(([k]) => k !== 'token')
    .sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0));
  const q = new URLSearchParams(params).toString();
  return q ? `${u.pathname}?${q}` : u.pathname;
}

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * A random single-use token for one download: bound to the user, their organisation and the exact
 * path and query, working once within DOWNLOAD_TOKEN_TTL_S. Only its SHA-256 is stored, in the
 * database, so any server process (and a restarted one) can redeem it. The session never goes in a URL.
 */
export async function issueDownloadToken(
  db: Database,
  grant: { userId: number; organisationId: number; path: string },
  now = nowS(),
): Promise<{ token: string; expiresAt: number; path: string }> {
  const token = randomBytes(32).toString('base64url');
  const path = downloadPathOf(grant.path);
  const expiresAt = now + DOWNLOAD_TOKEN_TTL_S;
  // Spent and expired tokens are of no use to anyone: each issue clears those of a minute ago.
  await db
    .deleteFrom('download_tokens')
    .where('expires_at', '<', now - DOWNLOAD_TOKEN_TTL_S)
    .execute();
  await db
    .insertInto('download_tokens')
    .values({
      token_hash: hashToken(token),
      user_id: grant.userId,
      organisation_id: grant.organisationId,
      path,
      expires_at: expiresAt,
      used_at: null,
      created_at: now,
    })
    .execute();
  return { token, expiresAt, path };
}

/**
 * Spends a download token presented for `requestUrl`: one statement marks it used only if it is
 * unused, unexpired and for this exact path and query, so two processes cannot both spend it.
 * Answers its user and organisation, or a 401 (used, expired, for another download, or unknown).
 */
export async function redeemDownloadToken(db: Database, token: string, requestUrl: string, now = nowS()): Promise<{ userId: number; organisationId: number }> {
  const row = await db
    .updateTable('download_tokens')
    .set({ used_at: now })
    .where('token_hash', '=', hashToken(token))
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .where('path', '=', downloadPathOf(requestUrl))
    .returning(['user_id', 'organisation_id'])
    .executeTakeFirst();
  if (!row) throw new ApiError(401, 'download_link_invalid', DOWNLOAD_LINK_MESSAGE);
  return { userId: row.user_id, organisationId: row.organisation_id };
}
