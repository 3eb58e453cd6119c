import fs from 'node:fs';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import type { AppContext } from '../platform/context.ts';
import { createWorker, type JobDefinition } from '../platform/jobs.ts';
import { mailJob, outboxDir } from '../platform/mail.ts';

export interface SentMail {
  file: string;
  to: string;
  subject: string;
  text: string;
}

/** Runs every due job of the given kinds (e-mail by default) the way the worker would. */
export async function runJobs(ctx: AppContext, jobs: readonly JobDefinition[] = [mailJob]): Promise<number> {
  return createWorker(ctx, jobs).runUntilIdle();
}

/** The .eml files in DATA_DIR/outbox, parsed, oldest first. */
export async function readOutbox(ctx: AppContext): Promise<SentMail[]> {
  const dir = outboxDir(ctx.config);
  if (!fs.existsSync(dir)) return [];
  const files = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.eml'))
    .sort();
  return Promise.all(
    files.map(async (f) => {
      const m = await simpleParser(fs.readFileSync(path.join(dir, f)));
      const to = Array.isArray(m.to) ? m.to[0] : m.to;
      return { file: f, to: to?.value[0]?.address ?? '', subject: m.subject ?? '', text: m.text ?? '' };
    }),
  );
}

/** Sends the queued e-mail and answers the messages to one address, oldest first. */
export async function mailTo(ctx: AppContext, address: string): Promise<SentMail[]> {
  await runJobs(ctx);
  return (await readOutbox(ctx)).filter((m) => m.to === address);
}

/** The first link in a message that starts with the given path (…/password/reset?token=…). */
export function linkIn(mail: SentMail, pathPrefix: string): URL {
  const found = mail.text
    .match(/https?:\/\/\S+/g)
    ?.map((u) => new URL(u))
    .find((u) => u.pathname === pathPrefix);
  if (!found) throw new Error(`no ${pathPrefix} link in: ${mail.text}`);
  return found;
}
