// PGlite is one process, one connection: two processes writing one data directory corrupt it.
// A pid file created with O_EXCL guards it. Unlike a lock that goes stale after a timeout,
// a pid file lets a restart after a crash take over at once (the old pid is no longer alive),
// while a live holder is refused immediately with a message that says who holds it.
import { mkdir, open, readFile, unlink } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';

export interface DirectoryLock {
  path: string;
  release(): Promise<void>;
}

export class DirectoryLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holderPid: number,
  ) {
    super(
      `The embedded database ${dataDir} is in use by process ${holderPid}. ` +
        'Stop that process first (PGlite allows one process per data directory), or set DATABASE_URL to use a PostgreSQL server.',
    );
    this.name = 'DirectoryLockedError';
  }
}

export async function acquireDirectoryLock(dataDir: string): Promise<DirectoryLock> {
  const lockPath = `${resolve(dataDir)}.lock`;
  await mkdir(dirname(lockPath), { recursive: true });
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const handle = await open(lockPath, 'wx');
      await handle.writeFile(`${process.pid}\n`);
      await handle.close();
      return { path: lockPath, release: () => releaseIfOurs(lockPath) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      // An empty file may be a holder that has created it but not yet written its pid.
      const holder = (await readHolder(lockPath)) ?? (await delay(200).then(() => readHolder(lockPath)));
      if (holder !== undefined && isAlive(holder)) throw new DirectoryLockedError(resolve(dataDir), holder);
      await unlink(lockPath).catch(() => {});
    }
  }
  throw new Error(`Could not lock ${lockPath}: another process keeps taking it`);
}

async function readHolder(lockPath: string): Promise<number | undefined> {
  const text = await readFile(lockPath, 'utf8').catch(() => '');
  const pid = Number.parseInt(text, 10);
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function releaseIfOurs(lockPath: string): Promise<void> {
  if ((await readHolder(lockPath)) === process.pid) await unlink(lockPath).catch(() => {});
}
