/**
 * search_text in pure Node: the same file-safety walk (any text file, not only source), files read
 * one at a time, literal or RegExp matching per line. `@vscode/ripgrep` is not used: it downloads
 * its binary in a postinstall script. Regexes run in RE2 (line-regex.ts: linear time), on at most
 * the first 4,000 characters of a line, under a time budget per file.
 */
import { readFile } from 'node:fs/promises';

import { LspgateError } from '../errors/errors.js';
import type { LimitHit } from '../schema/meta.js';
import { containsPrivateKey } from '../util/secret-files.js';
import { globMatcher } from './glob.js';
import { compileLineRegex, MAX_PATTERN } from './line-regex.js';
import { walkWorkspace } from './walk.js';

export { MAX_PATTERN };
const FILE_BUDGET_MS = 250;
const TEXT_CAP = 300;

export interface TextMatch {
  file: string;
  line: number;
  column: number;
  text: string;
  before?: string[];
  after?: string[];
}

export interface TextSearchOptions {
  query: string;
  regex: boolean;
  caseSensitive: boolean;
  filePattern?: string;
  contextLines: number;
  /** Stop after this many matches (the page end plus one, to know there is more). */
  stopAfter: number;
  maxFileBytes: number;
  maxFiles: number;
  extraIgnore?: string[];
  /** Project manifests (FilterOptions.manifests): output directories beside them are not searched. */
  manifests?: ReadonlySet<string>;
  signal?: AbortSignal;
}

export interface TextSearchResult {
  matches: TextMatch[];
  filesSearched: number;
  /** Absolute paths of files with at least one match (tokens_saved). */
  matchedFiles: string[];
  limitsHit: LimitHit[];
  warnings: string[];
  /** True when the walk or the search stopped before the end of the workspace. */
  incomplete: boolean;
}

/** A line matcher: 0-based column of the first match, or -1. */
export function compileMatcher(query: string, regex: boolean, caseSensitive: boolean): (line: string) => number {
  if (regex) return compileLineRegex(query, caseSensitive);
  if (caseSensitive) return (line) => line.indexOf(query);
  const needle = query.toLowerCase();
  return (line) => line.toLowerCase().indexOf(needle);
}

export async function searchText(root: string, opts: TextSearchOptions): Promise<TextSearchResult> {
  const match = compileMatcher(opts.query, opts.regex, opts.caseSensitive);
  const walk = await walkWorkspace(root, {
    extraIgnore: opts.extraIgnore ?? [],
    ...(opts.manifests ? { manifests: opts.manifests } : {}),
    maxFileBytes: opts.maxFileBytes,
    maxFiles: opts.maxFiles,
    signal: opts.signal,
  });
  const glob = opts.filePattern ? globMatcher(opts.filePattern) : undefined;
  const result: TextSearchResult = {
    matches: [],
    filesSearched: 0,
    matchedFiles: [],
    limitsHit: [...walk.limitsHit],
    warnings: [],
    incomplete: walk.limitsHit.some((l) => l.limit === 'max_files'),
  };
  for (const f of walk.files) {
    if (opts.signal?.aborted) throw new LspgateError('CANCELLED', 'search_text was cancelled');
    if (glob && !glob(f.rel)) continue;
    let text: string;
    try {
      text = await readFile(f.abs, 'utf8');
    } catch {
      continue; // deleted between walk and read
    }
    if (containsPrivateKey(text)) continue; // the walk's gate refused key blocks; this is a later read of the file
    result.filesSearched++;
    const lines = text.split(/\r\n|\r|\n/);
    const started = performance.now();
    let found = false;
    for (let i = 0; i < lines.length; i++) {
      if (i % 16 === 15 && performance.now() - started > FILE_BUDGET_MS) {
        result.warnings.push(`search in ${f.rel} stopped after ${FILE_BUDGET_MS} ms at line ${i + 1}`);
        result.limitsHit.push({ limit: 'file_time_budget_ms', value: FILE_BUDGET_MS, detail: f.rel });
        result.incomplete = true;
        break;
      }
      const col = match(lines[i]!);
      if (col < 0) continue;
      found = true;
      result.matches.push(toMatch(f.rel, lines, i, col, opts.contextLines));
      if (result.matches.length >= opts.stopAfter) {
        result.matchedFiles.push(f.abs);
        return result;
      }
    }
    if (found) result.matchedFiles.push(f.abs);
  }
  return result;
}

function toMatch(file: string, lines: string[], i: number, col: number, context: number): TextMatch {
  const m: TextMatch = { file, line: i + 1, column: col + 1, text: cap(lines[i]!) };
  if (context > 0) {
    m.before = lines.slice(Math.max(0, i - context), i).map(cap);
    m.after = lines.slice(i + 1, i + 1 + context).map(cap);
  }
  return m;
}

function cap(s: string): string {
  return s.length > TEXT_CAP ? s.slice(0, TEXT_CAP) + '…' : s;
}
