/**
 * Convention chunks (seed 004's `convention` kind): one per package — a directory's files of one
 * language — summing its files' idiom counts (idioms.ts) into `convention_stats` and saying in its
 * text which style dominates: how errors are handled, which logging library, which naming, which
 * concurrency. An agent reads it before an edit so new code follows the package. A convention
 * chunk cites its directory (`file` is the directory with a trailing `/`, lines 1-1): it quotes no
 * lines, so it goes stale with the commit only.
 */
import { sha256 } from '../util/hash.js';
import type { FileIdioms } from './idioms.js';
import { chunkId, contentSha256 } from './ids.js';
import type { Chunk } from './types.js';

export interface PackageFile {
  file: string;
  language: string;
  idioms: FileIdioms;
}

/** The index key and `file` of a directory's convention chunks: `dir/` (the root: `./`). */
export function conventionKey(dir: string): string {
  return dir === '' || dir === '.' ? './' : `${dir}/`;
}

export function dirOf(file: string): string {
  const at = file.lastIndexOf('/');
  return at < 0 ? '' : file.slice(0, at);
}

/** Whether an index key is a convention key (not a file). */
export function isConventionKey(key: string): boolean {
  return key.endsWith('/');
}

function share(n: number, total: number): string {
  return `${Math.round((100 * n) / total)}%`;
}

/** The named choice of each concern with its counts, best first; `none` when none shows. */
function line(label: string, stats: FileIdioms, keys: Record<string, string>): string {
  const seen = Object.entries(keys)
    .map(([k, name]) => [name, stats[k] ?? 0] as const)
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1]);
  return `${label}: ${seen.length ? seen.map(([name, n]) => `${name} ${n}`).join(', ') : 'none seen'}`;
}

function prefixed(stats: FileIdioms, prefix: string): Record<string, string> {
  return Object.fromEntries(
    Object.keys(stats)
      .filter((k) => k.startsWith(prefix))
      .map((k) => [k, k.slice(prefix.length)]),
  );
}

function namingLine(stats: FileIdioms): string {
  const names: Record<string, string> = {
    name_camel: 'camelCase',
    name_pascal: 'PascalCase',
    name_snake: 'snake_case',
    name_upper: 'UPPER_CASE',
    name_lower: 'lowercase',
    name_other: 'other',
  };
  const total = Object.keys(names).reduce((t, k) => t + (stats[k] ?? 0), 0);
  if (!total) return 'naming: no declarations';
  const parts = Object.entries(names)
    .filter(([k]) => stats[k])
    .sort((a, b) => stats[b[0]]! - stats[a[0]]!)
    .map(([k, name]) => `${name} ${share(stats[k]!, total)} (${stats[k]})`);
  return `naming: ${parts.join(', ')}`;
}

/** The text a convention chunk shows and indexes. */
export function conventionText(dir: string, language: string, files: number, stats: FileIdioms): string {
  return [
    `Conventions of package ${dir || '.'} (${language}, ${files} file${files === 1 ? '' : 's'})`,
    line('error handling', stats, {
      err_check: 'if err != nil',
      err_return_bare: 'return err unwrapped',
      err_wrap_w: 'fmt.Errorf with %w',
      err_wrap_plain: 'fmt.Errorf without %w',
      err_new: 'errors.New',
      raise: 'raise',
      return_none: 'return None',
      throw: 'throw',
      result_return: 'returned result objects',
    }),
    line('logging', stats, { ...prefixed(stats, 'log:'), console_calls: 'console calls', print_calls: 'print calls', fmt_print: 'fmt.Print calls' }),
    namingLine(stats),
    line('concurrency', stats, {
      goroutines: 'go statements',
      select: 'select',
      channels: 'channel types',
      await: 'await',
      async_functions: 'async',
      ...prefixed(stats, 'conc:'),
    }),
  ].join('\n');
}

/** The convention chunks of one directory: one per language its files are in. */
export function conventionChunks(dir: string, files: readonly PackageFile[], commitHash: string): Chunk[] {
  const byLanguage = new Map<string, PackageFile[]>();
  for (const f of files) byLanguage.set(f.language, [...(byLanguage.get(f.language) ?? []), f]);
  const key = conventionKey(dir);
  const out: Chunk[] = [];
  for (const [language, group] of [...byLanguage].sort((a, b) => a[0].localeCompare(b[0]))) {
    const stats: FileIdioms = { files: group.length };
    for (const f of group) for (const [k, n] of Object.entries(f.idioms)) stats[k] = (stats[k] ?? 0) + n;
    const text = conventionText(dir, language, group.length, stats);
    const sha = contentSha256(text);
    out.push({
      // lines 1-1 of the directory for every language: the language keeps the ids apart
      id: chunkId(key, 1, 1, sha256(`${language}\n${sha}`)),
      file: key,
      start_line: 1,
      end_line: 1,
      language,
      is_test: false,
      symbol_name: dir || '.',
      chunk_kind: 'convention',
      commit_hash: commitHash,
      content_sha256: sha,
      text,
      convention_stats: stats,
    });
  }
  return out;
}
