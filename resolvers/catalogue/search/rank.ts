// Step 5 of a search: the relevance order: tiers, as SQL over `icons i` and the plan's values
// (plan.ts), then name length, popularity and id. Documented for readers in the README ("Search").
import { Prisma } from '../../../prisma/generated/client.ts';
import type { SearchPlan } from './plan.ts';

/**
 * Relevance tiers, best first. Within a tier: names where the query's words are whole words
 * before names the query only starts a word of, then shorter names, then more popular, then
 * lower id.
 */
export const TIERS = {
  /** The whole name is the query: `home` -> "Home". */
  exactName: 1,
  /** The name starts with the query: `home` -> "Home Bold", `arr` -> "Arrow Up", `arrow l` -> "Arrow Left". */
  namePrefix: 2,
  /** Every word starts a word of the name: `home` -> "Smart Home", `left arrow` -> "Arrow Left Bold". */
  wordsInName: 3,
  /** Every word is in the name, keywords (aliases) or tags, and some not in the name. */
  tagsOrKeywords: 4,
  /** Some word only matches the category: `weather` -> a sun in the Weather category. */
  category: 5,
  /** Only matches with a misspelt word corrected (`calender` -> calendar), the name being the corrected query. */
  correctedExactName: 6,
  /** Corrected, the name starting with the corrected query. */
  correctedNamePrefix: 7,
  /** Corrected, every word in the name. */
  correctedInName: 8,
  /** Corrected, every word in the name, keywords or tags. */
  correctedInTags: 9,
  /** Corrected, some word only in the category. */
  corrected: 10,
} as const;

export type Tier = (typeof TIERS)[keyof typeof TIERS];

/** A tier as an integer literal (a constant of this module, never input). */
export const tier = (value: Tier) => Prisma.raw(String(value));

/**
 * The lower-cased name for comparisons that are not index conditions: in the C collation,
 * lower() is plain ASCII folding, much faster than the locale's (names are ASCII).
 */
const lowerName = Prisma.sql`lower(i.name COLLATE "C")`;

/** Tiers 1-2, for icons whose name starts with the phrase. */
export function namePrefixTier(plan: SearchPlan): Prisma.Sql {
  return Prisma.sql`CASE WHEN ${lowerName} = ${plan.phrase} THEN ${tier(TIERS.exactName)} ELSE ${tier(TIERS.namePrefix)} END`;
}

/**
 * Within tiers 1-3: 0 when the query's words are whole words of the name, 1 when the query
 * only starts one (`home`: "Home Eco" 0, "Homebrew" 1), the next key after the tier.
 */
export function partialOfNamePrefix(plan: SearchPlan): Prisma.Sql {
  return Prisma.sql`CASE WHEN ${lowerName} || ' ' LIKE ${plan.wholePhrasePattern} THEN 0 ELSE 1 END`;
}

/** The same for icons matching every token as typed: whole words of the name, or not. */
export function partialOfWords(plan: SearchPlan): Prisma.Sql {
  return Prisma.sql`CASE WHEN ' ' || ${lowerName} || ' ' LIKE ALL (${plan.wholeWordPatterns}::text[]) THEN 0 ELSE 1 END`;
}

/** Tier 3's test: every token starts a word of the name (is one, for a short token). */
export function everyTokenInName(plan: SearchPlan): Prisma.Sql {
  return Prisma.sql`' ' || ${lowerName} || ' ' LIKE ALL (${plan.nameWordPatterns}::text[])`;
}

/** Tiers 3-5, for icons matching every token as typed (the name not starting with the phrase). */
export function wordsTier(plan: SearchPlan): Prisma.Sql {
  return Prisma.sql`CASE
    WHEN ${everyTokenInName(plan)} THEN ${tier(TIERS.wordsInName)}
    WHEN i.search @@ ${plan.all.nameOrTags}::tsquery THEN ${tier(TIERS.tagsOrKeywords)}
    ELSE ${tier(TIERS.category)}
  END`;
}

/** Tiers 6-7, for icons whose name starts with the corrected phrase. */
export function correctedPrefixTier(plan: SearchPlan): Prisma.Sql {
  return Prisma.sql`CASE WHEN ${lowerName} = ${plan.fixedPhrase}::text THEN ${tier(TIERS.correctedExactName)} ELSE ${tier(TIERS.correctedNamePrefix)} END`;
}

/** Tiers 8-10, for the other icons matching only with corrections. */
export function correctedTier(plan: SearchPlan): Prisma.Sql {
  return Prisma.sql`CASE
    WHEN i.search @@ ${plan.matching.name}::tsquery THEN ${tier(TIERS.correctedInName)}
    WHEN i.search @@ ${plan.matching.nameOrTags}::tsquery THEN ${tier(TIERS.correctedInTags)}
    ELSE ${tier(TIERS.corrected)}
  END`;
}

/** ORDER BY terms of the relevance order over ranked rows `s`; it ends on the id, so pages never overlap. */
export const RELEVANCE_ORDER = Prisma.sql`s.tier ASC, s.partial ASC, char_length(s.name) ASC, s.popularity DESC, s.id ASC`;
