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
 * directly, exactly as csv-stringify writes it (billing.csv.integration.test.ts checks the two agree); any other
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

/** The size of the pieces a streamed CSV is handed on in. */
export const PIECE_BYTES = 1 << 20;

/**
 * CSV written as UTF-8 straight into a buffer and handed on in pieces of about a megabyte, each a
 * copy that owns its memory (a streaming worker moves it to the API's thread rather than copying
 * it). Joining lines or fields into one string and encoding it cost three times the formatting itself
 * (V8 builds the string as a tree and flattens it to encode it). A writer first makes room for what
 * it will write (`room`, which may hand on the piece before), then writes text, commas and numbers.
 */
export class Pieces {
  // A writer of a file's own fields (billing's events CSV) writes into these directly.
  protected buf = Buffer.allocUnsafe(PIECE_BYTES);
  protected at = 0;

  /** Makes room for `bytes` more; answers the piece it had to complete first, if it did. */
  room(bytes: number): Uint8Array | undefined {
    if (this.at + bytes <= this.buf.length) return undefined;
    const full = this.take();
    if (bytes > this.buf.length) this.buf = Buffer.allocUnsafe(bytes);
    return full;
  }

  /** Adds a line (or any text); answers the piece it completes, if it does. */
  add(line: string): Uint8Array | undefined {
    // A UTF-16 unit is at most 3 bytes of UTF-8.
    const full = this.room(line.length * 3);
    this.at += this.buf.write(line, this.at);
    return full;
  }

  /** Writes text with no room check: at most 3 bytes per UTF-16 unit must have been made room for. */
  text(s: string): void {
    this.at += this.buf.write(s, this.at);
  }

  /** Writes one ASCII character (a comma, CR, LF) by its code, with no room check. */
  byte(code: number): void {
    this.buf[this.at++] = code;
  }

  /**
   * Writes a number exactly as JavaScript prints it (`String(v)`), with no room check (at most
   * NUMBER_BYTES). A value of at most 3 decimals below a billion in size, as the telemetry's rounded
   * values are, is written digit by digit from its integer of thousandths (no string made); any other
   * through String.
   */
  number(v: number): void {
    const n = Math.round(v * 1000);
    if (n / 1000 !== v || n >= 1e12 || n <= -1e12) {
      this.text(String(v));
      return;
    }
    const buf = this.buf;
    let m = n;
    // -0 prints as 0.
    if (m < 0) {
      buf[this.at++] = 45;
      m = -m;
    }
    const frac = m % 1000;
    this.digits((m - frac) / 1000);
    if (frac === 0) return;
    // Up to three decimals, trailing zeros left out.
    buf[this.at++] = 46;
    const d1 = Math.floor(frac / 100);
    const d2 = Math.floor(frac / 10) % 10;
    const d3 = frac % 10;
    buf[this.at++] = 48 + d1;
    if (d2 === 0 && d3 === 0) return;
    buf[this.at++] = 48 + d2;
    if (d3 !== 0) buf[this.at++] = 48 + d3;
  }

  /** Writes a non-negative integer of at most 2^53 in decimal digits, with no room check. */
  digits(n: number): void {
    let count = 1;
    for (let x = n; x >= 10; x = Math.floor(x / 10)) count++;
    // Written backwards from the end of its place.
    const buf = this.buf;
    let at = this.at + count;
    this.at = at;
    let m = n;
    do {
      const d = m % 10;
      buf[--at] = 48 + d;
      m = (m - d) / 10;
    } while (m > 0);
  }

  /** Writes the bytes [from, to) of `src` as they are, with no room check. */
  bytes(src: Uint8Array, from = 0, to = src.length): void {
    const buf = this.buf;
    let at = this.at;
    for (let i = from; i < to; i++) buf[at++] = src[i];
    this.at = at;
  }

  /** The bytes added since the last piece, if any. */
  take(): Uint8Array | undefined {
    if (this.at === 0) return undefined;
    const piece = new Uint8Array(this.buf.buffer.slice(this.buf.byteOffset, this.buf.byteOffset + this.at));
    this.at = 0;
    return piece;
  }
}

/** Bytes `Pieces.number` writes at most (String of any double: '-1.2345678901234567e-308'). */
export const NUMBER_BYTES = 25;
