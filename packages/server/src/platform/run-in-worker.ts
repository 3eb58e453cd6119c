import { Worker } from 'node:worker_threads';

// One piece of heavy work in a worker thread of its own, so that the server's event loop never runs
// it: a month's backtest (HiGHS solves synchronously), a price file's reading (with its memory capped).
// The worker loads the task's module through tsx (which the server runs under) and calls one of its
// exported functions with the data; it is terminated as soon as the task has answered or failed.

// The worker's code. Plain JavaScript, as a worker started from source text must be.
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
