// Config reloads of a running `npm start` (SIGHUP) or `npm run dev` (a file changed), without a
// restart (docs/reload.md): .meshrc.yaml and the operations are read again and a new gateway is
// built beside the one serving, with what must outlive it handed on (the rate-limit counts,
// the failed-auth throttle, downloads not yet written, Redis connections, the caches of routes
// that did not change: gateway/shared-resources.ts). The front then serves the new one from
// the next request on; the old one finishes its requests in flight and is closed, which
// disposes only what the new one did not keep. A config that does not build leaves the running
// gateway as it is: one error line, icon_gateway_config_reloads_total{result="failed"}.
import { watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { Logger } from 'pino';
import { ConfigError } from '../../lib/config-validation.ts';
import type { GatewayHost } from '../gateway.ts';
import { firstLine } from './mesh-config-file.ts';
import { loadMesh, type LoadedMesh } from './load-mesh.ts';
import type { Front } from './server.ts';

export interface Reloader {
  /**
   * Reloads now, or right after a reload under way (requests meanwhile join that next one).
   * Resolves once the new gateway serves ('applied') or was refused ('failed').
   */
  reload(reason: string): Promise<'applied' | 'failed'>;
  /** The mesh served now. */
  readonly current: LoadedMesh;
  /** Waits for a reload under way (before the process stops). */
  settle(): Promise<void>;
  /** Waits for the gateways reloads replaced to finish their requests and close. */
  retired(): Promise<void>;
  /** Stops watching files. */
  close(): void;
}

export interface ReloaderOptions {
  front: Front;
  host: GatewayHost;
  first: LoadedMesh;
  log: Logger;
  /** Reload when .meshrc.yaml or a file its plugins read changes (`npm run dev`). */
  watchFiles?: boolean;
  /** How long file events are gathered before one reload. @default 150 */
  settleMs?: number;
}

/** Mesh's `serve:` settings a running `npm start` cannot take: it listens on PORT and HOST from the environment. */
const LISTEN_SETTINGS = ['port', 'hostname'] as const;

/** The settings a reload cannot apply in place, as "key (before -> after)". */
function needsRestart(before: LoadedMesh, after: LoadedMesh): string[] {
  const of = (loaded: LoadedMesh) => (loaded.serve ?? {}) as Record<string, unknown>;
  return LISTEN_SETTINGS.filter((key) => JSON.stringify(of(before)[key]) !== JSON.stringify(of(after)[key])).map(
    (key) => `serve.${key} (${JSON.stringify(of(before)[key]) ?? 'unset'} -> ${JSON.stringify(of(after)[key]) ?? 'unset'})`,
  );
}

/** An error as one line: a ConfigError's problems joined, anything else's first line (YAML and Mesh add snippets and stacks). */
function oneLine(error: unknown): string {
  if (!(error instanceof ConfigError)) return firstLine(error);
  const [head = '', ...problems] = error.message.split('\n').map((line) => line.trim()).filter(Boolean);
  return problems.length ? `${head} ${problems.join('; ')}` : head;
}

export function createReloader({ front, host, first, log, watchFiles = false, settleMs = 150 }: ReloaderOptions): Reloader {
  let current = first;
  let running: Promise<'applied' | 'failed'> | undefined;
  let next: Promise<'applied' | 'failed'> | undefined;
  const closing = new Set<Promise<void>>();
  const watchers: FSWatcher[] = [];
  let closed = false;

  async function reloadNow(reason: string): Promise<'applied' | 'failed'> {
    const started = performance.now();
    const { metrics } = current.gateway;
    let loaded: LoadedMesh;
    try {
      loaded = await loadMesh(host, current.dir, current);
      await loaded.gateway.start(2_000).catch(async (error: unknown) => {
        await loaded.gateway.close();
        loaded.mesh.destroy();
        throw error;
      });
    } catch (error) {
      metrics.configReload('failed');
      log.error({ msg: `Reload (${reason}) failed; still serving the previous config: ${oneLine(error)}`, file: current.file });
      log.flush(); // now, not with the log's next batch: whoever edited the file is waiting for it
      return 'failed';
    }
    const restart = needsRestart(current, loaded);
    const swapped = front.swap(loaded);
    current = loaded;
    metrics.configReload('applied');
    log.info({ msg: `Reloaded ${loaded.file} (${reason}) in ${Math.round(performance.now() - started)} ms; requests in flight finish on the previous config` });
    if (restart.length) log.warn({ msg: `Reload (${reason}): ${restart.join(', ')} changed; npm start listens on PORT and HOST from the environment: restart the process to move it` });
    log.flush();
    const retired = swapped.then(async ({ previous, waited, late }) => {
      if (late) log.warn({ msg: `Reload: ${late} request(s) of the previous config still unfinished after its server.drainTimeoutMs; closing it anyway` });
      await previous.gateway.close();
      previous.mesh.destroy();
      // Said only when it had to wait: a reload with nothing in flight is one line.
      const line = { msg: `Previous config closed once its ${waited} request(s) in flight finished, ${Math.round(performance.now() - started)} ms after the reload began` };
      if (waited > 0) log.info(line);
      else log.debug(line);
      log.flush();
    });
    const tracked = retired.catch((error: unknown) => log.error({ msg: `Closing the previous config failed: ${firstLine(error)}` })).finally(() => closing.delete(tracked));
    closing.add(tracked);
    if (watchFiles) rewatch();
    return 'applied';
  }

  function reload(reason: string): Promise<'applied' | 'failed'> {
    if (!running) {
      running = reloadNow(reason).finally(() => (running = undefined));
      return running;
    }
    // One more after the one under way, for every request that came meanwhile: the files may
    // have changed again after it read them.
    next ??= running.then(() => {
      next = undefined;
      return reload(reason);
    });
    return next;
  }

  let timer: NodeJS.Timeout | undefined;
  const changed = (what: string) => {
    clearTimeout(timer);
    timer = setTimeout(() => void reload(`${what} changed`), settleMs);
  };

  /** Watches the config's folder (for .meshrc.yaml: editors replace the file) and the folders its plugins read. */
  function rewatch(): void {
    for (const watcher of watchers.splice(0)) watcher.close();
    if (closed) return;
    const configName = basename(current.file);
    const add = (path: string, accept: (name: string) => boolean) => {
      try {
        const watcher = watch(path, (_event, name) => {
          if (name && accept(name.toString())) changed(name.toString());
        });
        watcher.on('error', (error) => log.warn({ msg: `Not watching ${path} any more: ${firstLine(error)}` }));
        watchers.push(watcher);
      } catch (error) {
        log.warn({ msg: `Cannot watch ${path}: ${firstLine(error)}` });
      }
    };
    add(dirname(current.file), (name) => name === configName);
    for (const path of new Set(current.gateway.watchedPaths)) add(path, (name) => name.endsWith('.graphql'));
  }
  if (watchFiles) rewatch();

  return {
    reload,
    get current() {
      return current;
    },
    async settle() {
      await next;
      await running;
    },
    async retired() {
      await Promise.all(closing);
    },
    close() {
      closed = true;
      clearTimeout(timer);
      for (const watcher of watchers.splice(0)) watcher.close();
    },
  };
}
