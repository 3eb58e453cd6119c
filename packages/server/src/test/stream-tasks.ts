// Tasks for the streaming workers' tests (platform/run-in-worker.test.ts): run in a worker thread,
// they report through shared memory what the test cannot see from outside.

/**
 * Pieces 1, 2, 3… for ever (or `count` of them, or up to `fail`, where it throws), each a Uint8Array
 * of `size` bytes holding its number. `seen[0]` counts the pieces made, `seen[1]` is set once the
 * generator ended.
 */
export async function* countTask(data: { seen: Int32Array; size: number; fail?: number; count?: number }): AsyncGenerator<Uint8Array> {
  try {
    for (let n = 1; n <= (data.count ?? Number.POSITIVE_INFINITY); n++) {
      if (n === data.fail) throw new Error(`piece ${n} failed`);
      const piece = new Uint8Array(data.size).fill(n % 256);
      Atomics.store(data.seen, 0, n);
      yield piece;
    }
  } finally {
    Atomics.store(data.seen, 1, 1);
  }
}
