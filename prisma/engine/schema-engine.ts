// Prisma's schema engine built to WebAssembly, driven through a driver adapter.
// The native `schema-engine` binary is downloaded from Prisma's binary host, which these
// machines cannot reach; this WASM build ships inside an npm package instead. On Node 20
// its package entry needs `--experimental-wasm-modules`, so we load the wasm-bindgen glue
// and instantiate the `.wasm` ourselves.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { SqlDriverAdapter, SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { bindMigrationAwareSqlAdapterFactory } from '@prisma/driver-adapter-utils';
import type { SchemaEngine } from '@prisma/schema-engine-wasm';

type WasmExports = Record<string, unknown>;
type Glue = typeof import('@prisma/schema-engine-wasm/schema_engine_bg') & {
  __wbg_set_wasm(exports: WasmExports): void;
};

// @types/node 20 does not type the WebAssembly global (TypeScript keeps it in the DOM lib).
interface WasmApi {
  instantiate(bytes: Uint8Array, imports: Record<string, object>): Promise<{ instance: { exports: WasmExports } }>;
}
const { WebAssembly: wasmApi } = globalThis as unknown as { WebAssembly: WasmApi };

const require = createRequire(import.meta.url);
let gluePromise: Promise<Glue> | undefined;

/**
 * The engine races some operations against a JavaScript timer (10 s for PostgreSQL's
 * migration advisory lock) and never clears it: the wasm imports setTimeout but not
 * clearTimeout. Each such timer kept a finished CLI command alive for 10 s. The timers it
 * starts are kept here and cleared once no engine is open any more.
 */
const engineTimers = new Set<ReturnType<typeof setTimeout>>();
let openEngines = 0;

function withTrackedTimers(glue: Glue): Record<string, unknown> {
  const imports: Record<string, unknown> = { ...glue };
  for (const name of Object.keys(glue).filter((key) => key.startsWith('__wbg_setTimeout_'))) {
    imports[name] = (callback: () => void, milliseconds: number) => {
      const timer = setTimeout(() => {
        engineTimers.delete(timer);
        callback();
      }, milliseconds >>> 0);
      engineTimers.add(timer);
      return timer;
    };
  }
  return imports;
}

function clearEngineTimers(): void {
  for (const timer of engineTimers) clearTimeout(timer);
  engineTimers.clear();
}

function loadGlue(): Promise<Glue> {
  gluePromise ??= (async () => {
    const glue = (await import('@prisma/schema-engine-wasm/schema_engine_bg')) as Glue;
    // The package exports no path to the .wasm file itself; it sits beside the glue module.
    const wasmPath = join(dirname(require.resolve('@prisma/schema-engine-wasm/schema_engine_bg')), 'schema_engine_bg.wasm');
    const { instance } = await wasmApi.instantiate(await readFile(wasmPath), { './schema_engine_bg.js': withTrackedTimers(glue) });
    glue.__wbg_set_wasm(instance.exports);
    (instance.exports.__wbindgen_start as () => void)();
    return glue;
  })();
  return gluePromise;
}

export interface EngineHandle {
  engine: SchemaEngine;
  /**
   * Frees the engine and closes the connections it opened. Migrations hold a session-level
   * advisory lock on PostgreSQL; until its connection closes, another process that migrates
   * the same database (a second gateway starting at the same time) waits for it.
   */
  close(): Promise<void>;
  /** Driver errors reach the engine as "External error id#N"; this turns N back into the adapter's error. */
  explain(error: unknown): Error;
}

export async function openSchemaEngine(
  adapterFactory: SqlMigrationAwareDriverAdapterFactory,
  datamodel: { path: string; content: string },
): Promise<EngineHandle> {
  const glue = await loadGlue();
  const opened: SqlDriverAdapter[] = [];
  const track = async (adapter: Promise<SqlDriverAdapter>) => {
    const connected = await adapter;
    opened.push(connected);
    return connected;
  };
  const bound = bindMigrationAwareSqlAdapterFactory({
    adapterName: adapterFactory.adapterName,
    provider: adapterFactory.provider,
    connect: () => track(adapterFactory.connect()),
    connectToShadowDb: () => track(adapterFactory.connectToShadowDb()),
  });
  const log = () => {};
  openEngines++;
  let released = false;
  let engine: SchemaEngine;
  try {
    engine = await glue.SchemaEngine.new({ datamodels: [[datamodel.path, datamodel.content]] }, log, bound);
  } catch (error) {
    await release();
    throw error;
  }
  async function release(): Promise<void> {
    if (released) return;
    released = true;
    await Promise.all(opened.splice(0).map((adapter) => adapter.dispose().catch(() => {})));
    if (--openEngines === 0) clearEngineTimers();
  }
  return {
    engine,
    async close() {
      engine.free();
      await release();
    },
    explain(error) {
      const message = error instanceof Error ? error.message : String(error);
      const id = /External error id#(\d+)/.exec(message)?.[1];
      const original = id ? bound.errorRegistry.consumeError(Number(id)) : undefined;
      if (!original) return error instanceof Error ? error : new Error(message);
      const cause = original.error as { message?: string; originalMessage?: string; kind?: string };
      return new Error(`${message}: ${cause.originalMessage ?? cause.message ?? cause.kind ?? 'driver error'}`);
    },
  };
}
