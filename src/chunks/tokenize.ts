/**
 * A tokenizer that understands code, shared by indexing and queries so both sides agree:
 * `parseAsync` → parse, async, parseasync; `snake_case_name` → snake, case, name, snake_case_name;
 * `src/util/strings.ts` → src, util, strings, ts; `json.loads` → json, loads. Terms are lower-cased,
 * stemmed so a natural-language question meets the code's
 * names, and English filler words are dropped. Stemming is the Porter stemmer of the `stemmer`
 * package (parse, parses, parsing, parsed → pars): a hand-written suffix list got "parse" and
 * "parses" apart.
 */
import { stemmer } from 'stemmer';

import { BoundedMemo, ENTRY_OVERHEAD, stringBytes } from '../util/bounded-memo.js';

const WORD = /[A-Za-z0-9_$]+/g;
const CAMEL = /[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+/g;
const STOP = new Set(
  'a an and are as at be by does do for from how i in into is it its of on or that the this to was what when where which who why will with'.split(' '),
);

export function tokenizeCode(text: string): string[] {
  const out: string[] = [];
  for (const [word] of text.matchAll(WORD)) {
    const parts = word.split(/[_$]+/).flatMap((p) => p.match(CAMEL) ?? []);
    if (parts.length > 1 || parts[0] !== word) out.push(word.replace(/^[_$]+|[_$]+$/g, ''));
    out.push(...parts);
  }
  return out;
}

/**
 * Code repeats its words: ~3k distinct terms in zod's 90k tokens, so stemming each once pays. A
 * pure memo, process-wide, bounded in bytes (~60k terms of 10 characters).
 */
export const TERM_MEMO = new BoundedMemo<string, string | null>(8 * 1024 * 1024, (k, v) => stringBytes(k) + stringBytes(v) + ENTRY_OVERHEAD);

/** Lower-case, drop filler and one-letter terms, Porter-stem words (not numbers). */
export function normalizeTerm(term: string): string | null {
  const hit = TERM_MEMO.get(term);
  if (hit !== undefined) return hit;
  const t = term.toLowerCase();
  const out = t.length < 2 || STOP.has(t) ? null : /^[a-z]+$/.test(t) ? stemmer(t) : t;
  TERM_MEMO.set(term, out);
  return out;
}
