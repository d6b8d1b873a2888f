// The project's root folder (where its package.json is), found the same way whether this code
// runs from its TypeScript sources (tsx, tests) or bundled into dist/ (npm start), where every
// module's import.meta.dirname is dist/.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const PACKAGE_NAME = 'icon-catalogue-gateway';

function isProjectRoot(dir: string): boolean {
  const file = join(dir, 'package.json');
  if (!existsSync(file)) return false;
  return (JSON.parse(readFileSync(file, 'utf8')) as { name?: string }).name === PACKAGE_NAME;
}

export function findProjectRoot(start: string): string {
  for (let dir = start; ; dir = dirname(dir)) {
    if (isProjectRoot(dir)) return dir;
    if (dirname(dir) === dir) throw new Error(`no ${PACKAGE_NAME} package.json above ${start}`);
  }
}

export const PROJECT_ROOT = findProjectRoot(import.meta.dirname);
