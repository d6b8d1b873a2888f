// The bundle takes Prisma's query compiler from a file the build writes beside it, not from the
// package's module that inlines it as a 4.4 MB base64 string, which V8 would keep twice for the
// life of the process (scripts/build-gateway.mjs). test/global-setup.ts built dist/ as npm start does.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GATEWAY_BUNDLE } from '../../lib/start-command.ts';
import { PROJECT_ROOT } from '../../lib/project-root.ts';

const bundle = readFileSync(join(PROJECT_ROOT, GATEWAY_BUNDLE), 'utf8');
const dist = join(PROJECT_ROOT, 'dist');

/** The package modules (base64 WebAssembly) that Prisma's generated client imports. */
function base64ModulesNamed(): string[] {
  const generated = readFileSync(join(PROJECT_ROOT, 'prisma', 'generated', 'internal', 'class.ts'), 'utf8');
  return [...generated.matchAll(/import\("(@prisma\/client\/runtime\/[^"]+\.wasm-base64\.mjs)"\)/g)].map((match) => match[1]!);
}

describe("the bundle's Prisma query compiler", () => {
  it('imports no base64 module of the package: every one the generated client names is replaced', () => {
    expect(base64ModulesNamed().length).toBeGreaterThan(0);
    expect(bundle).not.toMatch(/import\("[^"]*wasm-base64[^"]*"\)/);
    expect(bundle).not.toContain('AGFzbQ'); // the base64 of a WebAssembly module's first bytes
  });

  it('reads the same WebAssembly bytes from the file written beside the bundle', async () => {
    const require = createRequire(join(PROJECT_ROOT, 'package.json'));
    for (const specifier of base64ModulesNamed()) {
      const file = basename(specifier).replace('.wasm-base64.mjs', '.wasm');
      expect(bundle).toContain(`new URL("./${file}", import.meta.url)`);
      const { wasm } = (await import(require.resolve(specifier))) as { wasm: string };
      const written = readFileSync(join(dist, file));
      expect(written.equals(Buffer.from(wasm, 'base64'))).toBe(true);
      expect(WebAssembly.validate(written)).toBe(true);
    }
  });
});
