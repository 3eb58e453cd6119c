import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import type { Database } from '../../db/database.ts';
import { aud, itemPages, shownType, summaryPages } from './billing.service.ts';

/**
 * CSV as spreadsheets read it: a header row, RFC 4180 quoting (fields with a comma, quote or line
 * break quoted, quotes doubled, CRLF between records), and formula injection escaped (a text field
 * starting with =, +, -, @, tab or carriage return gets a leading quote). Numbers are written as
 * numbers, so a negative credit stays a number in a spreadsheet.
 */
const csv = (columns: string[]) => stringify({ header: true, columns, record_delimiter: 'windows', escape_formulas: true, cast: { number: (n) => String(n) } });

const round = (n: number, d: number) => Number(Number(n).toFixed(d));

/** Rows streamed from the database page by page, never the whole file in memory (backpressure holds the next page). */
function stream<T>(pages: AsyncGenerator<T[]>, row: (r: T) => unknown[], columns: string[]): Readable {
  const out = csv(columns);
  Readable.from(
    (async function* () {
      for await (const page of pages) for (const r of page) yield row(r);
    })(),
  )
    .on('error', (err) => out.destroy(err))
    .pipe(out);
  return out;
}

export const EVENTS_CSV_COLUMNS = ['nmi', 'day', 'ts', 'type', 'amount', 'rate', 'cost'];
export const SUMMARY_CSV_COLUMNS = ['nmi', 'events', 'amount', 'cost'];

/** The line items of [start, end]: nmi, day, ts, type, amount (kWh), rate ($/kWh), cost (AUD). */
export function eventsCsv(db: Database, orgId: number, start: string, end: string): Readable {
  return stream(
    itemPages(db, orgId, start, end),
    (r) => [r.nmi, r.day, Number(r.ts), shownType(r.type), round(r.amount, 4), round(r.rate, 4), aud(Number(r.cost_cents))],
    EVENTS_CSV_COLUMNS,
  );
}

/** The summary of [start, end] per customer: nmi, events, amount (kWh), cost (AUD). */
export function summaryCsv(db: Database, orgId: number, start: string, end: string): Readable {
  return stream(summaryPages(db, orgId, start, end), (r) => [r.nmi, Number(r.events), round(Number(r.amount), 4), aud(Number(r.cents))], SUMMARY_CSV_COLUMNS);
}
