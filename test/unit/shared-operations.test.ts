// The operations a config reload reuses: gateways of one process that read the same operation
// files share one library (the same documents, validated once per schema); a file changed,
// added or removed gives the next gateway a library of its own, read from the files as they are.
import { appendFile, cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../lib/project-root.ts';
import { sharedOperations } from '../../gateway/plugins/rest-routes/operations.ts';
import { ResourcePool } from '../../gateway/shared-resources.ts';
import { createCatalogueSchema } from '../../resolvers/schema.ts';

describe('operations shared across gateways', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'shared-operations-'));
    await cp(join(PROJECT_ROOT, 'gateway', 'operations'), dir, { recursive: true });
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('gives a gateway built while another holds the same files the same documents and validation', () => {
    const pool = new ResourcePool();
    const first = pool.lease();
    const second = pool.lease();
    const before = sharedOperations(dir, first.keep);
    const after = sharedOperations(dir, second.keep);
    expect(after).toBe(before);
    const document = before.document('ListIcons');
    expect(after.document('ListIcons')).toBe(document);
    const schema = createCatalogueSchema();
    const errors = before.validate(schema, document);
    expect(errors).toEqual([]);
    expect(after.validate(schema, document)).toBe(errors);
  });

  it('reads the files again when one changed, one was added, or every holder let go', async () => {
    const pool = new ResourcePool();
    const first = pool.lease();
    const original = sharedOperations(dir, first.keep);
    await appendFile(join(dir, 'ListIcons.graphql'), '\n# edited\n');
    const changed = sharedOperations(dir, pool.lease().keep);
    expect(changed).not.toBe(original);
    expect(changed.document('ListIcons')).not.toBe(original.document('ListIcons'));

    await writeFile(join(dir, 'Extra.graphql'), 'query Extra { categories { slug } }\n');
    const added = sharedOperations(dir, pool.lease().keep);
    expect(added).not.toBe(changed);
    expect(added.document('Extra').definitions).toHaveLength(1);
    expect(() => changed.document('Extra')).toThrow(/no operation named Extra/);

    await first.release();
    await rm(join(dir, 'Extra.graphql'));
    await writeFile(join(dir, 'ListIcons.graphql'), await readFile(join(PROJECT_ROOT, 'gateway', 'operations', 'ListIcons.graphql'), 'utf8'));
    expect(sharedOperations(dir, pool.lease().keep)).not.toBe(original);
  });
});
