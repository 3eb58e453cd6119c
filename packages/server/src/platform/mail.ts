import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import { z } from 'zod';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import { defineJob, enqueueJob, type JobRun } from './jobs.ts';

/** One e-mail: plain text always, HTML when the sender has a richer version. */
const mailMessage = z.object({
  to: z.string().min(1),
  subject: z.string(),
  text: z.string(),
  html: z.string().optional(),
  replyTo: z.string().optional(),
});
export type MailMessage = z.infer<typeof mailMessage>;

export const MAIL_JOB = 'mail.send';

/** Where messages go when no SMTP_URL is set: one .eml file per message. */
export const outboxDir = (config: Config) => path.join(config.dataDir, 'outbox');

interface Mailer {
  send(message: MailMessage, run: Pick<JobRun, 'id' | 'log'>): Promise<void>;
}

/**
 * nodemailer over SMTP when SMTP_URL is set; otherwise the message is rendered by nodemailer's
 * stream transport and written as an .eml file under DATA_DIR/outbox (named by the job, so a
 * retried job rewrites its file instead of adding a second one).
 */
function createMailer(config: Config): Mailer {
  const from = config.MAIL_FROM;
  if (config.SMTP_URL) {
    const transport: Transporter = nodemailer.createTransport(config.SMTP_URL);
    return {
      async send(message, run) {
        const info = await transport.sendMail({ from, messageId: `<job-${run.id}@vpp-console>`, ...message });
        run.log.info({ job: run.id, to: message.to, messageId: info.messageId }, `mail sent: ${message.subject}`);
      },
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(message, run) {
      const info = await transport.sendMail({ from, messageId: `<job-${run.id}@vpp-console>`, ...message });
      const dir = outboxDir(config);
      await fs.mkdir(dir, { recursive: true });
      const file = path.join(dir, `mail-${String(run.id).padStart(8, '0')}.eml`);
      await fs.writeFile(file, info.message as Buffer);
      run.log.info({ job: run.id, to: message.to, file }, `mail written to the outbox: ${message.subject}`);
    },
  };
}

const mailers = new WeakMap<Config, Mailer>();
const mailerFor = (config: Config) => {
  const known = mailers.get(config);
  if (known) return known;
  const m = createMailer(config);
  mailers.set(config, m);
  return m;
};

/**
 * Sends an e-mail through the job queue, so that it survives a restart and is retried when the
 * SMTP server is down. Pass a transaction to send only if it commits.
 */
export async function sendMail(db: Database, message: MailMessage): Promise<void> {
  await enqueueJob(db, mailJob, message);
}

/** Delivers one queued e-mail (at least once: a retry after a crash may send it again). */
export const mailJob = defineJob(MAIL_JOB, mailMessage, (ctx, message, run) => mailerFor(ctx.config).send(message, run));
