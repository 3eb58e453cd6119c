import { stringify } from 'csv-stringify/sync';

/**
 * CSV as spreadsheets read it: a header row, RFC 4180 quoting (fields with a comma, quote or line
 * break quoted, quotes doubled, CRLF between records), and formula injection escaped (a text field
 * starting with =, +, -, @, tab or carriage return gets a leading quote). Numbers are written as
 * numbers, so a negative credit stays a number in a spreadsheet.
 */
// quoted_match: csv-stringify quotes a field holding a record delimiter only when it holds the whole
// CRLF; a lone line feed or carriage return must be quoted too (RFC 4180), or the file splits there.
export const CSV_OPTIONS = {
  record_delimiter: 'windows',
  escape_formulas: true,
  quoted_match: /[\r\n]/,
  cast: { number: (n: number) => String(n) },
} as const;

/** A text field csv-stringify would write as it is: no quoting needed, nothing a spreadsheet reads as a formula. */
export const PLAIN = /^[A-Za-z0-9][A-Za-z0-9 ._/:-]*$/;

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
