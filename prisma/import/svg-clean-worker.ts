// A worker of svg-clean-workers.ts: cleans each batch of files it is sent and posts the results back.
import { parentPort } from 'node:worker_threads';
import { cleanSvg, type CleanResult, type SvgCleanJob } from './svg-clean.ts';
import type { BatchReply, BatchRequest } from './svg-clean-workers.ts';

parentPort!.on('message', ({ start, jobs }: BatchRequest<SvgCleanJob>) => {
  const reply: BatchReply<CleanResult> = { start, results: jobs.map((job) => cleanSvg(job.content, job.idPrefix)) };
  parentPort!.postMessage(reply);
});
