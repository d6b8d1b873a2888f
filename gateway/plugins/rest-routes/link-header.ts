// RFC 8288 `Link` headers for paged responses: first, prev, next and last, each the request's
// own path and query with only `page` changed (so every other parameter, unknown ones included,
// is kept as sent). The targets are relative references (path and query, no scheme or host),
// resolved against the request's own URL: right behind any proxy or host name, with nothing to
// configure.

export interface PagePosition {
  page: number;
  /** The number of pages; 0 when nothing matches. */
  totalPages: number;
}

/** Where a page body stands, from its `meta` (`page` and `total_pages`); undefined when it does not say. */
export function pagePosition(body: unknown): PagePosition | undefined {
  const meta = (body as { meta?: { page?: unknown; total_pages?: unknown } } | null)?.meta;
  const { page, total_pages: totalPages } = meta ?? {};
  return Number.isInteger(page) && Number.isInteger(totalPages) ? { page: page as number, totalPages: totalPages as number } : undefined;
}

/** The Link header of a page: first and last always (last is page 1 when nothing matches), prev and next where they exist. */
export function linkHeader(path: string, query: URLSearchParams, { page, totalPages }: PagePosition): string {
  const last = Math.max(totalPages, 1);
  const target = (n: number) => {
    const params = new URLSearchParams(query);
    params.set('page', String(n));
    return `<${path}?${params}>`;
  };
  const links = [`${target(1)}; rel="first"`];
  if (page > 1) links.push(`${target(Math.min(page - 1, last))}; rel="prev"`);
  if (page < last) links.push(`${target(page + 1)}; rel="next"`);
  links.push(`${target(last)}; rel="last"`);
  return links.join(', ');
}
