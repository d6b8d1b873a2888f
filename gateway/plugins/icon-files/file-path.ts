/** `/svg/mdi/home.svg` -> { prefix: 'mdi', name: 'home' }; undefined when the path is not a file's. */
export function fileOf(path: string, base: string, extension: string): { prefix: string; name: string } | undefined {
  if (!path.startsWith(`${base}/`) || !path.endsWith(extension)) return undefined;
  const segments = path.slice(base.length + 1, -extension.length).split('/');
  if (segments.length !== 2 || !segments[0] || !segments[1]) return undefined;
  try {
    return { prefix: decodeURIComponent(segments[0]), name: decodeURIComponent(segments[1]) };
  } catch {
    // A malformed %-escape names no icon: the caller answers 404.
    return undefined;
  }
}
