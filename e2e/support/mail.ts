// The e-mail the server sends: with no SMTP_URL it writes each message as an .eml file under
// DATA_DIR/outbox (its job worker does, shortly after the request that queued it).
import fs from 'node:fs';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { vi } from 'vitest';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

async function readOutbox(dir: string): Promise<Mail[]> {
  if (!fs.existsSync(dir)) return [];
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.eml'));
  return Promise.all(
    files.map(async (f) => {
      const m = await simpleParser(fs.readFileSync(path.join(dir, f)));
      const to = (Array.isArray(m.to) ? m.to[0] : m.to)?.value[0]?.address ?? '';
      return { to, subject: m.subject ?? '', text: m.text ?? '' };
    }),
  );
}

/** Waits for an e-mail to an address whose subject matches, and answers it. */
export async function waitForMail(app: { dataDir: string }, to: string, subject: RegExp, timeout = 15_000): Promise<Mail> {
  const dir = path.join(app.dataDir, 'outbox');
  return vi.waitFor(
    async () => {
      const mail = (await readOutbox(dir)).find((m) => m.to === to && subject.test(m.subject));
      if (!mail) throw new Error(`no e-mail to ${to} matching ${subject} in ${dir}`);
      return mail;
    },
    { timeout, interval: 250 },
  );
}

/** The path and query of the first link in the mail to the given path. */
export function linkTo(mail: Mail, pathname: string): string {
  const url = mail.text
    .match(/https?:\/\/\S+/g)
    ?.map((u) => new URL(u))
    .find((u) => u.pathname === pathname);
  if (!url) throw new Error(`no ${pathname} link in: ${mail.text}`);
  return url.pathname + url.search;
}
