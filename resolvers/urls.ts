// The icon's SVG and page addresses, from templates in the config: `{id}`, `{slug}`,
// `{prefix}`, `{name}` (the icon's name in its set), `{v}` (the version of the icon's file, see
// fileVersion) and, for pages, `{locale}`.
export interface UrlTemplates {
  svgUrl: string;
  pageUrl: string;
  defaultLocale: string;
}

export const DEFAULT_URL_TEMPLATES: UrlTemplates = {
  svgUrl: 'https://cdn.icon-catalogue.example/svg/{prefix}/{name}.svg?v={v}',
  pageUrl: 'https://icon-catalogue.example/{locale}/icons/{slug}',
  defaultLocale: 'en',
};

export const TEMPLATE_PLACEHOLDERS = ['id', 'slug', 'prefix', 'name', 'v', 'locale'] as const;

/**
 * Bumped whenever the gateway's SVG output changes for the same stored body (the output
 * sanitizer, the wrapping `<svg>`), so that no versioned address keeps its old file.
 */
const FILE_OUTPUT_GENERATION = 1;

/** The version of an icon's file: the output's generation and the digest of what it is made from (icons.body_digest). */
export function fileVersion(bodyDigest: string): string {
  return `${FILE_OUTPUT_GENERATION}-${bodyDigest}`;
}
export type TemplateValues = Partial<Record<(typeof TEMPLATE_PLACEHOLDERS)[number], string | number>>;

/** Placeholders in a template that are not known; [] when it is fine. */
export function unknownPlaceholders(template: string): string[] {
  const known = new Set<string>(TEMPLATE_PLACEHOLDERS);
  return [...template.matchAll(/\{([^}]*)\}/g)].map((match) => match[1]!).filter((name) => !known.has(name));
}

export function fillTemplate(template: string, values: TemplateValues): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = values[name as keyof TemplateValues];
    return value === undefined ? whole : encodeURIComponent(String(value));
  });
}

export const LOCALE_PATTERN = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})?$/;
