import { Readable } from 'node:stream';
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

/** Bytes a number field of the events CSV takes at most, a fallback's text included ('-1.7976931348623157e+308.0000'). */
const NUMBER_FIELD_BYTES = 40;

// The bytes of PLAIN: 2 where a plain field may start, 1 where it may go on.
const PLAIN_BYTE = new Uint8Array(256);
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789') PLAIN_BYTE[c.charCodeAt(0)] = 3;
for (const c of ' ._/:-') PLAIN_BYTE[c.charCodeAt(0)] = 1;

/** Whether the UTF-8 bytes [from, to) of `d` are a PLAIN field (so ASCII, written as they are). */
function plainBytes(d: Uint8Array, from: number, to: number): boolean {
  if (to <= from || (PLAIN_BYTE[d[from]] & 2) === 0) return false;
  for (let i = from + 1; i < to; i++) if ((PLAIN_BYTE[d[i]] & 1) === 0) return false;
  return true;
}

/** Whether the bytes [from, to) of `d` are those of `b`. */
function sameBytes(b: Uint8Array, d: Uint8Array, from: number, to: number): boolean {
  if (b.length !== to - from) return false;
  for (let i = 0; i < b.length; i++) if (b[i] !== d[from + i]) return false;
  return true;
}

/** A COPY binary int8 as a number when it is one exactly (within ±2^53), otherwise as a bigint. */
function int8(d: Buffer, at: number): number | bigint {
  const hi = d.readInt32BE(at);
  return hi >= -0x200000 && hi < 0x200000 ? hi * 0x1_0000_0000 + d.readUInt32BE(at + 4) : d.readBigInt64BE(at);
}

/** COPY's binary format: its signature, then a flags word and the length of a header extension. */
const COPY_SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');
/** The events CSV's columns as copyItems reads them. */
const COPY_FIELDS = 11;

/**
 * The events CSV's records written straight into the pieces as UTF-8, each exactly as csv-stringify
 * writes it (billing.csv.integration.test.ts checks it), with no string of the line: numbers digit by
 * digit, text fields that repeat (a line's type, its event's name) escaped once and copied as bytes.
 * The lines of one event follow each other: its name is the last line's, with no look-up. One writer
 * per part; `paged` takes a SQLite row's values, `copied` a PostgreSQL binary COPY row's bytes.
 */
class EventRecords extends Pieces {
  private readonly typeField = memoised((t) => csvField(t.trim() === '' ? BILLING_MESSAGES.supportRequest : t));
  // The last line's type and event as read (a string from SQLite, bytes from a COPY), and as written.
  private typeText: string | null = null;
  private typeBytes: Uint8Array | null = null;
  private typeOut: Uint8Array = Buffer.alloc(0);
  private kindText: string | null = null;
  private kindBytes: Uint8Array | null = null;
  private eventKey = Number.NaN;
  private eventOut: Uint8Array = Buffer.alloc(0);

  private setType(type: string) {
    this.typeOut = Buffer.from(this.typeField(type));
  }

  private setEvent(kind: string, event: number) {
    this.eventKey = event;
    // The event's name ('RERT dispatch 7').
    this.eventOut = Buffer.from(csvField(billingEventName(kind as BillingEventKind, event)));
  }

  /** Room for a line of these variable parts and up to six numbers; the piece completed first, if any. */
  private line(textBytes: number): Uint8Array | undefined {
    return this.room(textBytes + this.typeOut.length + this.eventOut.length + 6 * NUMBER_FIELD_BYTES + 16);
  }

  private ascii(s: string) {
    const buf = this.buf;
    let at = this.at;
    for (let i = 0; i < s.length; i++) buf[at++] = s.charCodeAt(i);
    this.at = at;
  }

  /** An integer as String writes it. */
  private integer(n: number | bigint) {
    if (typeof n === 'number' && Number.isSafeInteger(n)) {
      if (n < 0) this.buf[this.at++] = 45;
      this.digits(Math.abs(n));
    } else this.text(String(n));
  }

  /** fixed4(x), written in place. */
  private fixed4(x: number) {
    const n = Math.round(Math.abs(x) * 10_000);
    if (!(n <= Number.MAX_SAFE_INTEGER)) {
      this.text(fixed4(x));
      return;
    }
    if (n > 0 && x < 0) this.buf[this.at++] = 45;
    const frac = n % 10_000;
    this.digits((n - frac) / 10_000);
    const buf = this.buf;
    const at = this.at;
    buf[at] = 46;
    buf[at + 1] = 48 + Math.floor(frac / 1000);
    buf[at + 2] = 48 + (Math.floor(frac / 100) % 10);
    buf[at + 3] = 48 + (Math.floor(frac / 10) % 10);
    buf[at + 4] = 48 + (frac % 10);
    this.at = at + 5;
  }

  /** fixedCents(cents), written in place. */
  private cents(cents: number) {
    if (!Number.isSafeInteger(cents)) {
      this.text(fixedCents(cents));
      return;
    }
    if (cents < 0) this.buf[this.at++] = 45;
    const n = Math.abs(cents);
    const frac = n % 100;
    this.digits((n - frac) / 100);
    const buf = this.buf;
    const at = this.at;
    buf[at] = 46;
    buf[at + 1] = 48 + Math.floor(frac / 10);
    buf[at + 2] = 48 + (frac % 10);
    this.at = at + 3;
  }

  /** The line's fields after its type: amount, rate, cost, event, and a spot credit's two sides (empty on other lines); then CRLF. */
  private tail(amount: number, rate: number, cents: number, spot: number | null, feedIn: number | null) {
    this.fixed4(amount);
    this.byte(44);
    this.fixed4(rate);
    this.byte(44);
    this.cents(cents);
    this.byte(44);
    this.bytes(this.eventOut);
    this.byte(44);
    if (spot !== null) this.fixed4(spot);
    this.byte(44);
    if (feedIn !== null) this.fixed4(feedIn);
    this.byte(13);
    this.byte(10);
  }

  /** A SQLite row's line (`day` as UTF-8); answers the piece it completes, if it does. */
  paged(
    nmi: string,
    day: Uint8Array,
    ts: number,
    type: string,
    amount: number,
    rate: number,
    cents: number,
    kind: string,
    event: number,
    spot: number | null,
    feedIn: number | null,
  ): Uint8Array | undefined {
    if (type !== this.typeText) {
      this.typeText = type;
      this.setType(type);
    }
    if (kind !== this.kindText || event !== this.eventKey) {
      this.kindText = kind;
      this.setEvent(kind, event);
    }
    const plain = PLAIN.test(nmi);
    const nmiText = plain ? nmi : csvField(nmi);
    const full = this.line(nmiText.length * 3 + day.length);
    if (plain) this.ascii(nmiText);
    else this.text(nmiText);
    this.byte(44);
    this.bytes(day);
    this.byte(44);
    this.integer(ts);
    this.byte(44);
    this.bytes(this.typeOut);
    this.byte(44);
    this.tail(amount, rate, cents, spot, feedIn);
    return full;
  }

  /**
   * A COPY binary row's line: its fields at `at` (each `len` bytes, -1 for a null) in `d`, in
   * copyItems's columns; answers the piece it completes, if it does.
   */
  copied(d: Buffer, at: Int32Array, len: Int32Array): Uint8Array | undefined {
    // Text present, numbers of 8 bytes, the two sides 8 bytes or null.
    if (
      len[0] < 0 ||
      len[1] < 0 ||
      len[3] < 0 ||
      len[7] < 0 ||
      len[2] !== 8 ||
      len[4] !== 8 ||
      len[5] !== 8 ||
      len[6] !== 8 ||
      len[8] !== 8 ||
      (len[9] !== 8 && len[9] !== -1) ||
      (len[10] !== 8 && len[10] !== -1)
    )
      throw new Error('Unexpected field in the events COPY');
    const nmiAt = at[0];
    const nmiEnd = nmiAt + len[0];
    const dayAt = at[1];
    const typeAt = at[3];
    const typeEnd = typeAt + len[3];
    const kindAt = at[7];
    const kindEnd = kindAt + len[7];
    if (this.typeBytes === null || !sameBytes(this.typeBytes, d, typeAt, typeEnd)) {
      this.typeBytes = Buffer.from(d.subarray(typeAt, typeEnd));
      this.setType(d.toString('utf8', typeAt, typeEnd));
    }
    const event = Number(int8(d, at[8]));
    if (event !== this.eventKey || this.kindBytes === null || !sameBytes(this.kindBytes, d, kindAt, kindEnd)) {
      this.kindBytes = Buffer.from(d.subarray(kindAt, kindEnd));
      this.setEvent(d.toString('utf8', kindAt, kindEnd), event);
    }
    const plain = plainBytes(d, nmiAt, nmiEnd);
    const nmiText = plain ? '' : csvField(d.toString('utf8', nmiAt, nmiEnd));
    const full = this.line((plain ? len[0] : nmiText.length * 3) + len[1]);
    if (plain) this.bytes(d, nmiAt, nmiEnd);
    else this.text(nmiText);
    this.byte(44);
    this.bytes(d, dayAt, dayAt + len[1]);
    this.byte(44);
    this.integer(int8(d, at[2]));
    this.byte(44);
    this.bytes(this.typeOut);
    this.byte(44);
    this.tail(
      d.readDoubleBE(at[4]),
      d.readDoubleBE(at[5]),
      Number(int8(d, at[6])),
      len[9] < 0 ? null : d.readDoubleBE(at[9]),
      len[10] < 0 ? null : d.readDoubleBE(at[10]),
    );
    return full;
  }
}

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

/**
 * SQLite: the records of the key range a page of rows at a time, as arrays straight off the
 * connection (no object per row), by keyset day by day through the (organisation, day, id) index.
 */
async function* pagedEventLines(read: ArrayReader, part: EventsCsvPart): AsyncGenerator<Uint8Array> {
  const out = new EventRecords();
  // The last line's type and event kind: a page's lines that repeat them read them as null.
  let type = '';
  let kind = '';
  for (const day of datesOf(part.start, part.end)) {
    const dayBytes = Buffer.from(day);
    let after = day === part.start ? part.fromId - 1 : 0;
    const before = day === part.end && part.toId !== null ? part.toId : Number.MAX_SAFE_INTEGER;
    for (;;) {
      const sameType = type;
      const sameKind = kind;
      const rows = await itemArraysOfDay(read, part.orgId, day, after, before, part.size, sameType, sameKind);
      for (const r of rows) {
        type = r[2] === null ? sameType : (r[2] as string);
        kind = r[7] === null ? sameKind : (r[7] as string);
        const full = out.paged(
          r[0] as string,
          dayBytes,
          r[1] as number,
          type,
          r[3] as number,
          r[4] as number,
          Number(r[5]),
          kind,
          Number(r[8]),
          num(r[9]),
          num(r[10]),
        );
        if (full) yield full;
      }
      if (rows.length < part.size) break;
      after = Number(rows[rows.length - 1][6]);
      // SQLite reads synchronously on the shared connection: other requests get their turn between pages.
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  const last = out.take();
  if (last) yield last;
}

/**
 * PostgreSQL: one COPY of the key range's rows in (day, id) order through the (organisation, day, id)
 * index, streamed by the server in the binary format; each chunk's complete rows become records,
 * read from the bytes where they lie (a row split between chunks is completed from the next).
 */
async function* copiedEventLines(copy: CopyReader, part: EventsCsvPart): AsyncGenerator<Uint8Array> {
  const out = new EventRecords();
  const at = new Int32Array(COPY_FIELDS);
  const len = new Int32Array(COPY_FIELDS);
  let rest: Buffer | null = null;
  let header = true;
  let ended = false;
  for await (const chunk of copyItems(copy, part)) {
    const d: Buffer = rest ? Buffer.concat([rest, chunk]) : chunk;
    rest = null;
    const end = d.length;
    let p = 0;
    if (header) {
      if (end < 19 || end < 19 + d.readUInt32BE(15)) {
        rest = d;
        continue;
      }
      if (!COPY_SIGNATURE.equals(d.subarray(0, COPY_SIGNATURE.length))) throw new Error('Not a binary COPY');
      p = 19 + d.readUInt32BE(15);
      header = false;
    }
    while (p + 2 <= end) {
      const fields = d.readInt16BE(p);
      // The trailer.
      if (fields === -1) {
        ended = true;
        p = end;
        break;
      }
      if (fields !== COPY_FIELDS) throw new Error('Unexpected row in the events COPY');
      let q = p + 2;
      let k = 0;
      for (; k < COPY_FIELDS && q + 4 <= end; k++) {
        const n = d.readInt32BE(q);
        q += 4;
        at[k] = q;
        len[k] = n;
        if (n > 0) q += n;
      }
      if (k < COPY_FIELDS || q > end) break;
      const full = out.copied(d, at, len);
      if (full) yield full;
      p = q;
    }
    if (p < end) rest = d.subarray(p);
  }
  if (!ended || rest) throw new Error('The events COPY ended part-way');
  const last = out.take();
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
