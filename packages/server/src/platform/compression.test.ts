import { expect, it } from 'vitest';
import { streamEncoding } from './compression.ts';

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
