import { expect, it } from 'vitest';
import { STREAM_WINDOW, streamInOrder, streamInWorker, streamingTasks } from './run-in-worker.ts';

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

it('hands on the parts’ pieces in the parts’ order, made by both workers at once, a part started as one ahead is taken', async () => {
  const parts = [1, 2, 3, 4].map(() => ({ seen: shared(), size: 16, count: 10 }));
  const pieces = streamInOrder<Uint8Array>(task, parts);
  const got = [(await pieces.next()).value?.[0]];
  // The first two parts run at once (one per worker), the next only once the first is wholly taken.
  await expect.poll(() => Atomics.load(parts[1].seen, 0)).toBeGreaterThan(0);
  expect(Atomics.load(parts[2].seen, 0)).toBe(0);
  for await (const piece of pieces) got.push(piece[0]);
  expect(got).toEqual([1, 2, 3, 4].flatMap(() => Array.from({ length: 10 }, (_, i) => i + 1)));
  expect(parts.map((p) => Atomics.load(p.seen, 1))).toEqual([1, 1, 1, 1]);
  await expect.poll(streamingTasks).toBe(0);
});

it('stops every part started when its reader leaves, and starts no other', async () => {
  // Parts that never end by themselves: only a stop ends them.
  const parts = [1, 2, 3].map(() => ({ seen: shared(), size: 16 }));
  const pieces = streamInOrder<Uint8Array>(task, parts);
  expect((await pieces.next()).value?.[0]).toBe(1);
  await expect.poll(() => Atomics.load(parts[1].seen, 0)).toBe(STREAM_WINDOW + 1);
  await pieces.return(undefined);
  await expect.poll(() => parts.map((p) => Atomics.load(p.seen, 1))).toEqual([1, 1, 0]);
  await expect.poll(streamingTasks).toBe(0);
  expect(Atomics.load(parts[2].seen, 0)).toBe(0);
});

it('throws a later part’s error at once, while the part before is still being taken, and stops that part', async () => {
  const first = { seen: shared(), size: 16 };
  const second = { seen: shared(), size: 16, fail: 3 };
  const got: number[] = [];
  const reading = (async () => {
    for await (const piece of streamInOrder<Uint8Array>(task, [first, second])) got.push(piece[0]);
  })();
  await expect(reading).rejects.toThrow('piece 3 failed');
  // The first part never ends by itself: it was stopped, with its pieces never all taken.
  await expect.poll(() => Atomics.load(first.seen, 1)).toBe(1);
  expect(got.every((n, i) => n === i + 1)).toBe(true);
  await expect.poll(streamingTasks).toBe(0);
});
