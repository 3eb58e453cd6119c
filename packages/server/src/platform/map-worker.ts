import { Worker } from 'node:worker_threads';
import type { MapRequests } from './map-tiles.ts';

// The maps' worker thread (issue 30): the node maps' clusters and the heat map's hexagons of a fleet
// of 50,000 nodes take seconds of CPU to index, and each tile milliseconds to cut and gzip. They are
// made in one worker thread, so that the API's thread only reads the points from the database and
// sends the tiles, and the machine's second core does the maps. The worker starts with the first
// map asked for and holds the views the API's thread names by number (platform/map-tiles.ts).

// The worker's code: it loads map-tiles.ts through tsx (which the server runs under) and answers
// requests in order. Plain JavaScript, as a worker started from source text must be.
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
(async () => {
  const { register } = await import(workerData.tsx);
  register();
  const { mapRequests } = await import(workerData.module);
  parentPort.on('message', ({ n, name, arg }) => {
    try {
      parentPort.postMessage({ n, value: mapRequests[name](arg) });
    } catch (err) {
      parentPort.postMessage({ n, error: String(err && err.message ? err.message : err) });
    }
  });
  parentPort.postMessage({ ready: true });
})();
`;

type Pending = { resolve: (v: unknown) => void; reject: (e: Error) => void };

let worker: Worker | null = null;
let generation = 0;
let next = 0;
const pending = new Map<number, Pending>();
const resets = new Set<() => void>();

/** Calls `fn` when the worker stopped (the views it held are gone with it): the holders forget theirs. */
export function onMapWorkerReset(fn: () => void): void {
  resets.add(fn);
}

/** Which worker the views made now live in: a view of an earlier one is gone with it. */
export function mapWorkerGeneration(): number {
  worker ??= start();
  return generation;
}

function start(): Worker {
  generation++;
  const w = new Worker(WORKER, {
    eval: true,
    workerData: { tsx: import.meta.resolve('tsx/esm/api'), module: import.meta.resolve('./map-tiles.ts') },
  });
  w.on('message', (m: { n?: number; value?: unknown; error?: string }) => {
    if (m.n === undefined) return;
    const p = pending.get(m.n);
    pending.delete(m.n);
    if (pending.size === 0) w.unref();
    if (m.error !== undefined) p?.reject(new Error(m.error));
    else p?.resolve(m.value);
  });
  const stopped = (err: Error) => {
    if (worker !== w) return;
    worker = null;
    for (const p of pending.values()) p.reject(err);
    pending.clear();
    for (const fn of resets) fn();
  };
  w.on('error', stopped);
  w.on('exit', (code) => stopped(new Error(`The map worker stopped (exit code ${code}).`)));
  w.unref();
  return w;
}

/** Asks the map worker `name` with `arg` (typed arrays in it are copied, not shared). */
export function mapWorker<K extends keyof MapRequests>(name: K, arg: Parameters<MapRequests[K]>[0]): Promise<ReturnType<MapRequests[K]>> {
  worker ??= start();
  const w = worker;
  const n = ++next;
  // Referenced while it owes an answer, so that a script waiting on it is not ended; not otherwise.
  if (pending.size === 0) w.ref();
  return new Promise((resolve, reject) => {
    pending.set(n, { resolve: resolve as (v: unknown) => void, reject });
    w.postMessage({ n, name, arg });
  });
}

/** Stops the worker (tests, the end of a bench); the next map asked starts another. */
export async function stopMapWorker(): Promise<void> {
  const w = worker;
  if (!w) return;
  await w.terminate();
}
