import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { expect, it } from 'vitest';
import { compressedPieces, streamEncoding } from './compression.ts';

it("chooses what @fastify/compress would, when it is br or gzip: the highest q, ties in the server's order", () => {
  expect(streamEncoding('gzip, deflate, br, zstd')).toBe('br');
  expect(streamEncoding('gzip')).toBe('gzip');
  expect(streamEncoding('x-gzip, deflate')).toBe('gzip');
  expect(streamEncoding('br;q=0.5, gzip')).toBe('gzip');
  expect(streamEncoding('BR')).toBe('br');
  // Left to the plugin: deflate, identity, a wildcard, nothing.
  expect(streamEncoding('deflate')).toBeNull();
  expect(streamEncoding('gzip;q=0.5, deflate')).toBeNull();
  expect(streamEncoding('identity')).toBeNull();
  expect(streamEncoding('*')).toBeNull();
  expect(streamEncoding('br;q=0')).toBeNull();
  expect(streamEncoding(undefined)).toBeNull();
});

it('compresses pieces as one stream and frees each piece that owns its memory once compressed', async () => {
  const whole = Buffer.from(Array.from({ length: 40_000 }, (_, i) => `41${String(i).padStart(8, '0')},2025-06-01,Spot Price,${i % 97}\r\n`).join(''));
  for (const encoding of ['br', 'gzip'] as const) {
    // Pieces as the streaming workers hand them on (each its own ArrayBuffer), and one that is a view into a larger buffer.
    const given = [0, 1, 2].map((k) => new Uint8Array(whole.subarray(k * 300_000, (k + 1) * 300_000)));
    const view = whole.subarray(900_000);
    const out: Buffer[] = [];
    for await (const chunk of compressedPieces(
      (async function* () {
        yield* given;
        yield view;
      })(),
      encoding,
    ))
      out.push(Buffer.from(chunk));
    expect((encoding === 'br' ? brotliDecompressSync : gunzipSync)(Buffer.concat(out)).equals(whole)).toBe(true);
    expect([...given, view].map((p) => p.byteLength)).toEqual([0, 0, 0, whole.length - 900_000]);
  }
});
