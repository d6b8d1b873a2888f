// A worker of svg-clean-workers.ts: cleans its slice of files and posts the results back.
import { parentPort, workerData } from 'node:worker_threads';
import { cleanSvgFile, type CleanResult, type SvgFileJob } from './svg-clean.ts';

const jobs = workerData as SvgFileJob[];
const results: CleanResult[] = [];
for (const job of jobs) results.push(await cleanSvgFile(job));
parentPort!.postMessage(results);
