// The entry of a cleanup worker thread: loads the TypeScript worker through tsx's API (a worker
// does not inherit the loader that runs the CLI).
import { tsImport } from 'tsx/esm/api';

await tsImport('./svg-clean-worker.ts', import.meta.url);
