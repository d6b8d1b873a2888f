// The SVG cleanup of a large folder spread over worker threads: SVGO and colour parsing are pure
// CPU, a few milliseconds per file, so a folder of 10,000 files is worth the cores there are.
// Generic over the job and result types, so this module needs nothing of svg-clean.ts (which loads it).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

const WORKER_FILE = new URL('./svg-clean-worker.mjs', import.meta.url);

/** Whether the worker's module is there to run (not inside a bundle, which has no such file). */
export function workersAvailable(): boolean {
  return WORKER_FILE.protocol === 'file:' && existsSync(fileURLToPath(WORKER_FILE));
}

export async function cleanInWorkers<Job, Result>(jobs: readonly Job[], workers: number): Promise<Result[]> {
  const results: Result[] = new Array(jobs.length);
  const count = Math.max(1, Math.min(workers, jobs.length));
  const chunk = Math.ceil(jobs.length / count);
  const runs: Promise<void>[] = [];
  for (let index = 0; index < count; index++) {
    const start = index * chunk;
    const slice = jobs.slice(start, start + chunk);
    if (slice.length === 0) continue;
    runs.push(
      new Promise<void>((done, fail) => {
        const worker = new Worker(WORKER_FILE, { workerData: slice });
        worker.once('message', (cleaned: Result[]) => {
          for (let offset = 0; offset < cleaned.length; offset++) results[start + offset] = cleaned[offset]!;
          done();
        });
        worker.once('error', fail);
        worker.once('exit', (code) => (code === 0 ? done() : fail(new Error(`SVG cleanup worker exited with ${code}`))));
      }),
    );
  }
  await Promise.all(runs);
  return results;
}
