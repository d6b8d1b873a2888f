// Waits until the gateways have finished their start-up work before anything is measured. A
// gateway serves as soon as it listens, then reads its list index and search vocabulary in the
// background: on the full catalogue the list index's statement ran 12 s into the measured window
// on a slow machine, and PostgreSQL gave it most of a core (single-icon misses 909-1,130 a second
// against 1,246-1,537 once it was done; bench/RESULTS.md, 2026-11-26 morning). Quiet means: each
// gateway used under a tenth of a core for two samples in a row, and (with PostgreSQL) no other
// statement is running in its database. This works for a compared older commit too, which may
// not log when its index is ready.
import { readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';

const SAMPLE_MS = 500;
const QUIET_SAMPLES = 2;
const QUIET_SHARE_OF_A_CORE = 0.1;
/** Clock ticks per second of /proc/<pid>/stat's times (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** The process's user plus system CPU time in seconds, undefined where /proc cannot tell. */
async function cpuSeconds(pid: number): Promise<number | undefined> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

async function otherActiveStatements(client: pg.Client): Promise<number> {
  const { rows } = await client.query<{ count: number }>(
    "SELECT count(*)::int AS count FROM pg_stat_activity WHERE datname = current_database() AND state = 'active' AND pid <> pg_backend_pid()",
  );
  return rows[0]!.count;
}

/** Resolves with the seconds waited once every process in `pids` is quiet (and the database), or after `timeoutMs` with undefined. */
export async function waitUntilQuiet(pids: number[], databaseUrl: string | undefined, timeoutMs: number): Promise<number | undefined> {
  const started = performance.now();
  const client = databaseUrl ? new pg.Client({ connectionString: databaseUrl }) : undefined;
  await client?.connect();
  try {
    let previous = await Promise.all(pids.map(cpuSeconds));
    let quietSamples = 0;
    while (performance.now() - started < timeoutMs) {
      await sleep(SAMPLE_MS);
      const now = await Promise.all(pids.map(cpuSeconds));
      const busyProcess = now.some((seconds, index) => seconds !== undefined && previous[index] !== undefined && (seconds - previous[index]!) / (SAMPLE_MS / 1000) >= QUIET_SHARE_OF_A_CORE);
      const busyDatabase = client ? (await otherActiveStatements(client)) > 0 : false;
      previous = now;
      quietSamples = busyProcess || busyDatabase ? 0 : quietSamples + 1;
      if (quietSamples >= QUIET_SAMPLES) return (performance.now() - started) / 1000;
    }
    return undefined;
  } finally {
    await client?.end();
  }
}
