// Step 4 of a search: the `q` row every statement starts from, with typo correction.
//
//   q.matching            tsquery an icon's document must match: every token, or for a
//                         misspelt token one of its corrections, as a prefix ('arow':* | 'arrow':*)
//   q.fuzzy_name          the same restricted to the name (weight A), for the corrected tiers
//   q.fuzzy_name_or_tags  ... to the name, keywords and tags (weights A and B)
//   q.fixed_phrase        the phrase with each misspelt token replaced by its most common
//                         correction (`arow left` -> `arrow left`); NULL when nothing is corrected
//
// A token is corrected when it is rare: the words of the vocabulary it is a prefix of occur in
// fewer than RARE_TOKEN_MATCHES icons (it is not even a prefix of a common word). Its one-edit
// variants (typos.ts) are looked up in the vocabulary; a variant is a correction when it
// occurs in CORRECTION_RATIO times more icons than the token matches, and in at least
// 1/CORRECTION_RATIO as many icons as the best variant. `arow` (8 icons on the full catalogue,
// from aliases) -> arrow (10,875), not row (349); `hom` and `home` are never looked at.
import { Prisma } from '../../../prisma/generated/client.ts';
import type { SearchPlan } from './plan.ts';

export const RARE_TOKEN_MATCHES = 100;
export const CORRECTION_RATIO = 10;

/** The `q` CTE (without WITH). */
export function queryRow(plan: SearchPlan): Prisma.Sql {
  if (plan.variants.length === 0) {
    // Nothing to correct: constants, which the planner sees (the CTE is inlined).
    return Prisma.sql`q AS (
      SELECT ${plan.all.any}::tsquery AS matching, ${plan.all.name}::tsquery AS fuzzy_name,
             ${plan.all.nameOrTags}::tsquery AS fuzzy_name_or_tags, NULL::text AS fixed_phrase)`;
  }
  const rare = Prisma.raw(String(RARE_TOKEN_MATCHES));
  const ratio = Prisma.raw(String(CORRECTION_RATIO));
  // A vocabulary word as tsquery text: quoted, quotes and backslashes doubled (chr(39) ', chr(92) \).
  const quoted = Prisma.sql`chr(39) || replace(replace(c.word, chr(92), chr(92) || chr(92)), chr(39), chr(39) || chr(39)) || chr(39)`;
  return Prisma.sql`tokens AS (
      SELECT t.ord::integer AS ord, t.token, t.term_any, t.term_name, t.term_tags
      FROM unnest(${plan.tokens}::text[], ${plan.terms.any}::text[], ${plan.terms.name}::text[], ${plan.terms.nameOrTags}::text[])
        WITH ORDINALITY AS t(token, term_any, term_name, term_tags, ord)
    ),
    rare AS MATERIALIZED (
      -- Icons matched by the words the token starts (an upper bound: a sum over words).
      SELECT t.ord, m.ndoc
      FROM tokens t
      CROSS JOIN LATERAL (
        SELECT coalesce(sum(s.ndoc), 0) AS ndoc FROM search_words s
        WHERE s.word ~>=~ t.token AND s.word ~<~ (t.token || chr(1114111))) m
      WHERE t.ord = ANY(${plan.variantTokens}::integer[]) AND m.ndoc < ${rare}
    ),
    candidates AS (
      -- One index probe per variant of a rare token (LIMIT 1 keeps the planner from hashing
      -- the whole vocabulary instead).
      SELECT v.ord, f.word, f.ndoc, r.ndoc AS token_ndoc
      FROM unnest(${plan.variants}::text[], ${plan.variantTokens}::integer[]) AS v(word, ord)
      JOIN rare r ON r.ord = v.ord
      CROSS JOIN LATERAL (SELECT w.word, w.ndoc FROM search_words w WHERE w.word = v.word LIMIT 1) f
    ),
    corrections AS (
      SELECT c.ord, c.word, c.ndoc FROM candidates c
      WHERE c.ndoc > ${ratio} * c.token_ndoc
        AND c.ndoc * ${ratio} >= (SELECT max(b.ndoc) FROM candidates b WHERE b.ord = c.ord)
    ),
    fixes AS (
      SELECT c.ord,
             string_agg(' | ' || ${quoted} || ':*', '') AS any_field,
             string_agg(' | ' || ${quoted} || ':*A', '') AS in_name,
             string_agg(' | ' || ${quoted} || ':*AB', '') AS in_name_or_tags,
             (array_agg(c.word ORDER BY c.ndoc DESC, c.word))[1] AS best
      FROM corrections c GROUP BY c.ord
    ),
    q AS (
      SELECT string_agg('(' || t.term_any || coalesce(f.any_field, '') || ')', ' & ')::tsquery AS matching,
             string_agg('(' || t.term_name || coalesce(f.in_name, '') || ')', ' & ')::tsquery AS fuzzy_name,
             string_agg('(' || t.term_tags || coalesce(f.in_name_or_tags, '') || ')', ' & ')::tsquery AS fuzzy_name_or_tags,
             CASE WHEN count(f.best) > 0 THEN string_agg(coalesce(f.best, t.token), ' ' ORDER BY t.ord) END AS fixed_phrase
      FROM tokens t LEFT JOIN fixes f ON f.ord = t.ord
    )`;
}
