// The icon's SVG, preview and page addresses, from templates in the config: `{id}`, `{slug}`,
// `{prefix}`, `{name}` (the icon's name in its set), `{v}` (the version of the icon's file, see
// fileVersion) and, for pages, `{locale}`.
export interface UrlTemplates {
  svgUrl: UrlTemplate;
  /** The public PNG preview (premium icons included): icon-files' preview route. */
  previewUrl: UrlTemplate;
  pageUrl: UrlTemplate;
  defaultLocale: string;
}

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

/**
 * A template cut at its placeholders once, where the templates are made (catalogue-context), so
 * that filling it is concatenation: every icon of a list page fills two templates, and a regular
 * expression with a callback per fill was a visible part of a list miss's thread in a CPU profile.
 */
export interface UrlTemplate {
  /** Literal text at even indexes, placeholder names at odd ones. */
  readonly parts: readonly string[];
}

export function urlTemplate(text: string): UrlTemplate {
  return { parts: text.split(/\{(\w+)\}/) };
}

export function fillTemplate({ parts }: UrlTemplate, values: TemplateValues): string {
  let filled = parts[0]!;
  for (let k = 1; k < parts.length; k += 2) {
    const name = parts[k]!;
    const value = values[name as keyof TemplateValues];
    filled += (value === undefined ? `{${name}}` : encodeURIComponent(String(value))) + parts[k + 1]!;
  }
  return filled;
}

export const LOCALE_PATTERN = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})?$/;
