/**
 * Line coverage from the coverage file a workspace's test run left behind, whichever of the four
 * common formats it is: lcov (`lcov.info`, `coverage/lcov.info`), a Go coverprofile (`coverage.out`,
 * `cover.out`), coverage.py JSON (`coverage.json`), Clover or Cobertura XML (`clover.xml`,
 * `coverage.xml`, `coverage/clover.xml`). Per file: instrumented line → hit count. Without a file
 * the answer is null with a note, never a guess.
 */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { BoundedMemo, ENTRY_OVERHEAD, stringBytes } from '../../util/bounded-memo.js';

/** Per workspace file: instrumented line → hit count. */
export type Hits = Map<string, Map<number, number>>;

export const COVERAGE_FILES = ['coverage/lcov.info', 'lcov.info', 'coverage.out', 'cover.out', 'coverage.json', 'coverage/clover.xml', 'clover.xml', 'coverage.xml'];
/**
 * Parsed coverage files by path and mtime: a pure memo, process-wide, bounded in bytes (each file's
 * line map counted at 40 bytes a line); a report larger than the bound is parsed on every ask.
 */
export const COVERAGE_MEMO = new BoundedMemo<string, { mtimeMs: number; hits: Hits }>(64 * 1024 * 1024, (k, v) => stringBytes(k) + hitsBytes(v.hits));

function hitsBytes(hits: Hits): number {
  let n = ENTRY_OVERHEAD;
  for (const [file, lines] of hits) n += stringBytes(file) + ENTRY_OVERHEAD + 40 * lines.size;
  return n;
}

function add(hits: Hits, file: string, line: number, count: number): void {
  let m = hits.get(file);
  if (!m) hits.set(file, (m = new Map()));
  m.set(line, Math.max(m.get(line) ?? 0, count));
}

function rel(root: string, p: string): string {
  return (path.isAbsolute(p) ? path.relative(root, p) : p).split(path.sep).join('/').replace(/^\.\//, '');
}

export function parseLcov(root: string, text: string): Hits {
  const hits: Hits = new Map();
  let file = '';
  for (const line of text.split('\n')) {
    if (line.startsWith('SF:')) file = rel(root, line.slice(3).trim());
    const m = /^DA:(\d+),(\d+)/.exec(line);
    if (m && file) add(hits, file, Number(m[1]), Number(m[2]));
  }
  return hits;
}

/** `import/path/file.go:12.3,15.2 3 1`: the import path's module prefix is the go.mod module. */
export function parseGoProfile(root: string, text: string): Hits {
  let mod: string;
  try {
    mod = /^module\s+(\S+)/m.exec(readFileSync(path.join(root, 'go.mod'), 'utf8'))?.[1] ?? '';
  } catch {
    mod = '';
  }
  const hits: Hits = new Map();
  for (const line of text.split('\n')) {
    const m = /^(.+\.go):(\d+)\.\d+,(\d+)\.\d+ \d+ (\d+)$/.exec(line.trim());
    if (!m) continue;
    const file = mod && m[1]!.startsWith(`${mod}/`) ? m[1]!.slice(mod.length + 1) : m[1]!;
    for (let l = Number(m[2]); l <= Number(m[3]); l++) add(hits, file, l, Number(m[4]));
  }
  return hits;
}

export function parseCoveragePy(root: string, text: string): Hits {
  const hits: Hits = new Map();
  const data = JSON.parse(text) as { files?: Record<string, { executed_lines?: number[]; missing_lines?: number[] }> };
  for (const [f, d] of Object.entries(data.files ?? {})) {
    for (const l of d.executed_lines ?? []) add(hits, rel(root, f), l, 1);
    for (const l of d.missing_lines ?? []) add(hits, rel(root, f), l, 0);
  }
  return hits;
}

/** Clover `<file path|name><line num count>` and Cobertura `<class filename><line number hits>`. */
export function parseXmlCoverage(root: string, text: string): Hits {
  const hits: Hits = new Map();
  const blocks = text.split(/(?=<file\b|<class\b)/);
  for (const b of blocks) {
    const head = /^<(?:file|class)\b[^>]*?\b(?:path|filename)="([^"]+)"/.exec(b) ?? /^<file\b[^>]*?\bname="([^"]+)"/.exec(b);
    if (!head) continue;
    const file = rel(root, head[1]!);
    for (const m of b.matchAll(/<line\b[^>]*?\b(?:num|number)="(\d+)"[^>]*?\b(?:count|hits)="(\d+)"/g)) add(hits, file, Number(m[1]), Number(m[2]));
  }
  return hits;
}

function parse(root: string, name: string, text: string): Hits {
  if (name.endsWith('.info')) return parseLcov(root, text);
  if (name.endsWith('.out')) return parseGoProfile(root, text);
  if (name.endsWith('.json')) return parseCoveragePy(root, text);
  return parseXmlCoverage(root, text);
}

/** Every coverage file present (a polyglot workspace has one per language), each file's data from the first that has it. */
export function coverageData(root: string): { file: string; hits: Hits }[] | undefined {
  const found: { file: string; hits: Hits }[] = [];
  for (const c of COVERAGE_FILES) {
    const abs = path.join(root, c);
    let mtimeMs: number;
    try {
      const st = statSync(abs);
      if (!st.isFile()) continue;
      mtimeMs = st.mtimeMs;
    } catch {
      continue;
    }
    let hit = COVERAGE_MEMO.get(abs);
    if (!hit || hit.mtimeMs !== mtimeMs) {
      hit = { mtimeMs, hits: parse(root, c, readFileSync(abs, 'utf8')) };
      COVERAGE_MEMO.set(abs, hit);
    }
    found.push({ file: c, hits: hit.hits });
  }
  return found.length ? found : undefined;
}

/** Share (0..1) of the instrumented lines in [from, to] of a file that ran, or null with why. */
export function lineCoverage(root: string, file: string, from: number, to: number): { ratio: number | null; note: string } {
  const all = coverageData(root);
  if (!all) return { ratio: null, note: `no coverage file in the workspace (looked for ${COVERAGE_FILES.join(', ')})` };
  const cov = all.find((c) => c.hits.has(file));
  if (!cov) return { ratio: null, note: `${all.map((c) => c.file).join(', ')} has no data for ${file}` };
  const lines = cov.hits.get(file)!;
  let total = 0;
  let covered = 0;
  for (const [l, n] of lines) {
    if (l < from || l > to) continue;
    total++;
    if (n > 0) covered++;
  }
  if (total === 0) return { ratio: null, note: `${cov.file} instruments no line of ${file}:${from}-${to}` };
  return { ratio: Math.round((covered / total) * 1000) / 1000, note: `test_coverage from ${cov.file} (${covered}/${total} instrumented lines ran)` };
}
