import { Readable } from 'node:stream';
import { BILLING_MESSAGES } from '@vpp/shared';
import { stringify } from 'csv-stringify/sync';
import { type RawBuilder, sql } from 'kysely';
import type { Database, DialectName } from '../../db/database.ts';
import { CSV_OPTIONS, csvRecords } from '../../platform/csv.ts';
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

export const EVENTS_CSV_COLUMNS = ['nmi', 'day', 'ts', 'type', 'amount', 'rate', 'cost'];
export const SUMMARY_CSV_COLUMNS = ['nmi', 'events', 'amount', 'cost'];

/** The first characters csv-stringify's escape_formulas guards (a leading quote makes the field text). */
const FORMULA_STARTS = ['=', '+', '-', '@', '\t', '\r', '\uFF1D', '\uFF0B', '\uFF0D', '\uFF20'];

/**
 * A text column as csv-stringify writes it with CSV_OPTIONS, in SQL: a formula's first character
 * escaped with a leading quote, then the field quoted (quotes doubled) when it holds a quote, a comma
 * or a line break. billing.csv.test.ts checks it against csv-stringify on both databases.
 */
function csvText(x: RawBuilder<string>): RawBuilder<string> {
  const escaped = sql<string>`case when substr(${x}, 1, 1) in (${sql.join(FORMULA_STARTS)}) then ${"'"} || ${x} else ${x} end`;
  return sql<string>`case when ${x} like ${'%"%'} or ${x} like ${'%,%'} or ${x} like ${'%\n%'} or ${x} like ${'%\r%'}
    then ${'"'} || replace(${escaped}, ${'"'}, ${'""'}) || ${'"'} else ${escaped} end`;
}

/**
 * A number to `d` decimals as text (1.25 → '1.2500', −0.15 → '-0.15' at 2), alike in both databases:
 * rounded half away from zero, and a tiny negative written '0.0000' (SQLite's printf would keep the sign).
 */
const fixed = (dialect: DialectName, x: RawBuilder<unknown>, d: number) =>
  dialect === 'postgres' ? sql<string>`round((${x})::numeric, ${sql.lit(d)})::text` : sql<string>`printf(${`%.${d}f`}, round(${x}, ${sql.lit(d)}) + 0.0)`;

/**
 * The line items of [start, end] as CSV: nmi, day, ts, type, amount (kWh, 4 decimals), rate ($/kWh,
 * 4 decimals), cost (AUD, 2 decimals). The database writes each record and hands back each page of
 * `size` records as one string (joined in id order), read by keyset day by day through the
 * (organisation, day, id) index; the next page is read only when the response has taken the last. So
 * a month of a large fleet streams without the file, or its rows as objects, ever being in memory.
 */
export function eventsCsv(db: Database, dialect: DialectName, orgId: number, start: string, end: string, size = 10_000): Readable {
  const type = sql<string>`case when trim(type) = '' then ${BILLING_MESSAGES.supportRequest} else type end`;
  const line = sql<string>`${csvText(sql`nmi`)} || ',' || day || ',' || ts || ',' || ${csvText(type)} || ',' || ${fixed(dialect, sql`amount`, 4)}
    || ',' || ${fixed(dialect, sql`rate`, 4)} || ',' || ${fixed(dialect, sql`cost_cents / 100.0`, 2)}`;
  const joined = dialect === 'postgres' ? sql<string>`string_agg(line, ${'\r\n'} order by id)` : sql<string>`group_concat(line, ${'\r\n'} order by id)`;
  return Readable.from(
    (async function* () {
      yield stringify([EVENTS_CSV_COLUMNS], CSV_OPTIONS);
      for (const day of datesOf(start, end)) {
        let after = 0;
        for (;;) {
          const page = (
            await sql<{ n: number | string; last: number | string | null; text: string | null }>`
              select count(*) as n, max(id) as last, ${joined} as text from (
                select id, ${line} as line from billing_items
                where organisation_id = ${orgId} and day = ${day} and id > ${after}
                order by id limit ${size}
              ) page`.execute(db)
          ).rows[0];
          if (page.text) yield `${page.text}\r\n`;
          if (Number(page.n) < size || page.last === null) break;
          after = Number(page.last);
        }
      }
    })(),
    { objectMode: false },
  );
}

/** The summary of [start, end] per customer: nmi, events, amount (kWh), cost (AUD). */
export function summaryCsv(db: Database, orgId: number, start: string, end: string): Readable {
  return stream(summaryPages(db, orgId, start, end), (r) => [r.nmi, Number(r.events), round(Number(r.amount), 4), aud(r.cents)], SUMMARY_CSV_COLUMNS);
}
