import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { expect, it } from 'vitest';
import { CSV_OPTIONS, csvRecords } from './billing.csv.ts';

it('writes records exactly as csv-stringify does: RFC 4180 quoting, CRLF, formulas escaped, numbers as numbers', () => {
  const rows: unknown[][] = [
    ['4102000001', '2025-03-10', 1741564800, 'Spot Price', 1.25, 0.3125, 12.5],
    ['4102000002', '2025-03-10', 1741564800, '', -0.5, 0.2, -0.15],
    ['4102000003', '2025-03-11', 1741651200, '=HYPERLINK("http://x","y")', 1, 1, 1],
    ['4102000004', '2025-03-11', 1741651200, 'a, "quoted"\nline', 0, 0, 0],
    ['4102000005', '2025-03-11', 1741651200, '+61 2 9999 9999', 0, 0, 0],
    ['4102000006', '2025-03-11', 1741651200, '-cmd', 0, 0, 0],
    ['4102000007', '2025-03-11', 1741651200, '@SUM(A1)', 0, 0, 0],
    ['4102000008', '2025-03-11', 1741651200, '\tTab', 0, 0, 0],
    ['4102000009', '2025-03-11', 1741651200, 'RERT', 1e-7, 123456.789, 1234567.89],
  ];
  const ours = csvRecords(rows);
  expect(ours).toBe(stringify(rows, CSV_OPTIONS));
  const back = parse(ours) as string[][];
  expect(back[2][3]).toBe('\'=HYPERLINK("http://x","y")');
  expect(back[3][3]).toBe('a, "quoted"\nline');
  expect(back[1][6]).toBe('-0.15');
  expect(back.map((r) => r[3].charAt(0))).toEqual(['S', '', "'", 'a', "'", "'", "'", "'", 'R']);
  expect(ours.split('\r\n')).toHaveLength(rows.length + 1);
});
