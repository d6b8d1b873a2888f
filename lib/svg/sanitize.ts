// An icon set's SVG must not run code in a page that shows it (inline, or opened as a file at
// its address, where a browser runs an SVG's scripts as it runs a page's). The body is cut to
// an allow-list of drawing elements and attributes (sanitize-html, parsing as XML, no DOM):
// no scripts, styles, foreign objects, links, images or event handlers, and every reference
// (href, url(...)) must point inside the icon (`#id`). Run on import; on output a body is
// served as it is only when it carries this sanitizer's mark (sanitizedMark), so a row written
// by anything else, or by an older allow-list, cannot reach a client unchecked.
import { createHash } from 'node:crypto';
import sanitizeHtml from 'sanitize-html';

/** Bump whenever the allow-list changes: marks of older versions stop matching, so those bodies are sanitized again when served until an import rewrites them. */
export const SANITIZER_VERSION = 1;

const SHAPES = ['g', 'path', 'circle', 'ellipse', 'line', 'polyline', 'polygon', 'rect', 'text', 'tspan', 'title', 'desc'];
const PAINT_SERVERS = ['defs', 'linearGradient', 'radialGradient', 'stop', 'pattern', 'clipPath', 'mask', 'marker', 'symbol', 'use'];
const ANIMATIONS = ['animate', 'animateTransform', 'animateMotion', 'mpath', 'set'];
const FILTERS = [
  'filter', 'feBlend', 'feColorMatrix', 'feComponentTransfer', 'feComposite', 'feDropShadow', 'feFlood', 'feFuncA', 'feFuncB', 'feFuncG', 'feFuncR',
  'feGaussianBlur', 'feMerge', 'feMergeNode', 'feMorphology', 'feOffset', 'feTurbulence', 'feDisplacementMap',
];

const ATTRIBUTES = [
  // geometry and placement
  'id', 'd', 'x', 'y', 'x1', 'y1', 'x2', 'y2', 'cx', 'cy', 'r', 'rx', 'ry', 'fx', 'fy', 'fr', 'width', 'height', 'points', 'pathLength',
  'transform', 'transform-origin', 'viewBox', 'preserveAspectRatio', 'dx', 'dy', 'rotate', 'textLength', 'lengthAdjust',
  // paint
  'fill', 'fill-opacity', 'fill-rule', 'stroke', 'stroke-width', 'stroke-linecap', 'stroke-linejoin', 'stroke-miterlimit', 'stroke-dasharray',
  'stroke-dashoffset', 'stroke-opacity', 'opacity', 'color', 'clip-path', 'clip-rule', 'mask', 'filter', 'style', 'vector-effect', 'shape-rendering',
  'paint-order', 'display', 'visibility', 'overflow', 'isolation', 'mix-blend-mode', 'color-interpolation-filters',
  'marker-start', 'marker-mid', 'marker-end', 'font-family', 'font-size', 'font-weight', 'font-style', 'text-anchor', 'dominant-baseline', 'letter-spacing',
  // gradients, patterns, clips, masks, markers, references inside the icon
  'gradientUnits', 'gradientTransform', 'spreadMethod', 'offset', 'stop-color', 'stop-opacity', 'href', 'xlink:href', 'patternUnits',
  'patternContentUnits', 'patternTransform', 'maskUnits', 'maskContentUnits', 'clipPathUnits', 'markerWidth', 'markerHeight', 'refX', 'refY',
  'orient', 'markerUnits',
  // filters
  'filterUnits', 'primitiveUnits', 'in', 'in2', 'result', 'stdDeviation', 'mode', 'operator', 'k1', 'k2', 'k3', 'k4', 'values', 'type',
  'flood-color', 'flood-opacity', 'lighting-color', 'tableValues', 'slope', 'intercept', 'amplitude', 'exponent', 'baseFrequency', 'numOctaves',
  'seed', 'stitchTiles', 'scale', 'xChannelSelector', 'yChannelSelector', 'radius',
  // animation (of anything but references and handlers: see animatesSafely)
  'attributeName', 'attributeType', 'begin', 'dur', 'end', 'repeatCount', 'repeatDur', 'from', 'to', 'by', 'calcMode', 'keyTimes', 'keySplines',
  'keyPoints', 'additive', 'accumulate', 'restart', 'path',
  'xml:space',
];

const REFERENCE_ATTRIBUTES = new Set(['href', 'xlink:href']);
/** Every url(...) in a value, with what it points to. */
const CSS_URL = /url\(\s*(['"]?)(.*?)\1\s*\)/gi;
/** What no value may hold, whatever the attribute: script URLs, CSS imports and expressions, escapes that could hide them. */
const NEVER_IN_A_VALUE = /javascript:|vbscript:|data:|@import|expression\s*\(|\\/i;

/** A value that refers to nothing outside the icon: url(...) only to `#id`. */
function staysInside(value: string): boolean {
  if (NEVER_IN_A_VALUE.test(value)) return false;
  for (const match of value.matchAll(CSS_URL)) if (!match[2]!.startsWith('#')) return false;
  // A url( that the pattern above could not read (unbalanced) is refused too.
  return value.toLowerCase().split('url(').length - 1 === [...value.matchAll(CSS_URL)].length;
}

function keptAttributes(attribs: Record<string, string>): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(attribs)) {
    if (REFERENCE_ATTRIBUTES.has(name) ? /^#[\w.:-]+$/.test(value.trim()) : staysInside(value)) kept[name] = value;
  }
  return kept;
}

/** An animation may not change a reference or a handler (`<set attributeName="href" to="javascript:...">`). */
function animatesSafely(attribs: Record<string, string>): boolean {
  const target = (attribs.attributeName ?? '').trim().toLowerCase();
  return !/href|^on|style/.test(target);
}

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [...SHAPES, ...PAINT_SERVERS, ...ANIMATIONS, ...FILTERS],
  allowedAttributes: { '*': ATTRIBUTES },
  // Reference attributes are checked by keptAttributes (a local #id only), not by scheme.
  allowedSchemes: [],
  allowedSchemesAppliedToAttributes: [],
  allowProtocolRelative: false,
  allowVulnerableTags: false,
  // Dropped with everything inside them, text included.
  nonTextTags: ['script', 'style', 'foreignObject', 'iframe', 'noscript', 'textarea', 'title-script'],
  disallowedTagsMode: 'discard',
  // Any element may hold others (a path its <animate>): each is closed by its own end tag.
  selfClosing: [],
  parser: { xmlMode: true, lowerCaseTags: false, lowerCaseAttributeNames: false, decodeEntities: true },
  transformTags: { '*': (tagName, attribs) => ({ tagName, attribs: keptAttributes(attribs) }) },
  exclusiveFilter: (frame) => ANIMATIONS.includes(frame.tag) && !animatesSafely(frame.attribs),
};

/** The body (the markup inside `<svg>`) with only what draws the icon. */
export function sanitizeSvgBody(body: string): string {
  return sanitizeHtml(body, OPTIONS);
}

/**
 * What the importer stores beside a body this sanitizer produced (`icons.body_mark`): a digest
 * of the sanitizer's version and the body. Checking it costs a hash of the body (microseconds)
 * where sanitizing it again costs a parse (a tenth of a millisecond and its garbage); a body
 * changed by anything but the importer no longer matches its mark.
 */
export function sanitizedMark(body: string): string {
  return createHash('sha256').update(`svg-sanitizer ${SANITIZER_VERSION}\n`).update(body).digest('base64url').slice(0, 22);
}
