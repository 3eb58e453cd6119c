import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify/sync';
import type { Database } from '../../db/database.ts';
import { itemPages, shownType, summaryPages } from './billing.service.ts';

/**
 * CSV as spreadsheets read it: a header row, RFC 4180 quoting (fields with a comma, quote or line
 * break quoted, quotes doubled, CRLF between records), and formula injection escaped (a text field
 * starting with =, +, -, @, tab or carriage return gets a leading quote). Numbers are written as
 * numbers, so a negative credit stays a number in a spreadsheet.
 */
export const CSV_OPTIONS = { record_delimiter: 'windows', escape_formulas: true, cast: { number: (n: number) => String(n) } } as const;

/** To `d` decimals (the shortest decimal of the nearest double, as JavaScript prints it). */
const round = (n: number, d: number) => Math.round(Number(n) * 10 ** d) / 10 ** d;
/** AUD from integer cents: a whole number of cents over 100 prints with at most 2 decimals. */
const aud = (cents: number | string) => Number(cents) / 100;

/** A text field csv-stringify would write as it is: no quoting needed, nothing a spreadsheet reads as a formula. */
const PLAIN = /^[A-Za-z0-9][A-Za-z0-9 ._/:-]*$/;

/**
 * One page as CSV records. A record of finite numbers and plain text (NMIs, dates, types) is joined
 * directly, exactly as csv-stringify writes it (billing.csv.test.ts checks the two agree); any other
 * record (a comma, a quote, a line break, a leading =, +, -, @) goes through csv-stringify itself.
 * The shortcut is what lets a month of a large fleet stream at a million lines a second.
 */
export function csvRecords(rows: readonly unknown[][]): string {
  let out = '';
  for (const r of rows) {
    let fast = true;
    for (const v of r)
      if (!(typeof v === 'number' ? Number.isFinite(v) : typeof v === 'string' && PLAIN.test(v))) {
        fast = false;
        break;
      }
    out += fast ? `${r.join(',')}\r\n` : stringify([r], CSV_OPTIONS);
  }
  return out;
}

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

export const EVENTS_CSV_COLUMNS = ['nmi', 'day', 'ts', 'type', 'amount', 'rate', 'cost'];
export const SUMMARY_CSV_COLUMNS = ['nmi', 'events', 'amount', 'cost'];

/** The line items of [start, end]: nmi, day, ts, type, amount (kWh), rate ($/kWh), cost (AUD). */
export function eventsCsv(db: Database, orgId: number, start: string, end: string): Readable {
  return stream(
    itemPages(db, orgId, start, end),
    (r) => [r.nmi, r.day, Number(r.ts), shownType(r.type), round(r.amount, 4), round(r.rate, 4), aud(r.cost_cents)],
    EVENTS_CSV_COLUMNS,
  );
}

/** The summary of [start, end] per customer: nmi, events, amount (kWh), cost (AUD). */
export function summaryCsv(db: Database, orgId: number, start: string, end: string): Readable {
  return stream(summaryPages(db, orgId, start, end), (r) => [r.nmi, Number(r.events), round(Number(r.amount), 4), aud(r.cents)], SUMMARY_CSV_COLUMNS);
}
