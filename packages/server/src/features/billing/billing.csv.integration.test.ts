import http from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { BILLING_MESSAGES } from '@vpp/shared/billing/messages';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streamingTasks } from '../../platform/run-in-worker.ts';
import { createHarness, describeEachDatabase, type Harness } from '../../test/harness.ts';
import { CSV_OPTIONS, type CsvThread, csvRecords, EVENTS_CSV_COLUMNS, eventsCsv, eventsCsvParts, PART_ROWS, SPLIT_MIN_ROWS } from './billing.csv.service.ts';

/** Text fields that need csv-stringify's care: formulas (ASCII and full-width), quotes, commas, line breaks, blank. */
const NASTY = [
  'Spot Price',
  '',
  '   ',
  '=HYPERLINK("http://x","y")',
  'a, "quoted"\nline',
  '+61 2 9999 9999',
  '-cmd',
  '@SUM(A1)',
  '\tTab',
  '\rCR',
  '\uFF1D1+1',
  '\uFF20x',
  'RERT',
  'plain "quote"',
  'ends with,',
  'Ünïcode café',
  // COPY's text format escapes a backslash, a tab and a line break: they come back as they were.
  'back\\slash\ttab\\n',
];

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
    ['4102000010', '2025-03-11', 1741651200, 'lone\nfeed', 0, 0, 0],
    ['4102000011', '2025-03-11', 1741651200, '\rCR', 0, 0, 0],
  ];
  const ours = csvRecords(rows);
  expect(ours).toBe(stringify(rows, CSV_OPTIONS));
  const back = parse(ours) as string[][];
  expect(back[2][3]).toBe('\'=HYPERLINK("http://x","y")');
  expect(back[3][3]).toBe('a, "quoted"\nline');
  expect(back[1][6]).toBe('-0.15');
  expect(back.map((r) => r[3].charAt(0))).toEqual(['S', '', "'", 'a', "'", "'", "'", "'", 'R', 'l', "'"]);
  // A lone line feed or carriage return is quoted (RFC 4180): the file does not split there.
  expect(back[9][3]).toBe('lone\nfeed');
  expect(back[10][3]).toBe("'\rCR");
  expect(ours.split('\r\n')).toHaveLength(rows.length + 1);
});

describeEachDatabase('events CSV from each database (SQLite pages, a PostgreSQL COPY)', (h) => {
  let org: number;
  const day = '2025-05-06';
  const ts = Date.parse(`${day}T08:00:00Z`) / 1000;
  const rows = NASTY.flatMap((type, i) => [
    { nmi: `41020000${String(i).padStart(2, '0')}`, type, amount: 1.25 + i, rate: 0.3125, cents: 39 + i * 31, spot: null, feedIn: null },
    // A dispatch credit's two sides: the spot value of the energy and the feed-in its bill already pays.
    { nmi: NASTY[(i + 3) % NASTY.length], type: 'Spot Price', amount: 0.5, rate: 0.2, cents: -15 - i, spot: 0.14 + i / 8, feedIn: 0.04 },
  ]);

  let event: number;
  beforeAll(async () => {
    org = await h().org('RETAILER');
    const { db } = h().ctx;
    const ev = await db
      .insertInto('events')
      .values({ organisation_id: org, powerstation_id: null, type: 'DISPATCH', start_time: ts, duration: 3600, cancelled_at: null, created_at: ts })
      .returning('id')
      .executeTakeFirstOrThrow();
    event = ev.id;
    await db
      .insertInto('billing_items')
      .values(
        rows.map((r) => ({
          organisation_id: org,
          event_id: ev.id,
          event_kind: 'dispatch',
          nmi: r.nmi,
          day,
          ts,
          type: r.type,
          amount: r.amount,
          rate: r.rate,
          cost_cents: r.cents,
          created_at: 1,
          spot_value: r.spot,
          feed_in_deduction: r.feedIn,
        })),
      )
      .execute();
  });

  const bytes = async (start: string, end: string, opts: { size?: number; thread?: CsvThread; encoding?: 'br' | 'gzip' }) => {
    const chunks: Buffer[] = [];
    for await (const chunk of eventsCsv(h().ctx.db, org, start, end, opts)) chunks.push(Buffer.from(chunk));
    return Buffer.concat(chunks);
  };
  const read = async (size?: number, thread?: CsvThread) => (await bytes(day, day, { size, thread })).toString('utf8');

  it('escapes and quotes each text field as csv-stringify does, numbers to fixed decimals, in pages that join seamlessly', async () => {
    // The expected file: each text field as csv-stringify writes it alone, numbers to 4, 4 and 2 decimals.
    const field = (v: string) => stringify([[v]], CSV_OPTIONS).slice(0, -2);
    const shown = (t: string) => (t.trim() ? t : BILLING_MESSAGES.supportRequest);
    const expected =
      stringify([EVENTS_CSV_COLUMNS], CSV_OPTIONS) +
      rows
        .map((r) =>
          [
            field(r.nmi),
            day,
            ts,
            field(shown(r.type)),
            r.amount.toFixed(4),
            r.rate.toFixed(4),
            (r.cents / 100).toFixed(2),
            `Dispatch ${event}`,
            r.spot?.toFixed(4) ?? '',
            r.feedIn?.toFixed(4) ?? '',
          ].join(','),
        )
        .map((l) => `${l}\r\n`)
        .join('');
    expect(await read()).toBe(expected);
    // Pages of 3 (a page boundary inside the day, and a last page of fewer) write the same file,
    // made on the request's thread as in the streaming worker.
    expect(await read(3)).toBe(expected);
    expect(await read(undefined, 'request')).toBe(expected);
    expect(await read(3, 'request')).toBe(expected);
    const back = parse(expected, { columns: true }) as Record<string, string>[];
    expect(back).toHaveLength(rows.length);
    expect(back[2].type).toBe(BILLING_MESSAGES.supportRequest);
    expect(back[6].type).toBe('\'=HYPERLINK("http://x","y")');
    expect(back[8].type).toBe('a, "quoted"\nline');
    expect(back[1].cost).toBe('-0.15');
    expect([back[1].spot_value, back[1].feed_in_deduction, back[0].spot_value]).toEqual(['0.1400', '0.0400', '']);
  });

  it('writes a tiny negative amount as 0, not -0, in both databases', async () => {
    const { db } = h().ctx;
    const ev = await db.selectFrom('events').select('id').where('organisation_id', '=', org).executeTakeFirstOrThrow();
    await db
      .insertInto('billing_items')
      .values({
        organisation_id: org,
        event_id: ev.id,
        event_kind: 'dispatch',
        nmi: '4102009999',
        day: '2025-05-10',
        ts,
        type: 'Spot Price',
        amount: -0.00001,
        rate: 0.25,
        cost_cents: 0,
        created_at: 1,
      })
      .execute();
    let out = '';
    for await (const chunk of eventsCsv(db, org, '2025-05-10', '2025-05-10')) out += chunk;
    expect(out.split('\r\n')[1]).toBe(`4102009999,2025-05-10,${ts},Spot Price,0.0000,0.2500,0.00,Dispatch ${ev.id},,`);
  });

  it('gives its connection back when a download is abandoned half-way: the next downloads still run', async () => {
    // A day of 20,000 items (over a megabyte of CSV), then more abandoned downloads of it than the pool
    // has connections: each stops after its header and its first records, leaving the rest unread.
    const { db } = h().ctx;
    const ev = await db.selectFrom('events').select('id').where('organisation_id', '=', org).executeTakeFirstOrThrow();
    const big = '2025-05-20';
    for (let i = 0; i < 20_000; i += 1000)
      await db
        .insertInto('billing_items')
        .values(
          Array.from({ length: 1000 }, (_, k) => ({
            organisation_id: org,
            event_id: ev.id,
            event_kind: 'dispatch',
            nmi: `43${String(i + k).padStart(8, '0')}`,
            day: big,
            ts,
            type: 'Spot Price',
            amount: 1.5,
            rate: 0.25,
            cost_cents: 38,
            created_at: 1,
          })),
        )
        .execute();
    for (const thread of ['worker', 'request'] as const)
      for (let i = 0; i < 12; i++) {
        let chunks = 0;
        for await (const chunk of eventsCsv(db, org, big, big, { size: 1000, thread })) {
          expect(String(chunk).length).toBeGreaterThan(0);
          if (++chunks === 2) break;
        }
        expect(chunks).toBe(2);
      }
    // The worker has stopped every abandoned task (its generator ended, its connection given back).
    await expect.poll(streamingTasks).toBe(0);
    expect((await read()).split('\r\n')).toHaveLength(rows.length + 2);
    let lines = 0;
    for await (const chunk of eventsCsv(db, org, big, big)) lines += String(chunk).split('\r\n').length - 1;
    expect(lines).toBe(20_001);
  });

  it("makes the same bytes in the streaming worker as on the request's thread, over days and pages", async () => {
    // Every day of the month so far: the nasty fields, the tiny negative and the 20,000 plain items.
    const worker = await bytes('2025-05-01', '2025-05-31', { size: 700 });
    const request = await bytes('2025-05-01', '2025-05-31', { size: 700, thread: 'request' });
    expect(worker.length).toBeGreaterThan(1_000_000);
    expect(worker.equals(request)).toBe(true);
    expect(worker.equals(await bytes('2025-05-01', '2025-05-31', {}))).toBe(true);
  });

  it('compresses the whole file in the streaming worker, header first: the same bytes once decompressed', async () => {
    const request = await bytes('2025-05-01', '2025-05-31', { size: 700, thread: 'request' });
    const br = await bytes('2025-05-01', '2025-05-31', { size: 700, encoding: 'br' });
    const gzip = await bytes('2025-05-01', '2025-05-31', { size: 700, encoding: 'gzip' });
    expect(br.length).toBeLessThan(request.length / 4);
    expect(brotliDecompressSync(br).equals(request)).toBe(true);
    expect(gunzipSync(gzip).equals(request)).toBe(true);
  });

  it('writes only the header for a range with no items', async () => {
    let out = '';
    for await (const chunk of eventsCsv(h().ctx.db, org, '2025-05-07', '2025-05-09')) out += chunk;
    expect(out).toBe('nmi,day,ts,type,amount,rate,cost,event,spot_value,feed_in_deduction\r\n');
  });
});

describeEachDatabase('events CSV split between the streaming workers', (h) => {
  let org: number;
  let other: number;
  let headers: Record<string, string>;
  let base: string;
  // Three days of one organisation's items (another's between the first two, and the nasty fields
  // written last, so that the second day's ids are not all its own).
  const days = ['2025-06-02', '2025-06-03', '2025-06-05'];
  const counts = [60_000, 80_000, 12_000];
  const seed = async (orgId: number, day: string, n: number, from: number) => {
    const { db } = h().ctx;
    const ts = Date.parse(`${day}T07:00:00Z`) / 1000;
    const ev = await db
      .insertInto('events')
      .values({ organisation_id: orgId, powerstation_id: null, type: 'DISPATCH', start_time: ts, duration: 3600, cancelled_at: null, created_at: ts })
      .returning('id')
      .executeTakeFirstOrThrow();
    const cols = sql`(organisation_id, event_id, event_kind, nmi, day, ts, type, amount, rate, cost_cents, created_at, spot_value)`;
    const spot = sql`case when i % 3 = 0 then null else 0.01 * (i % 11) end`;
    if (h().dialect === 'postgres')
      await sql`insert into billing_items ${cols}
        select ${orgId}, ${ev.id}, 'dispatch', '41' || lpad(i::text, 8, '0'), ${day}, ${ts}, 'Spot Price', 1 + (i % 7) * 0.25 - 0.00003 * (i % 5), 0.3, 30 + (i % 7) * 8 - (i % 4) * 31, 1, ${spot}
        from generate_series(${from}::int, ${from + n - 1}::int) as i`.execute(db);
    else
      await sql`insert into billing_items ${cols}
        with recursive s(i) as (select ${from} union all select i + 1 from s where i < ${from + n - 1})
        select ${orgId}, ${ev.id}, 'dispatch', '41' || printf('%08d', i), ${day}, ${ts}, 'Spot Price', 1 + (i % 7) * 0.25 - 0.00003 * (i % 5), 0.3, 30 + (i % 7) * 8 - (i % 4) * 31, 1, ${spot} from s`.execute(
        db,
      );
    return ev.id;
  };
  beforeAll(async () => {
    org = await h().org('RETAILER');
    other = await h().org('RETAILER');
    await seed(org, days[0], counts[0], 0);
    await seed(other, days[0], 5_000, 0);
    const second = await seed(org, days[1], counts[1], 100_000);
    await seed(org, days[2], counts[2], 200_000);
    const ts = Date.parse(`${days[1]}T07:00:00Z`) / 1000;
    await h()
      .ctx.db.insertInto('billing_items')
      .values(
        NASTY.map((type, i) => ({
          organisation_id: org,
          event_id: second,
          event_kind: 'rert',
          nmi: NASTY[(i + 5) % NASTY.length] || `43${i}`,
          day: days[1],
          ts,
          type,
          amount: -0.00001 * i,
          rate: 0.25,
          cost_cents: -i,
          created_at: 1,
          spot_value: i % 2 ? 0.125 : null,
          feed_in_deduction: i % 2 ? 0.04 : null,
        })),
      )
      .execute();
    const user = await h().user(org);
    headers = await h().bearer(user.username);
    base = await h().app.listen({ port: 0, host: '127.0.0.1' });
  });

  const whole = (start: string, end: string) => ({ orgId: org, start, end, fromId: 0, toId: null, size: 20_000 });
  const bytes = async (start: string, end: string, opts: { thread?: CsvThread; encoding?: 'br' | 'gzip'; partRows?: number }) => {
    const chunks: Buffer[] = [];
    for await (const chunk of eventsCsv(h().ctx.db, org, start, end, opts)) chunks.push(Buffer.from(chunk));
    return Buffer.concat(chunks);
  };

  it('splits a range into contiguous parts of about the size asked, a large day split by id, a small range not at all', async () => {
    const parts = await eventsCsvParts(h().ctx.db, whole('2025-06-01', '2025-06-30'), 10_000);
    expect(parts.length).toBeGreaterThanOrEqual(15);
    expect(parts[0]).toMatchObject({ start: '2025-06-01', fromId: 0 });
    expect(parts[parts.length - 1]).toMatchObject({ end: '2025-06-30', toId: null });
    for (let i = 1; i < parts.length; i++) {
      const [a, b] = [parts[i - 1], parts[i]];
      // Each part begins where the one before ended: within a day at its bound, or on the next day.
      if (a.toId === null) expect([b.start, b.fromId]).toEqual([new Date(Date.parse(`${a.end}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10), 0]);
      else expect([b.start, b.fromId]).toEqual([a.end, a.toId]);
    }
    expect(parts.some((p) => p.start === p.end && p.fromId > 0 && p.toId !== null)).toBe(true);
    // Fewer items than SPLIT_MIN_ROWS: one part, whatever the part size.
    expect(counts[2]).toBeLessThan(SPLIT_MIN_ROWS);
    expect(await eventsCsvParts(h().ctx.db, whole(days[2], days[2]), 1000)).toEqual([whole(days[2], days[2])]);
    expect(await eventsCsvParts(h().ctx.db, whole('2025-06-01', '2025-06-30'), PART_ROWS)).toHaveLength(
      // The second day's ids run to the nasty fields', past the third day's.
      Math.floor((counts[0] + counts[1] + counts[2] + NASTY.length + counts[2]) / PART_ROWS),
    );
  });

  it('makes the same bytes split as whole, plain and compressed, for a range that splits and one that does not', async () => {
    for (const [start, end] of [
      ['2025-06-01', '2025-06-30'],
      [days[2], days[2]],
    ]) {
      const request = await bytes(start, end, { thread: 'request' });
      expect(request.toString('utf8').split('\r\n')).toHaveLength((start === end ? counts[2] : counts[0] + counts[1] + counts[2] + NASTY.length) + 2);
      for (const partRows of [10_000, PART_ROWS]) {
        expect((await bytes(start, end, { partRows })).equals(request)).toBe(true);
        expect(brotliDecompressSync(await bytes(start, end, { partRows, encoding: 'br' })).equals(request)).toBe(true);
        expect(gunzipSync(await bytes(start, end, { partRows, encoding: 'gzip' })).equals(request)).toBe(true);
      }
    }
    await expect.poll(streamingTasks).toBe(0);
  });

  /** The month's download over a real connection, asking for the bytes as they are; resolves at its first bytes with the request. */
  const download = () =>
    new Promise<{ req: http.ClientRequest; res: http.IncomingMessage; first: Buffer }>((resolve, reject) => {
      const { port } = new URL(base);
      const req = http.get(
        { host: '127.0.0.1', port, path: '/billing/events/csv?start=2025-06-01&end=2025-06-30', headers: { ...headers, 'accept-encoding': 'identity' } },
        (res) => {
          res.once('data', (first: Buffer) => {
            res.pause();
            resolve({ req, res, first });
          });
          res.once('error', reject);
        },
      );
      req.once('error', reject);
    });

  it('makes at most two parts at once, and stops those being made when the client goes half-way through', async () => {
    const { req, res, first } = await download();
    expect(res.statusCode).toBe(200);
    expect(first.toString('utf8').split('\r\n')[0]).toBe(EVENTS_CSV_COLUMNS.join(','));
    // At most two of the ten parts are made at once (one per worker), however far the client is behind.
    expect(streamingTasks()).toBeLessThanOrEqual(2);
    req.destroy();
    await expect.poll(streamingTasks).toBe(0);
    // The workers are free for the next download, whole.
    const again = await fetch(`${base}/billing/events/csv?start=2025-06-01&end=2025-06-30`, { headers });
    expect((await again.text()).split('\r\n')).toHaveLength(counts[0] + counts[1] + counts[2] + NASTY.length + 2);
  });
});

// PostgreSQL holds no value the formatter cannot write: the failure of a part there is the streaming
// workers' (platform/run-in-worker.test.ts), the same whatever the part reads.
describe('events CSV whose second part fails [sqlite]', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness('sqlite');
  });
  afterAll(() => h.close());

  it('ends the response as an error, not as a shorter file', async () => {
    const org = await h.org('RETAILER');
    const { db } = h.ctx;
    const day = '2025-07-01';
    const ts = Date.parse(`${day}T07:00:00Z`) / 1000;
    const ev = await db
      .insertInto('events')
      .values({ organisation_id: org, powerstation_id: null, type: 'DISPATCH', start_time: ts, duration: 3600, cancelled_at: null, created_at: ts })
      .returning('id')
      .executeTakeFirstOrThrow();
    await sql`insert into billing_items (organisation_id, event_id, event_kind, nmi, day, ts, type, amount, rate, cost_cents, created_at)
      with recursive s(i) as (select 0 union all select i + 1 from s where i < ${SPLIT_MIN_ROWS * 2})
      select ${org}, ${ev.id}, 'dispatch', '41' || printf('%08d', i), ${day}, ${ts}, 'Spot Price', 1.5, 0.25, 38, 1 from s`.execute(db);
    const [, second] = await eventsCsvParts(db, { orgId: org, start: day, end: day, fromId: 0, toId: null, size: 20_000 }, PART_ROWS);
    // A stored value the formatter cannot write (SQLite keeps a BLOB in a text column), in the second part.
    await sql`update billing_items set type = x'00' where id = ${second.fromId + 1000}`.execute(db);
    const user = await h.user(org);
    const base = await h.app.listen({ port: 0, host: '127.0.0.1' });
    const res = await fetch(`${base}/billing/events/csv?start=${day}&end=${day}`, {
      headers: { ...(await h.bearer(user.username)), 'accept-encoding': 'identity' },
    });
    expect(res.status).toBe(200);
    await expect(res.text()).rejects.toThrow('terminated');
    await expect.poll(streamingTasks).toBe(0);
  });
});
