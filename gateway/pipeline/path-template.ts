// Path templates as routes are written in .meshrc.yaml: `/icons/{ref}`, `/svg/{prefix}/{name}.svg`.
// A parameter is one path segment; a trailing slash is allowed.

export interface PathTemplate {
  pattern: RegExp;
  /** The parameters' names, in order. */
  names: string[];
}

export function compilePathTemplate(path: string): PathTemplate {
  const names: string[] = [];
  const source = path.replace(/[.]/g, '\\.').replace(/\{([^}]+)\}/g, (_, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  return { pattern: new RegExp(`^${source}/?$`), names };
}

/** The decoded parameters of `path`; undefined when it does not match or a segment is not valid percent-encoding. */
export function pathParams({ pattern, names }: PathTemplate, path: string): Record<string, string> | undefined {
  const found = pattern.exec(path);
  if (!found) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < names.length; i++) {
    try {
      params[names[i]!] = decodeURIComponent(found[i + 1]!);
    } catch {
      // A malformed %-escape: the path matches no route of this template (404, not 500).
      return undefined;
    }
  }
  return params;
}
