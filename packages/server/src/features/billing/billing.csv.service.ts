import { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { BILLING_MESSAGES } from '@vpp/shared/billing/messages';
import { type BillingEventKind, billingEventName } from '@vpp/shared/billing/schemas';
import { stringify } from 'csv-stringify/sync';
import { type ArrayReader, arrayReader, type CopyReader, copyReader, type Database, type DatabaseSource, databaseSource, readerOf } from '../../db/database.ts';
import { compressedPieces, type StreamEncoding } from '../../platform/compression.ts';
import { CSV_OPTIONS, csvRecords, Pieces, PLAIN } from '../../platform/csv.ts';
import { streamInOrder } from '../../platform/run-in-worker.ts';
import { copyItems, type ItemKeyRange, itemArraysOfDay, itemDaySpans } from './billing.repo.ts';
import { datesOf, summaryPages } from './billing.service.ts';

export { CSV_OPTIONS, csvRecords } from '../../platform/csv.ts';

/** To `d` decimals (the shortest decimal of the nearest double, as JavaScript prints it). */
const round = (n: number, d: number) => Math.round(Number(n) * 10 ** d) / 10 ** d;
/** AUD from integer cents: a whole number of cents over 100 prints with at most 2 decimals. */
const aud = (cents: number | string) => Number(cents) / 100;

/**
 * Rows streamed from the database a page at a time, each page written as one chunk: the next page
 * is read only when the response has taken the last (a pull stream: backpressure), so the file is
 * never whole in memory.
 */
function stream<T>(pages: AsyncGenerator<T[]>, row: (r: T) => unknown[], columns: string[]): Readable {
  return Readable.from(
    (async function* () {
      yield stringify([columns], CSV_OPTIONS);
      for await (const page of pages) yield csvRecords(page.map(row));
    })(),
    { objectMode: false },
  );
}

export const EVENTS_CSV_COLUMNS = ['nmi', 'day', 'ts', 'type', 'amount', 'rate', 'cost', 'event', 'spot_value', 'feed_in_deduction'];
export const SUMMARY_CSV_COLUMNS = ['nmi', 'events', 'amount', 'cost'];

/** A text field as csv-stringify writes it with CSV_OPTIONS: plain text as it is, any other through csv-stringify. */
function csvField(v: string): string {
  return PLAIN.test(v) ? v : stringify([[v]], CSV_OPTIONS).slice(0, -2);
}

/** A text field that repeats (a line's type) escaped once per download. */
function memoised(write: (v: string) => string): (v: string) => string {
  const seen = new Map<string, string>();
  return (v) => {
    let out = seen.get(v);
    if (out === undefined) {
      out = write(v);
      if (seen.size > 100_000) seen.clear();
      seen.set(v, out);
    }
    return out;
  };
}

/**
 * A number to 4 decimals, rounded half away from zero: digits from the integer of ten-thousandths, so
 * no binary fraction shows, and a tiny negative is '0.0000' (no sign).
 */
function fixed4(x: number): string {
  const n = Math.round(Math.abs(x) * 10_000);
  if (n === 0) return '0.0000';
  const frac = n % 10_000;
  return `${x < 0 ? '-' : ''}${(n - frac) / 10_000}.${frac < 10 ? '000' : frac < 100 ? '00' : frac < 1000 ? '0' : ''}${frac}`;
}

/** Integer cents as AUD to 2 decimals, exactly. */
function fixedCents(cents: number): string {
  const n = Math.abs(cents);
  const frac = n % 100;
  return `${cents < 0 ? '-' : ''}${(n - frac) / 100}.${frac < 10 ? '0' : ''}${frac}`;
}

/**
 * One record of the events CSV, written as csv-stringify writes it (billing.csv.integration.test.ts
 * checks it). The lines of one event follow each other: its name, and the rate when it repeats, are
 * the last line's, with no look-up.
 */
function eventRecords() {
  const typeField = memoised((t) => csvField(t.trim() === '' ? BILLING_MESSAGES.supportRequest : t));
  let lastKind = '';
  let lastEvent: number | string = Number.NaN;
  let eventName = '';
  let lastRate = Number.NaN;
  let rateText = '';
  // A spot credit's two sides (AUD, 4 decimals); empty on other lines.
  const side = (v: number | null) => (v === null ? '' : fixed4(v));
  return (
    nmi: string,
    day: string,
    ts: number | string,
    type: string,
    amount: number,
    rate: number,
    cents: number,
    kind: string,
    event: number | string,
    spot: number | null,
    feedIn: number | null,
  ) => {
    if (kind !== lastKind || event !== lastEvent) {
      lastKind = kind;
      lastEvent = event;
      // The event's name ('RERT dispatch 7').
      eventName = csvField(billingEventName(kind as BillingEventKind, Number(event)));
    }
    if (rate !== lastRate) {
      lastRate = rate;
      rateText = fixed4(rate);
    }
    return `${PLAIN.test(nmi) ? nmi : csvField(nmi)},${day},${ts},${typeField(type)},${fixed4(amount)},${rateText},${fixedCents(cents)},${eventName},${side(spot)},${side(feedIn)}\r\n`;
  };
}

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

/**
 * SQLite: the records of the key range a page of rows at a time, as arrays straight off the
 * connection (no object per row), by keyset day by day through the (organisation, day, id) index.
 */
async function* pagedEventLines(read: ArrayReader, part: EventsCsvPart): AsyncGenerator<Uint8Array> {
  const record = eventRecords();
  const pieces = new Pieces();
  for (const day of datesOf(part.start, part.end)) {
    let after = day === part.start ? part.fromId - 1 : 0;
    const before = day === part.end && part.toId !== null ? part.toId : Number.MAX_SAFE_INTEGER;
    for (;;) {
      const rows = await itemArraysOfDay(read, part.orgId, day, after, before, part.size);
      for (const r of rows) {
        const full = pieces.add(
          record(
            r[0] as string,
            day,
            r[1] as number,
            r[2] as string,
            r[3] as number,
            r[4] as number,
            Number(r[5]),
            r[7] as string,
            r[8] as number,
            num(r[9]),
            num(r[10]),
          ),
        );
        if (full) yield full;
      }
      if (rows.length < part.size) break;
      after = Number(rows[rows.length - 1][6]);
      // SQLite reads synchronously on the shared connection: other requests get their turn between pages.
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  const last = pieces.take();
  if (last) yield last;
}

/** COPY's text format escapes these characters of a field with a backslash. */
const COPY_ESCAPES: Record<string, string> = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v' };
const uncopy = (field: string) => (field.includes('\\') ? field.replace(/\\(.)/g, (_, c: string) => COPY_ESCAPES[c] ?? c) : field);

/**
 * PostgreSQL: one COPY of the key range's rows in (day, id) order through the (organisation, day, id)
 * index, streamed by the server as tab-separated text; each chunk's complete lines become records.
 */
async function* copiedEventLines(copy: CopyReader, part: EventsCsvPart): AsyncGenerator<Uint8Array> {
  const record = eventRecords();
  const pieces = new Pieces();
  // COPY writes a null as \N.
  const side = (v: string) => (v === '\\N' ? null : Number(v));
  const decoder = new StringDecoder('utf8');
  const tabs = new Int32Array(10);
  let rest = '';
  for await (const chunk of copyItems(copy, part)) {
    const data = rest + decoder.write(chunk);
    const cut = data.lastIndexOf('\n');
    if (cut < 0) {
      rest = data;
      continue;
    }
    rest = data.slice(cut + 1);
    // Each line's eleven fields sliced straight from the chunk, with no string of the line nor array of its fields.
    for (let at = 0; at < cut; ) {
      const t = tabs;
      let from = at;
      for (let k = 0; k < 10; k++) {
        t[k] = data.indexOf('\t', from);
        from = t[k] + 1;
      }
      const eol = data.indexOf('\n', from);
      const full = pieces.add(
        record(
          uncopy(data.slice(at, t[0])),
          data.slice(t[0] + 1, t[1]),
          data.slice(t[1] + 1, t[2]),
          uncopy(data.slice(t[2] + 1, t[3])),
          Number(data.slice(t[3] + 1, t[4])),
          Number(data.slice(t[4] + 1, t[5])),
          Number(data.slice(t[5] + 1, t[6])),
          data.slice(t[6] + 1, t[7]),
          data.slice(t[7] + 1, t[8]),
          side(data.slice(t[8] + 1, t[9])),
          side(data.slice(t[9] + 1, eol)),
        ),
      );
      if (full) yield full;
      at = eol + 1;
    }
  }
  const last = pieces.take();
  if (last) yield last;
}

/** Where the events CSV is made: in the streaming workers (the default), or on the request's thread. */
export type CsvThread = 'worker' | 'request';

/** A part of a download: the line items of a key range, read in pages of `size` rows (SQLite). */
export interface EventsCsvPart extends ItemKeyRange {
  size: number;
}

/** The records of the part (no header) from `db`, as UTF-8: on PostgreSQL one streamed COPY, on SQLite pages of `size` rows as arrays. */
function eventLines(db: Database, part: EventsCsvPart): AsyncGenerator<Uint8Array> {
  const copy = copyReader(db);
  return copy ? copiedEventLines(copy, part) : pagedEventLines(arrayReader(db), part);
}

/** The records of a part of the events CSV made in a streaming worker (streamInOrder calls it by name) from a reader of its own, as UTF-8. */
export async function* eventsCsvTask(data: EventsCsvPart & { source: DatabaseSource }): AsyncGenerator<Uint8Array> {
  yield* eventLines(await readerOf(data.source), data);
}

/**
 * Line items a part of a download holds (by its items' ids; fewer where another organisation's or
 * another day's items came between): about 1.2 MB of CSV, so that the part after the one being sent
 * is made whole meanwhile, within what a streaming task may make ahead (STREAM_WINDOW pieces of a
 * megabyte): parts of 65,536 items (about 5 MB, more than that) left the second worker waiting its turn
 * and gained little (docs/performance.md).
 */
export const PART_ROWS = 16_384;
/** A download of fewer items than this is made by one worker, leaving the other to other users: 20,000 items took the same time either way (docs/performance.md). */
export const SPLIT_MIN_ROWS = 32_768;
/** Parts a download is split into at most (items far apart by id make many nearly empty parts). */
const MAX_PARTS = 128;

const dayBefore = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);

/**
 * The key ranges the download of [start, end] is made in, in order, together the whole range (items
 * written after this look still fall in one): about `partRows` items each by the ids of the days'
 * first and last items, a day split by id where it holds more. One part (the whole range) when the
 * range holds fewer than SPLIT_MIN_ROWS.
 */
export async function eventsCsvParts(db: Database, whole: EventsCsvPart, partRows: number): Promise<EventsCsvPart[]> {
  const spans = await itemDaySpans(arrayReader(db), whole.orgId, whole.start, whole.end);
  const total = spans.reduce((n, s) => n + s.hi - s.lo + 1, 0);
  if (total < SPLIT_MIN_ROWS) return [whole];
  const count = Math.min(MAX_PARTS, Math.max(2, Math.floor(total / partRows)));
  const parts: EventsCsvPart[] = [];
  let from = { day: whole.start, id: 0 };
  let seen = 0;
  let k = 1;
  for (const s of spans) {
    const span = s.hi - s.lo + 1;
    // Each cut at the k-th share of the items, that falls in this day: the next part starts there.
    for (; k < count && (k * total) / count < seen + span; k++) {
      const at = Math.floor((k * total) / count) - seen;
      if (at <= 0) {
        if (s.day > from.day) {
          parts.push({ ...whole, start: from.day, fromId: from.id, end: dayBefore(s.day), toId: null });
          from = { day: s.day, id: 0 };
        }
      } else if (s.day > from.day || s.lo + at > from.id) {
        parts.push({ ...whole, start: from.day, fromId: from.id, end: s.day, toId: s.lo + at });
        from = { day: s.day, id: s.lo + at };
      }
    }
    seen += span;
  }
  parts.push({ ...whole, start: from.day, fromId: from.id, end: whole.end, toId: null });
  return parts;
}

/**
 * The line items of [start, end] as CSV: nmi, day, ts, type, amount (kWh, 4 decimals), rate ($/kWh,
 * 4 decimals), cost (AUD, 2 decimals), event (the settled event's name, 'Dispatch 52'), and a dispatch credit's two
 * sides (AUD, 4 decimals; empty on other lines): spot_value, what its energy earned at spot, and
 * feed_in_deduction, what the plan's feed-in already pays on the bill for the kWh discharged (docs/settlement.md),
 * in (day, id) order, written by one tight formatter from rows
 * straight off the driver: on PostgreSQL a streamed COPY, on SQLite pages of `size` rows as arrays.
 * With `thread` 'worker' (the default) the range is split into parts by key (eventsCsvParts) read and
 * formatted in the streaming workers at once, each with its own connection (platform/run-in-worker.ts,
 * streamInOrder), and the request's thread sends their pieces in order, after the header: the same
 * bytes as with 'request', where the request's thread makes the whole file itself. With `encoding` (in
 * the workers only) the file is compressed as one stream here, as the server's compression would
 * (platform/compression.ts; the work runs in libuv's threads, not on the request's): one compressor,
 * as Brotli streams cannot be joined. The next rows are read only when the response has taken the
 * last few pieces, so a month of a large fleet streams without the file, or its rows as objects,
 * ever being in memory; a response destroyed half-way (the client gone) stops the reading of every part.
 */
export function eventsCsv(
  db: Database,
  orgId: number,
  start: string,
  end: string,
  opts: { size?: number; thread?: CsvThread; encoding?: StreamEncoding; partRows?: number } = {},
): Readable {
  const whole: EventsCsvPart = { orgId, start, end, fromId: 0, toId: null, size: opts.size ?? 20_000 };
  const header = Buffer.from(stringify([EVENTS_CSV_COLUMNS], CSV_OPTIONS));
  return Readable.from(
    (async function* () {
      if (opts.thread === 'request') {
        yield header;
        yield* eventLines(db, whole);
        return;
      }
      const source = databaseSource(db);
      const parts = (await eventsCsvParts(db, whole, opts.partRows ?? PART_ROWS)).map((p) => ({ ...p, source }));
      const file = (async function* () {
        yield header;
        yield* streamInOrder<Uint8Array>({ module: import.meta.url, run: 'eventsCsvTask' }, parts);
      })();
      yield* opts.encoding ? compressedPieces(file, opts.encoding) : file;
    })(),
    { objectMode: false },
  );
}

/** The summary of [start, end] per customer: nmi, events, amount (kWh), cost (AUD). */
export function summaryCsv(db: Database, orgId: number, start: string, end: string): Readable {
  return stream(summaryPages(db, orgId, start, end), (r) => [r.nmi, Number(r.events), round(Number(r.amount), 4), aud(r.cents)], SUMMARY_CSV_COLUMNS);
}
