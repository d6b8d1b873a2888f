// Which headers the responses of one status carry, from what the plugins describe: a header is
// required when every plugin that gives responses of that status sends it with them, or when a
// plugin adds it to every response of that status; optional when only some responses carry it.
// The document names each header once, as a component, with a $ref wherever it is used.
import type { AddedHeader, DescribedHeader, DescribedResponse } from '../../pipeline/plugin.ts';

export interface HeaderObject {
  description: string;
  schema: Record<string, unknown>;
  required: boolean;
}

/** The headers of the responses of `status` given by `producers`, with the headers `added` to them. */
export function headersOf(status: number, producers: readonly DescribedResponse[], added: readonly AddedHeader[]): Record<string, HeaderObject> {
  const found = new Map<string, { header: DescribedHeader; required: boolean }>();
  const note = (header: DescribedHeader, required: boolean) => {
    const key = header.name.toLowerCase();
    const known = found.get(key);
    if (!known) found.set(key, { header, required });
    else if (required) known.required = true;
  };
  for (const producer of producers) {
    for (const header of producer.headers ?? []) {
      const everyProducer = producers.every((other) => other.headers?.some((h) => h.name.toLowerCase() === header.name.toLowerCase()));
      note(header, everyProducer);
    }
  }
  for (const header of added) {
    if ((!header.statuses || header.statuses.includes(status)) && !header.exceptStatuses?.includes(status)) note(header, header.always);
  }
  return Object.fromEntries(
    [...found.values()].map(({ header, required }) => [header.name, { description: header.description, schema: header.schema, required }]),
  );
}

/** The component name of a header: X-RateLimit-Limit -> XRateLimitLimit. */
function componentName(header: string): string {
  return header.replace(/[^A-Za-z0-9]/g, '');
}

type Responses = Record<string, { headers?: Record<string, unknown> }>;

/**
 * Moves the header objects of `responses` (each a status -> response map) into components and
 * puts $refs in their place. A header that is required on some statuses and optional on
 * others has two components, the optional one named `<Name>IfSent`.
 */
export function headerComponents(responses: readonly Responses[]): Record<string, HeaderObject> {
  const headerObjects = responses.flatMap((map) => Object.values(map).flatMap((response) => Object.entries(response.headers ?? {}))) as [string, HeaderObject][];
  const requiredSomewhere = new Set(headerObjects.filter(([, header]) => header.required).map(([name]) => componentName(name)));
  const components: Record<string, HeaderObject> = {};
  for (const map of responses) {
    for (const response of Object.values(map)) {
      if (!response.headers) continue;
      for (const [name, header] of Object.entries(response.headers) as [string, HeaderObject][]) {
        const base = componentName(name);
        const named = header.required || !requiredSomewhere.has(base) ? base : `${base}IfSent`;
        // A header another path describes otherwise (Cache-Control of files and of JSON) gets a component of its own.
        let component = named;
        for (let n = 2; components[component] && JSON.stringify(components[component]) !== JSON.stringify(header); n++) component = `${named}${n}`;
        components[component] ??= header;
        response.headers[name] = { $ref: `#/components/headers/${component}` };
      }
    }
  }
  return components;
}
