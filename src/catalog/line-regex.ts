/**
 * search_text's regex mode runs in RE2 (re2js, a pure-JS port with no install script): matching
 * is linear in the line length, so no pattern can pin the event loop. V8's backtracking engine
 * froze the whole process on `((a+))+X`, `(a|aa)+X` or `a*a*a*a*a*a*Q`, and a
 * check for nested quantifiers was easy to get around. RE2 has no backreferences or lookaround:
 * such a pattern is INVALID_INPUT with the engine's reason.
 */
import { RE2JS } from 're2js';

import { LspgateError } from '../errors/errors.js';

export const MAX_PATTERN = 500;
/** The part of a line a regex sees (minified files have megabyte lines). */
const REGEX_LINE_CAP = 4000;

/** 0-based column (UTF-16 units) of the first match in a line, or -1. */
export function compileLineRegex(query: string, caseSensitive: boolean): (line: string) => number {
  if (query.length > MAX_PATTERN) throw new LspgateError('INVALID_INPUT', `regex is longer than ${MAX_PATTERN} characters`, { limit: MAX_PATTERN });
  let re: RE2JS;
  try {
    // translateRegExp accepts JavaScript spellings RE2 lacks (named groups `(?<n>…)`, `\/`)
    re = RE2JS.compile(RE2JS.translateRegExp(query), caseSensitive ? 0 : RE2JS.CASE_INSENSITIVE);
  } catch (e) {
    throw new LspgateError('INVALID_INPUT', `invalid regex (RE2 syntax: no backreferences or lookaround): ${(e as Error).message}`, { pattern: query });
  }
  return (line) => {
    const s = line.length > REGEX_LINE_CAP ? line.slice(0, REGEX_LINE_CAP) : line;
    // test() runs on RE2's DFA; the Matcher (slower) only for lines that match, for the column
    if (!re.test(s)) return -1;
    const m = re.matcher(s);
    return m.find() ? m.start() : -1;
  };
}
