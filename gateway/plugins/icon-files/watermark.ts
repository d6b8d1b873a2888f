// The watermark of a preview: diagonal semi-transparent bands over the icon's whole box, drawn
// into the SVG before it is rasterized. Shapes, not text: previews are rendered without fonts.
import type { PreviewOptions } from './options.ts';

export type Watermark = NonNullable<PreviewOptions['watermark']>;

/** How many bands cross the longer side of the box. */
const BANDS = 4;

/** `svg` (a whole document whose viewBox is 0 0 width height) with the bands drawn over it. */
export function watermarked(svg: string, { width, height }: { width: number; height: number }, { color, opacity }: Watermark): string {
  const step = Math.max(width, height) / BANDS;
  const lines: string[] = [];
  // Lines of slope -1 from the top edge, far enough right that the last one still crosses the box.
  for (let x = step / 2; x < width + height; x += step) lines.push(`M${round(x)} 0l${round(-height)} ${round(height)}`);
  const bands = `<path d="${lines.join('')}" fill="none" stroke="${color}" stroke-opacity="${opacity}" stroke-width="${round(step / 3)}"/>`;
  return `${svg.slice(0, svg.lastIndexOf('</svg>'))}${bands}</svg>`;
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
