// The SVG cleanup's worker pool (prisma/import/svg-clean-workers.ts): results in input order
// whatever worker took which batch, the same cleaned bodies and refusals as the importing
// thread's, and a worker that throws or exits fails the run with an error instead of a hang.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../lib/project-root.ts';
import { sanitizeSvgBody } from '../../lib/svg/sanitize.ts';
import { cleanSvg, type CleanResult, type SvgCleanJob } from '../../prisma/import/svg-clean.ts';
import { cleanInWorkers, workersAvailable } from '../../prisma/import/svg-clean-workers.ts';

const ECHO_WORKER = new URL('../fixtures/workers/echo-worker.mjs', import.meta.url);
const FIXTURES = join(PROJECT_ROOT, 'test/fixtures/own-icons');

describe('the worker pool', () => {
  it('returns every result at its job index, across many small batches and several workers', async () => {
    const jobs = Array.from({ length: 103 }, (_, index) => `job-${index}`);
    const progress: number[] = [];
    const results = await cleanInWorkers<string, string>(jobs, { workers: 3, file: ECHO_WORKER, batchJobs: 4, onProgress: (done) => progress.push(done) });
    expect(results).toEqual(jobs.map((job) => job.toUpperCase()));
    expect(progress.at(-1)).toBe(103);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
  });

  it('fails the run when a worker throws', async () => {
    const jobs = [...Array.from({ length: 20 }, (_, index) => `job-${index}`), 'crash'];
    await expect(cleanInWorkers(jobs, { workers: 2, file: ECHO_WORKER, batchJobs: 5 })).rejects.toThrow(/SVG cleanup worker failed: a job the worker cannot take/);
  });

  it('fails the run when a worker exits before its batch is done', async () => {
    await expect(cleanInWorkers(['a', 'exit', 'b'], { workers: 1, file: ECHO_WORKER, batchJobs: 1 })).rejects.toThrow(/exited \(code 3\) with 2 files not cleaned/);
  });

  it('runs nothing for no jobs', async () => {
    expect(await cleanInWorkers([], { workers: 2, file: ECHO_WORKER })).toEqual([]);
  });
});

describe('the SVG cleanup in worker threads', () => {
  it('cleans and refuses exactly as the importing thread does, in order', async () => {
    expect(workersAvailable()).toBe(true);
    const files = readdirSync(FIXTURES).filter((name) => name.endsWith('.svg')).sort();
    // Each fixture several times over, under different id prefixes, so batches mix good and bad files.
    const jobs: SvgCleanJob[] = Array.from({ length: 120 }, (_, index) => {
      const name = files[index % files.length]!;
      return { content: readFileSync(join(FIXTURES, name)), idPrefix: `acme-${index}` };
    });
    const inThread: CleanResult[] = jobs.map((job) => cleanSvg(job.content, job.idPrefix));
    const inWorkers = await cleanInWorkers<SvgCleanJob, CleanResult>(jobs, { workers: 2, batchJobs: 7 });
    expect(inWorkers).toEqual(inThread);
    expect(inThread.filter((result) => result.ok).length).toBeGreaterThan(0);
    expect(inThread.filter((result) => !result.ok).length).toBeGreaterThan(0);
  });

  it('gives bodies the sanitizer leaves as they are (the mapping does not sanitize a folder\'s bodies again)', () => {
    for (const name of readdirSync(FIXTURES).filter((file) => file.endsWith('.svg'))) {
      const result = cleanSvg(readFileSync(join(FIXTURES, name)), 'acme-x');
      if (result.ok) expect(sanitizeSvgBody(result.icon.body)).toBe(result.icon.body);
    }
  });
});
