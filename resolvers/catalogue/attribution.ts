// What an icon's license asks of those who use it. Every license of the catalogue's sets asks
// for credit (MIT, Apache, BSD, ISC, CC BY, OFL, GPL, MPL keep the author's notice) except the
// public-domain dedications below; a set without an SPDX id is taken to ask for it too.
import type { SetRecord } from './sets-and-categories.ts';

const NO_ATTRIBUTION = new Set(['CC0-1.0', 'Unlicense', '0BSD', 'MIT-0', 'WTFPL']);

export function attributionRequired(set: Pick<SetRecord, 'licenseSpdx'>): boolean {
  return set.licenseSpdx == null || !NO_ATTRIBUTION.has(set.licenseSpdx);
}

/** The credit line for an icon, as the Noun Project writes it ("Home by Pictogrammers, Apache 2.0"), or null. */
export function attributionOf(iconName: string, set: Pick<SetRecord, 'licenseSpdx' | 'author' | 'licenseTitle'>): string | null {
  return attributionRequired(set) ? `${iconName} by ${set.author}, ${set.licenseTitle}` : null;
}
