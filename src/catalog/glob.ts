/**
 * `file_pattern` globs (`*.py`, `src/**\/*.ts`, `*.{ts,tsx}`, `[a-c]*.go`). A pattern without `/`
 * matches the file name anywhere (as .gitignore does); with `/` it matches the whole
 * workspace-relative path.
 *
 * picomatch parses the glob (its semantics are the well-tested ones), but its regexes run in V8's
 * backtracking engine, where `*a*a*a*a*a*b` took 2.5 s on a 100-character name.
 * So its regex runs in RE2 (re2js, linear time) instead. RE2 has no lookaround; picomatch's
 * only lookarounds with `dot: true` keep `*` from matching `.`/`..` segments and empty names, which
 * the walker's normalized relative paths never contain, so they are dropped. Anything else that
 * needs lookaround (extglob negation `!(x)`) is INVALID_INPUT, as is a malformed glob (`[z-a]`:
 * `debug` makes picomatch throw instead of matching nothing). `posix` makes `[!a]` a negated class
 * (without it picomatch 4 reads it as "`[!a]` literally, or one of `!` `a`").
 */
import picomatch from 'picomatch';
import { RE2JS } from 're2js';

import { LspgateError } from '../errors/errors.js';
import { BoundedMemo, ENTRY_OVERHEAD } from '../util/bounded-memo.js';

const MAX_GLOB = 500;
/**
 * Compiled globs by pattern: a pure memo, process-wide, bounded in bytes (the compiled program
 * counted at 4 KiB plus 64 bytes a pattern character: ~500 short patterns).
 */
export const GLOB_MEMO = new BoundedMemo<string, RE2JS>(2 * 1024 * 1024, (k) => 4096 + 64 * k.length + ENTRY_OVERHEAD);

/**
 * `wholePath`: the pattern always matches the whole relative path (`*.go` only the root's files),
 * as search_code's `filter.path` does (the chunk filter's path glob is over the whole path).
 */
export function globMatcher(pattern: string, opts: { wholePath?: boolean } = {}): (relPath: string) => boolean {
  const p = pattern.trim().replace(/^\.\//, '');
  const re = compile(p);
  return p.includes('/') || opts.wholePath ? (rel) => re.matches(rel) : (rel) => re.matches(rel.slice(rel.lastIndexOf('/') + 1));
}

/** picomatch's lookarounds that only guard against `.`/`..` segments and empty names. */
const DOT_GUARDS = ['(?!(?:^|\\/)\\.{1,2}(?:\\/|$))', '(?!\\.{1,2}(?:\\/|$))', '(?!\\.{0,1}(?:\\/|$))', '(?!\\.)', '(?=.)'];

function compile(pattern: string): RE2JS {
  const hit = GLOB_MEMO.get(pattern);
  if (hit) return hit;
  if (pattern.length > MAX_GLOB) throw invalid(pattern, `longer than ${MAX_GLOB} characters`);
  let source: string;
  try {
    source = picomatch.makeRe(pattern, { dot: true, strictBrackets: true, posix: true, debug: true }).source;
  } catch (e) {
    throw invalid(pattern, (e as Error).message);
  }
  for (const g of DOT_GUARDS) source = source.split(g).join('');
  if (/\(\?<?[=!]/.test(source)) throw invalid(pattern, 'negated extglobs like !(x) are not supported');
  let re: RE2JS;
  try {
    re = RE2JS.compile(source);
  } catch (e) {
    throw invalid(pattern, (e as Error).message);
  }
  GLOB_MEMO.set(pattern, re);
  return re;
}

function invalid(pattern: string, why: string): LspgateError {
  return new LspgateError('INVALID_INPUT', `invalid file_pattern ${JSON.stringify(pattern)}: ${why}`, { file_pattern: pattern });
}
