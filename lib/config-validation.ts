// Config is validated once, before anything runs, with messages that name the bad key and say
// what it should be, so that a maintainer who edits YAML is told where they went wrong.
import { z } from 'zod';

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export function formatPath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return '(top level)';
  return path
    .map((part, i) => {
      if (typeof part === 'number') return `[${part}]`;
      const name = String(part);
      if (!/^[A-Za-z_][\w]*$/.test(name)) return `[${JSON.stringify(name)}]`;
      return `${i ? '.' : ''}${name}`;
    })
    .join('');
}

/** Parses `raw` with `schema`; throws one ConfigError listing every problem under `where`. */
export function validateConfig<T extends z.ZodType>(schema: T, raw: unknown, where: string, prefix: readonly PropertyKey[] = []): z.infer<T> {
  const result = schema.safeParse(raw);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => `  ${formatPath([...prefix, ...issue.path])}: ${issue.message}`);
  throw new ConfigError(`${where} is invalid:\n${problems.join('\n')}`);
}

/** An environment variable's whole number, 0 or more; empty counts as unset (then its `.default`, if any). */
export const envWholeNumber = z.preprocess((value) => (value === '' ? undefined : value), z.coerce.number().int().min(0).optional());
