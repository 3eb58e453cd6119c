import os from 'node:os';
import { Worker } from 'node:worker_threads';

// Heavy work in worker threads, so that the server's event loop never runs it. Two kinds:
// - `runInWorker`: one task in a new worker thread of its own, its heap capped if asked: a month's
//   backtest (HiGHS solves synchronously), a price file's reading. The worker ends with the task.
// - `streamInWorker`: a task that yields pieces (a CSV download, an export's file) in one of a few
//   long-lived workers (`STREAM_WORKERS`), so that the database's reading and the formatting run on
//   the machine's other core while the request's thread sends what they made. A worker loads the
//   task's modules once (1 to 2 s under tsx) and then starts each task at once; it ends after
//   `STREAM_IDLE_MS` without a task. `streamInOrder` runs one task per part of a file (a large events
//   CSV) in the workers at once and answers the parts' pieces in order.
// A worker loads the task's module through tsx (which the server runs under) and calls one of its
// exported functions with the data (structured-cloned).

// The one-off worker's code. Plain JavaScript, as a worker started from source text must be.
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
(async () => {
  const { register } = await import(workerData.tsx);
  register();
  const m = await import(workerData.module);
  const result = await m[workerData.run](workerData.data, (progress) => parentPort.postMessage({ progress }));
  parentPort.postMessage({ done: true, result });
})();
`;

/** A task: the module's URL (`import.meta.url`) and the name of the function it exports, `(data, progress) => result`. */
export interface WorkerTask {
  module: string;
  run: string;
}

export interface WorkerLimits {
  /** What runs, for the error when the worker stops without an answer: 'The backtest' stopped (exit code 1). */
  name: string;
  /** The worker's heap in MB; past it the run fails with the error code ERR_WORKER_OUT_OF_MEMORY. Unset: Node's default. */
  heapMb?: number;
  /** Called with each value the task reports through its `progress` argument. */
  onProgress?: (progress: number) => void;
}

/**
 * Runs `task` with `data` (structured-cloned) in a new worker thread and answers its result. A
 * throw in the task, a heap past `heapMb`, or an exit without an answer rejects; the worker is
 * terminated once settled.
 */
export function runInWorker<R>(task: WorkerTask, data: unknown, limits: WorkerLimits): Promise<R> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER, {
      eval: true,
      workerData: { tsx: import.meta.resolve('tsx/esm/api'), module: task.module, run: task.run, data },
      ...(limits.heapMb !== undefined && {
        resourceLimits: { maxOldGenerationSizeMb: limits.heapMb, maxYoungGenerationSizeMb: Math.min(64, Math.max(8, limits.heapMb / 8)) },
      }),
      stdout: true,
      stderr: true,
    });
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      fn();
      void worker.terminate();
    };
    worker.on('message', (m: { progress?: number; done?: true; result?: R }) => {
      if (m.done) settle(() => resolve(m.result as R));
      else if (m.progress !== undefined) limits.onProgress?.(m.progress);
    });
    worker.on('error', (err) => settle(() => reject(err)));
    worker.on('exit', (code) => settle(() => reject(new Error(`${limits.name} stopped (exit code ${code}).`))));
  });
}

// The streaming workers' code: tasks run side by side, each an async generator whose pieces are
// posted as they come (a Uint8Array that owns its whole buffer is moved, not copied), at most
// `window` ahead of what the parent has taken: the parent grants one more per piece it hands on
// (backpressure). 'stop' ends a task's generator where it waits (its finally blocks run: a
// PostgreSQL COPY's connection is given up); every task ends with 'done' (finished or stopped) or
// 'error'.
const STREAM_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const registered = import(workerData.tsx).then(({ register }) => register());
const runs = new Map();
const owned = (v) => ArrayBuffer.isView(v) && v.buffer instanceof ArrayBuffer && v.byteOffset === 0 && v.byteLength === v.buffer.byteLength;
const movable = (v) => owned(v) ? [v.buffer] : v && typeof v === 'object' ? Object.values(v).filter(owned).map((x) => x.buffer) : [];
async function run(m) {
  const r = { credit: m.window, stopped: false, wake: null };
  runs.set(m.id, r);
  try {
    await registered;
    const task = await import(m.module);
    for await (const piece of task[m.run](m.data)) {
      while (r.credit === 0 && !r.stopped) await new Promise((w) => { r.wake = w; });
      if (r.stopped) break;
      r.credit--;
      parentPort.postMessage({ id: m.id, piece }, movable(piece));
    }
    parentPort.postMessage({ id: m.id, done: true });
  } catch (err) {
    parentPort.postMessage({ id: m.id, error: String(err && err.stack ? err.stack : err) });
  } finally {
    runs.delete(m.id);
  }
}
parentPort.on('message', (m) => {
  if (m.start) return void run(m);
  const r = runs.get(m.id);
  if (!r) return;
  if (m.stop) r.stopped = true;
  else r.credit += m.more;
  if (r.wake) { const w = r.wake; r.wake = null; w(); }
});
`;

/** Long-lived streaming workers at most: one per core (2 here), each running any number of tasks side by side. */
export const STREAM_WORKERS = Math.max(1, os.availableParallelism());
/** A streaming worker without a task ends after this long (its modules and connections go with it). */
export const STREAM_IDLE_MS = 5 * 60_000;
/** Pieces a task may send before the parent has taken them (it holds one more, made, until it may send it). */
export const STREAM_WINDOW = 3;

interface Run {
  piece(value: unknown): void;
  end(err?: Error): void;
}
interface StreamWorker {
  worker: Worker;
  runs: Map<number, Run>;
  idle: NodeJS.Timeout | null;
}

const pool: StreamWorker[] = [];
let nextRun = 0;

/** Tasks running in the streaming workers: a task left early counts until its worker has stopped it. */
export function streamingTasks(): number {
  return pool.reduce((n, w) => n + w.runs.size, 0);
}

/**
 * CPU seconds the streaming workers have run so far (user and system, of the workers running now):
 * the benchmarks split a download's CPU between the API's thread, the workers and the rest.
 */
export async function streamWorkersCpuS(): Promise<number> {
  const used = await Promise.all(pool.map((w) => w.worker.cpuUsage().catch(() => ({ user: 0, system: 0 }))));
  return used.reduce((s, u) => s + (u.user + u.system) / 1e6, 0);
}

function startStreamWorker(): StreamWorker {
  const worker = new Worker(STREAM_WORKER, { eval: true, workerData: { tsx: import.meta.resolve('tsx/esm/api') } });
  const w: StreamWorker = { worker, runs: new Map(), idle: null };
  worker.on('message', (m: { id: number; piece?: unknown; done?: true; error?: string }) => {
    const r = w.runs.get(m.id);
    if (!r) return;
    if (m.done || m.error !== undefined) {
      w.runs.delete(m.id);
      if (w.runs.size === 0) idle(w);
      r.end(m.error === undefined ? undefined : new Error(m.error));
    } else r.piece(m.piece);
  });
  const stopped = (err: Error) => {
    const at = pool.indexOf(w);
    if (at >= 0) pool.splice(at, 1);
    if (w.idle) clearTimeout(w.idle);
    for (const r of w.runs.values()) r.end(err);
    w.runs.clear();
  };
  worker.on('error', stopped);
  worker.on('exit', (code) => stopped(new Error(`A streaming worker stopped (exit code ${code}).`)));
  worker.unref();
  pool.push(w);
  return w;
}

/** A worker without tasks lets the process end, and ends itself after STREAM_IDLE_MS. */
function idle(w: StreamWorker) {
  w.worker.unref();
  if (w.idle) clearTimeout(w.idle);
  w.idle = setTimeout(() => void w.worker.terminate(), STREAM_IDLE_MS);
  w.idle.unref();
}

/** The worker with the fewest tasks, a new one while there are fewer than STREAM_WORKERS and all are busy. */
function pickWorker(): StreamWorker {
  const least = pool.reduce<StreamWorker | null>((best, w) => (best === null || w.runs.size < best.runs.size ? w : best), null);
  if (least && (least.runs.size === 0 || pool.length >= STREAM_WORKERS)) return least;
  return startStreamWorker();
}

/**
 * A task started at once in one of the long-lived streaming workers (the one with the fewest tasks):
 * its pieces are taken in order with `next`, each taken one letting the task make one more
 * (backpressure); `stop` ends it early where it waits (its finally blocks run), what it still sends
 * being dropped. A throw in the task, or its worker's end, throws from `next` once the pieces made
 * before it are taken, and shows at once in `failure`.
 */
class WorkerStream<T> {
  private readonly w: StreamWorker;
  private readonly id = ++nextRun;
  private readonly pieces: T[] = [];
  private ended = false;
  private stopped = false;
  /** The task's error, if it failed (its earlier pieces may still be waiting to be taken). */
  failure: Error | null = null;
  private wake: (() => void) | null = null;

  constructor(task: WorkerTask, data: unknown) {
    const w = pickWorker();
    this.w = w;
    if (w.idle) clearTimeout(w.idle);
    w.idle = null;
    w.runs.set(this.id, {
      piece: (v) => {
        if (this.stopped) return;
        this.pieces.push(v as T);
        this.rouse();
      },
      end: (err) => {
        this.ended = true;
        this.failure = err ?? null;
        this.rouse();
      },
    });
    // Referenced while a task runs, so that a script waiting on it is not ended; not otherwise.
    w.worker.ref();
    w.worker.postMessage({ start: true, id: this.id, module: task.module, run: task.run, data, window: STREAM_WINDOW });
  }

  private rouse() {
    const fn = this.wake;
    this.wake = null;
    fn?.();
  }

  /** The next piece, or done once the task has ended (a stopped task's too). */
  async next(): Promise<IteratorResult<T, undefined>> {
    for (;;) {
      if (this.stopped) return { done: true, value: undefined };
      if (this.pieces.length) {
        const piece = this.pieces.shift() as T;
        this.w.worker.postMessage({ id: this.id, more: 1 });
        return { done: false, value: piece };
      }
      if (this.failure) throw this.failure;
      if (this.ended) return { done: true, value: undefined };
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
    }
  }

  /** Stops the task unless it has ended; its pieces not yet taken are dropped. */
  stop(): void {
    if (this.ended || this.stopped) return;
    this.stopped = true;
    this.pieces.length = 0;
    this.w.worker.postMessage({ id: this.id, stop: true });
    this.rouse();
  }
}

/**
 * Runs `task` with `data` (structured-cloned) in one of the long-lived streaming workers: its
 * exported function is an async generator, and its pieces come out of the generator answered here,
 * in order. The task runs at most a few pieces ahead of what is taken from here (backpressure);
 * leaving this generator early (a client gone, a cancelled export) stops the task where it waits
 * and runs its finally blocks. A throw in the task, or its worker's end, throws here.
 */
export async function* streamInWorker<T>(task: WorkerTask, data: unknown): AsyncGenerator<T> {
  yield* streamInOrder<T>(task, [data], 1);
}

/**
 * Runs `task` once for each of `parts` (each structured-cloned) in the streaming workers, up to
 * `ahead` of them at once (by default one per worker: they go to different workers while there are
 * free ones), and answers their pieces in the parts' order: all of the first part's, then the
 * second's… A part is started once the one `ahead` before it has been wholly taken, so at most
 * `ahead` parts are held, each at most a few pieces ahead of what is taken (STREAM_WINDOW): the
 * memory is bounded however large the parts. Leaving early stops every part started (the others
 * never start). A part's throw stops the others and throws here: at once if it is a later part's
 * (the pieces before it not yet taken are dropped), after its own pieces made before it if it is the
 * part being taken.
 */
export async function* streamInOrder<T>(task: WorkerTask, parts: readonly unknown[], ahead = STREAM_WORKERS): AsyncGenerator<T> {
  const running: WorkerStream<T>[] = [];
  let started = 0;
  const startMore = () => {
    while (started < parts.length && running.length < ahead) running.push(new WorkerStream<T>(task, parts[started++]));
  };
  try {
    startMore();
    while (running.length > 0) {
      // A later part's failure at once; the first's once its pieces before it are taken.
      const failed = running.find((s, i) => i > 0 && s.failure);
      if (failed) throw failed.failure;
      const next = await running[0].next();
      if (next.done) {
        running.shift();
        startMore();
      } else yield next.value;
    }
  } finally {
    for (const s of running) s.stop();
  }
}
