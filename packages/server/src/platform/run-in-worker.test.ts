import { expect, it } from 'vitest';
import { STREAM_WINDOW, streamInWorker, streamingTasks } from './run-in-worker.ts';

const task = { module: new URL('../test/stream-tasks.ts', import.meta.url).href, run: 'countTask' };
const shared = () => new Int32Array(new SharedArrayBuffer(8));

it('makes a task’s pieces only a few ahead of what is taken, and stops it when its reader leaves', async () => {
  const seen = shared();
  const pieces = streamInWorker<Uint8Array>(task, { seen, size: 1 << 20 });
  const first = await pieces.next();
  expect(first.value).toEqual(new Uint8Array(1 << 20).fill(1));
  // One taken: the worker may send the window beyond it and hold the one it made next, no more.
  await expect.poll(() => Atomics.load(seen, 0)).toBe(1 + STREAM_WINDOW + 1);
  expect((await pieces.next()).value?.[0]).toBe(2);
  await expect.poll(() => Atomics.load(seen, 0)).toBe(2 + STREAM_WINDOW + 1);
  // Left: the task's generator ends (its finally runs) where it waited, having made nothing more.
  await pieces.return(undefined);
  await expect.poll(() => Atomics.load(seen, 1)).toBe(1);
  await expect.poll(streamingTasks).toBe(0);
  expect(Atomics.load(seen, 0)).toBe(2 + STREAM_WINDOW + 1);
});

it('hands every piece on in order, and a task’s throw to its reader; the worker goes on with the next task', async () => {
  const seen = shared();
  const got: number[] = [];
  const failing = (async () => {
    for await (const piece of streamInWorker<Uint8Array>(task, { seen, size: 16, fail: 40 })) got.push(piece[0]);
  })();
  await expect(failing).rejects.toThrow('piece 40 failed');
  expect(got).toEqual(Array.from({ length: 39 }, (_, i) => i + 1));
  const again: number[] = [];
  for await (const piece of streamInWorker<Uint8Array>(task, { seen: shared(), size: 16 })) if (again.push(piece[0]) === 5) break;
  expect(again).toEqual([1, 2, 3, 4, 5]);
  await expect.poll(streamingTasks).toBe(0);
});
