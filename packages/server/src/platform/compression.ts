import zlib from 'node:zlib';

// How replies are compressed (app.ts registers @fastify/compress with these), and the same
// compression done where a streamed download is made (a streaming worker), so that the request's
// thread only sends bytes already compressed.

/** Brotli (what browsers ask first) at quality 1: a third of the time of quality 4 for a sixth more bytes; its default (11) would take seconds. */
export const BROTLI_OPTIONS = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1 } };
/** Gzip (what scripts and tools ask) at level 1: the default (6) took half the time of streaming a month's events CSV for a tenth fewer bytes. */
export const GZIP_OPTIONS = { level: 1 };

/** The encodings a download made in a worker is compressed in there. */
export type StreamEncoding = 'br' | 'gzip';

/**
 * The encoding @fastify/compress would choose for `accept` (the highest q of br, gzip and deflate,
 * ties in that order), when it is br or gzip; null otherwise (deflate, identity, none, or only a
 * wildcard), where the reply is left to the plugin.
 */
export function streamEncoding(accept: string | undefined): StreamEncoding | null {
  if (!accept) return null;
  const q = new Map<string, number>();
  for (const part of accept.toLowerCase().split(',')) {
    const [name, ...params] = part.split(';').map((s) => s.trim());
    const weight = params.find((p) => p.startsWith('q='));
    const value = weight ? Number(weight.slice(2)) : 1;
    const key = name === 'x-gzip' ? 'gzip' : name;
    if (Number.isFinite(value)) q.set(key, Math.max(q.get(key) ?? 0, value));
  }
  const br = q.get('br') ?? 0;
  const gzip = q.get('gzip') ?? 0;
  const best: StreamEncoding | null = br > 0 && br >= gzip ? 'br' : gzip > 0 ? 'gzip' : null;
  if (!best) return null;
  const top = q.get(best) as number;
  return (q.get('deflate') ?? 0) > top || (q.get('identity') ?? 0) > top ? null : best;
}

/** Compressed pieces a download sends in: about this many bytes each. */
const OUT_BYTES = 256 * 1024;

/** A piece that owns its whole ArrayBuffer (as the streaming workers' pieces do), which may be freed once used. */
const ownsItsBuffer = (p: Uint8Array) => p.buffer instanceof ArrayBuffer && p.byteOffset === 0 && p.byteLength === p.buffer.byteLength;

/**
 * `pieces` compressed as one stream in `encoding` (with the replies' options), in pieces of about
 * OUT_BYTES that each own their memory (a streaming worker moves them rather than copying). The
 * pieces are the compressor's once given: one that owns its whole ArrayBuffer is detached (its memory
 * freed at once) when compressed. Pieces moved in from a worker are memory outside the heap that only
 * a full garbage collection would free, and a file's hundred megabytes of them made the API's thread
 * collect its whole heap every few hundred milliseconds (more CPU than the compression itself). Left
 * early, the compressor is destroyed and `pieces` ended (its finally blocks run).
 */
export async function* compressedPieces(pieces: AsyncIterable<Uint8Array>, encoding: StreamEncoding): AsyncGenerator<Uint8Array> {
  const z =
    encoding === 'br' ? zlib.createBrotliCompress({ ...BROTLI_OPTIONS, chunkSize: 64 * 1024 }) : zlib.createGzip({ ...GZIP_OPTIONS, chunkSize: 64 * 1024 });
  const input = pieces[Symbol.asyncIterator]();
  // Each piece written once the last is compressed (the compressor holds it until then); an error of
  // either side ends the other and surfaces through the loop below.
  void (async () => {
    try {
      for (let next = await input.next(); !next.done && !z.destroyed; next = await input.next()) {
        const piece = next.value;
        await new Promise<void>((resolve, reject) => z.write(piece, (err) => (err ? reject(err) : resolve())));
        // Detached: ArrayBuffer.prototype.transfer (ES2024; the server's lib is older).
        if (ownsItsBuffer(piece)) (piece.buffer as ArrayBuffer & { transfer(length: number): ArrayBuffer }).transfer(0);
      }
      if (!z.destroyed) z.end();
    } catch (err) {
      z.destroy(err as Error);
    }
  })();
  const out: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of z as AsyncIterable<Buffer>) {
      out.push(chunk);
      size += chunk.length;
      if (size >= OUT_BYTES) {
        yield Buffer.concat(out, size);
        out.length = 0;
        size = 0;
      }
    }
    if (size > 0) yield Buffer.concat(out, size);
  } finally {
    z.destroy();
    void input.return?.()?.catch(() => undefined);
  }
}
