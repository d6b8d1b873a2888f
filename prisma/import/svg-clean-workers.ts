// The SVG cleanup of a large folder spread over worker threads: SVGO and colour parsing are pure
// CPU, about a millisecond per file, so a folder of 10,000 files is worth the cores there are.
// Jobs go out in small batches to whichever worker is free (an even load whatever each file
// costs, and progress as batches come back); results land at their job's index, so the output
// is in input order whatever thread cleaned what. Every worker is terminated when the run ends,
// fails or a worker dies; a dead worker fails the run instead of leaving it waiting.
// Generic over the job and result types, so this module needs nothing of svg-clean.ts (which loads it).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

export const SVG_CLEAN_WORKER = new URL('./svg-clean-worker.mjs', import.meta.url);

/** Jobs per message: large enough that messaging costs little, small enough to share the tail evenly. */
export const BATCH_JOBS = 50;

/** Whether the worker's module is there to run (not inside a bundle, which has no such file). */
export function workersAvailable(file: URL = SVG_CLEAN_WORKER): boolean {
  return file.protocol === 'file:' && existsSync(fileURLToPath(file));
}

/** What a worker receives: a batch of jobs and where it starts; what it answers: the results of that batch. */
export interface BatchRequest<Job> {
  start: number;
  jobs: Job[];
}
export interface BatchReply<Result> {
  start: number;
  results: Result[];
}

export interface WorkerPoolOptions {
  workers: number;
  /** The worker module (default: the SVG cleanup's). */
  file?: URL;
  batchJobs?: number;
  /** Called after each batch: jobs done so far, and in all. */
  onProgress?: (done: number, total: number) => void;
}

export async function cleanInWorkers<Job, Result>(jobs: readonly Job[], options: WorkerPoolOptions): Promise<Result[]> {
  const { file = SVG_CLEAN_WORKER, batchJobs = BATCH_JOBS, onProgress } = options;
  const results: Result[] = new Array(jobs.length);
  if (jobs.length === 0) return results;
  const count = Math.max(1, Math.min(options.workers, Math.ceil(jobs.length / batchJobs)));
  const pool: Worker[] = [];
  let next = 0;
  let done = 0;
  try {
    await new Promise<void>((finish, fail) => {
      const feed = (worker: Worker) => {
        if (next >= jobs.length) return;
        const request: BatchRequest<Job> = { start: next, jobs: jobs.slice(next, next + batchJobs) };
        next += request.jobs.length;
        worker.postMessage(request);
      };
      for (let index = 0; index < count; index++) {
        const worker = new Worker(file);
        pool.push(worker);
        worker.on('message', ({ start, results: batch }: BatchReply<Result>) => {
          for (let offset = 0; offset < batch.length; offset++) results[start + offset] = batch[offset]!;
          done += batch.length;
          onProgress?.(done, jobs.length);
          if (done === jobs.length) finish();
          else feed(worker);
        });
        worker.once('error', (error) => fail(new Error(`SVG cleanup worker failed: ${error.message}`, { cause: error })));
        // Only ever terminated by this function once every result is in: an exit before is a crash.
        worker.once('exit', (code) => {
          if (done < jobs.length) fail(new Error(`SVG cleanup worker exited (code ${code}) with ${jobs.length - done} files not cleaned`));
        });
        feed(worker);
      }
    });
  } finally {
    await Promise.all(pool.map((worker) => worker.terminate()));
  }
  return results;
}
