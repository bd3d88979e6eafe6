/**
 * The four coverage formats, parsed with bounded work: lcov (`SF:` / `DA:line,count`), Go
 * coverprofile (`import/path/file.go:12.3,15.2 3 1`: a line range per block), coverage.py JSON
 * (`files{path: {executed_lines, missing_lines}}`) and Clover / Cobertura XML (`<file path|name>` or
 * `<class filename>` blocks of `<line num|number count|hits>`). A coverage file is input that can
 * amplify: a 48-byte Go profile naming lines 1 to 20,000,000 asked for 20 million map entries (19 s,
 * 1 GB, then "Map maximum size exceeded"). So every line is checked against its source file's
 * length (a line past the end is dropped and counted, which clamps a range to the file), the lines
 * kept per coverage file are capped (MAX_COVERAGE_LINES, then the rest is left out and said), the
 * text is scanned without regexes that can backtrack over it, and paths out of the workspace are
 * skipped (no report uses them). Runs in a worker (coverage-worker.ts), never on the event loop.
 */
import path from 'node:path';

/** Instrumented lines kept per coverage file (about 24 MB as sorted arrays). */
export const MAX_COVERAGE_LINES = 2_000_000;
/** Lines beyond this are no line of any file lspgate can read. */
const MAX_LINE = 2 ** 31 - 1;

/** One file's instrumented lines, ascending, with their hit counts. */
export interface FileHits {
  lines: Int32Array;
  counts: Float64Array;
}

export interface ParsedCoverage {
  files: { file: string; hits: FileHits }[];
  /** Lines dropped because they lie past their source file's last line (or are no line number). */
  clamped: number;
  /** True when MAX_COVERAGE_LINES was reached and the rest of the file was left out. */
  capped: boolean;
}

export class InvalidCoverage extends Error {}

/** How long a workspace file is, in lines; undefined when it cannot be read (then lines are kept as given). */
export type LineCounter = (rel: string) => number | undefined;

/** Collects (file, line, count) within the budget, checking each line against its file's length. */
export class Collector {
  private readonly byFile = new Map<string, Map<number, number>>();
  private kept = 0;
  clamped = 0;
  capped = false;

  constructor(
    private readonly root: string,
    private readonly lineCount: LineCounter,
    private readonly maxLines = MAX_COVERAGE_LINES,
  ) {}

  /** A workspace-relative path with `/`, or undefined for a path that leaves the workspace. */
  rel(p: string): string | undefined {
    const r = path.isAbsolute(p) ? path.relative(this.root, p) : p;
    const norm = path.posix.normalize(r.split(path.sep).join('/'));
    return norm === '..' || norm.startsWith('../') || path.posix.isAbsolute(norm) ? undefined : norm;
  }

  get full(): boolean {
    return this.capped;
  }

  /** Lines [from, to] of `file` ran `count` times; only lines that exist in the file are kept. */
  addRange(file: string, from: number, to: number, count: number): void {
    if (!Number.isInteger(from) || !Number.isInteger(to) || from < 1 || to < from || !Number.isFinite(count)) {
      this.clamped++;
      return;
    }
    const end = Math.min(to, this.lineCount(file) ?? MAX_LINE);
    if (end < to) this.clamped += to - Math.max(end, from - 1);
    let m = this.byFile.get(file);
    for (let l = from; l <= end; l++) {
      const had = m?.get(l);
      if (had === undefined) {
        if (this.kept >= this.maxLines) {
          this.capped = true;
          return;
        }
        this.kept++;
      }
      if (!m) this.byFile.set(file, (m = new Map()));
      m.set(l, Math.max(had ?? 0, count));
    }
  }

  result(): ParsedCoverage {
    const files = [...this.byFile].map(([file, m]) => {
      const lines = Int32Array.from(m.keys()).sort();
      const counts = Float64Array.from(lines, (l) => m.get(l)!);
      return { file, hits: { lines, counts } };
    });
    return { files, clamped: this.clamped, capped: this.capped };
  }
}

/** Each line of `text` (without its `\n`), by indexOf: no array of millions of strings at once. */
function* linesOf(text: string): Generator<string> {
  let at = 0;
  while (at < text.length) {
    let nl = text.indexOf('\n', at);
    if (nl < 0) nl = text.length;
    yield text.slice(at, nl);
    at = nl + 1;
  }
}

export function parseLcov(text: string, c: Collector): void {
  let file: string | undefined;
  for (const line of linesOf(text)) {
    if (c.full) return;
    if (line.startsWith('SF:')) file = c.rel(line.slice(3).trim());
    else if (line.startsWith('DA:') && file !== undefined) {
      const [l, n] = line.slice(3).split(',', 2);
      const at = Number(l);
      c.addRange(file, at, at, Number(n));
    }
  }
}

/** `import/path/file.go:12.3,15.2 3 1`: the import path's module prefix is the go.mod module. */
export function parseGoProfile(text: string, module: string, c: Collector): void {
  for (const raw of linesOf(text)) {
    if (c.full) return;
    const line = raw.trim();
    const colon = line.lastIndexOf('.go:');
    if (colon < 0) continue;
    const name = line.slice(0, colon + 3);
    const m = /^(\d+)\.\d+,(\d+)\.\d+ \d+ (\d+)$/.exec(line.slice(colon + 4));
    if (!m) continue;
    const file = c.rel(module && name.startsWith(`${module}/`) ? name.slice(module.length + 1) : name);
    if (file !== undefined) c.addRange(file, Number(m[1]), Number(m[2]), Number(m[3]));
  }
}

function lineList(v: unknown, what: string): number[] {
  if (v === undefined) return [];
  if (!Array.isArray(v) || !v.every((x) => typeof x === 'number')) throw new InvalidCoverage(`${what} is not a list of line numbers`);
  return v as number[];
}

export function parseCoveragePy(text: string, c: Collector): void {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new InvalidCoverage(`not JSON (${(e as Error).message.slice(0, 100)})`);
  }
  const files = (data as { files?: unknown } | null)?.files;
  if (files === undefined) return;
  if (!files || typeof files !== 'object' || Array.isArray(files)) throw new InvalidCoverage('"files" is not an object');
  for (const [f, d] of Object.entries(files as Record<string, { executed_lines?: unknown; missing_lines?: unknown }>)) {
    const file = c.rel(f);
    if (file === undefined || !d || typeof d !== 'object') continue;
    for (const l of lineList(d.executed_lines, `files["${f.slice(0, 100)}"].executed_lines`)) c.addRange(file, l, l, 1);
    for (const l of lineList(d.missing_lines, `files["${f.slice(0, 100)}"].missing_lines`)) c.addRange(file, l, l, 0);
    if (c.full) return;
  }
}

const ATTRS = new Map(['path', 'filename', 'name', 'num', 'number', 'count', 'hits'].map((n) => [n, new RegExp(`\\s${n}="`)]));

/** The value of the first attribute of `names` in one tag's text (`<line num="3" count="1"/>`), or undefined. */
function attr(tag: string, names: readonly string[]): string | undefined {
  for (const name of names) {
    const at = tag.search(ATTRS.get(name)!);
    if (at < 0) continue;
    const start = at + name.length + 3;
    const end = tag.indexOf('"', start);
    if (end > start) return tag.slice(start, end);
  }
  return undefined;
}

/** Clover `<file path|name><line num count>` and Cobertura `<class filename><line number hits>`, tag by tag. */
export function parseXmlCoverage(text: string, c: Collector): void {
  let file: string | undefined;
  let at = text.indexOf('<');
  while (at >= 0 && !c.full) {
    const close = text.indexOf('>', at);
    if (close < 0) return;
    const tag = text.slice(at, close + 1);
    if (/^<(file|class)[\s>/]/.test(tag)) {
      const p = attr(tag, ['path', 'filename']) ?? (tag.startsWith('<file') ? attr(tag, ['name']) : undefined);
      file = p === undefined ? undefined : c.rel(p);
    } else if (file !== undefined && /^<line[\s>/]/.test(tag)) {
      const l = Number(attr(tag, ['num', 'number']));
      const n = attr(tag, ['count', 'hits']);
      if (n !== undefined && /^\d+$/.test(n)) c.addRange(file, l, l, Number(n));
    }
    at = text.indexOf('<', close + 1);
  }
}
