// The icon's SVG and page addresses, from templates in the config: `{id}`, `{slug}`,
// `{prefix}`, `{name}` (the icon's name in its set) and, for pages, `{locale}`.
export interface UrlTemplates {
  svgUrl: string;
  pageUrl: string;
  defaultLocale: string;
}

export const DEFAULT_URL_TEMPLATES: UrlTemplates = {
  svgUrl: 'https://cdn.icon-catalogue.example/svg/{prefix}/{name}.svg',
  pageUrl: 'https://icon-catalogue.example/{locale}/icons/{slug}',
  defaultLocale: 'en',
};

export const TEMPLATE_PLACEHOLDERS = ['id', 'slug', 'prefix', 'name', 'locale'] as const;
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
