// scripts/check-docs.ts, the docs check of `npm run lint`: anchors as GitHub makes them, links
// and anchors that do not resolve, and options a schema has that docs/configuration.md lacks.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { anchorsOf, checkLinks, documentedSchemas, optionPaths, optionProblems, schemaExportName, slugOf } from '../../scripts/check-docs.ts';

describe('check-docs', () => {
  it('makes anchors as GitHub does', () => {
    expect(slugOf('The gateway entry: `@icon-catalogue/gateway`')).toBe('the-gateway-entry-icon-cataloguegateway');
    expect(slugOf('`GET /icons/{ref}/similar`')).toBe('get-iconsrefsimilar');
    expect(slugOf("GraphQL limits and Mesh's `serve` section")).toBe('graphql-limits-and-meshs-serve-section');
    expect(slugOf('Caching: versioned addresses')).toBe('caching-versioned-addresses');
    expect([...anchorsOf('# A\n## Notes\n```sh\n# not a heading\n```\n## Notes\n')]).toEqual(['a', 'notes', 'notes-1']);
  });

  it('reports links to missing files and anchors, and only notes pages still being written', () => {
    const root = mkdtempSync(join(tmpdir(), 'check-docs-'));
    try {
      mkdirSync(join(root, 'docs'));
      writeFileSync(join(root, 'README.md'), '[ok](docs/a.md#one) [bad anchor](docs/a.md#two) [gone](docs/b.md) [soon](docs/c.md) `[code](docs/x.md)` [web](https://example.com)\n');
      writeFileSync(join(root, 'docs', 'a.md'), '# One\n[self](#one) [up](../README.md)\n');
      const { problems, pending } = checkLinks(root, ['docs/c.md']);
      expect(problems.map((p) => p.message)).toEqual(['links to docs/a.md#two: docs/a.md has no heading with the anchor #two', 'links to docs/b.md: no such file']);
      expect(pending).toEqual(['README.md:1 links to docs/c.md, still being written']);
      expect(checkLinks(root, []).problems).toHaveLength(3);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('walks a zod schema into the option paths the page must name', () => {
    const schema = z
      .object({
        a: z.number().default(1),
        nested: z.object({ b: z.string() }).strict().default({ b: 'x' }),
        list: z.array(z.object({ c: z.boolean() })),
        map: z.record(z.string(), z.discriminatedUnion('type', [z.object({ type: z.literal('x'), d: z.number() }), z.object({ type: z.literal('y'), e: z.string() })])),
        url: z.string().transform((value) => value.trim()).optional(),
      })
      .strict();
    expect(optionPaths(schema)).toEqual(['a', 'nested', 'nested.b', 'list', 'list[].c', 'map', 'map.<name>.type', 'map.<name>.d', 'map.<name>.e', 'url']);
    const markdown = '## `thing`\n\n| `a` | `nested` | `nested.b` | `list` | `list[].c` | `map` | `map.<name>.type` | `map.<name>.d` | `url` |\n\n## `other`\n\n`map.<name>.e`\n';
    expect(optionProblems(markdown, [{ section: 'thing', schema }]).map((p) => p.message)).toEqual(['section `thing` does not document the option `map.<name>.e`']);
    expect(optionProblems(markdown, [{ section: 'missing', schema }]).map((p) => p.message)).toEqual(['has no section headed by `missing` (its options are documented there)']);
  });

  it("finds every plugin's schema by its folder's options.ts and the export named after it", async () => {
    expect(schemaExportName('rate-limit')).toBe('rateLimitOptions');
    const { schemas, problems } = await documentedSchemas();
    expect(problems).toEqual([]);
    expect(schemas.map((s) => s.section)).toEqual(expect.arrayContaining(['@icon-catalogue/gateway', 'rate-limit', 'rest-routes', 'icon-files', 'web-pages']));
    expect(optionPaths(schemas.find((s) => s.section === 'rate-limit')!.schema)).toContain('headers.retryAfter');
  });
});
