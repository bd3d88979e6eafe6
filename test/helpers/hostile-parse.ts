/**
 * One hostile workspace holding every file shape that took the shared daemon (issue list "one file
 * takes the shared daemon"), beside small ordinary files: a real minified library saved as `.js`,
 * one line of 20,000 declarations, 100,000 levels of nesting in a few languages, a file that needs
 * more than the parse workers' heap cap, and a repository `.lspgate/config.json` that tries to
 * raise maxFileBytes over a file bigger than the user's limit. The limits are the user's: their
 * own config.json (a private XDG_CONFIG_HOME) lowers the workers' heap cap and sets maxFileBytes
 * so that the heap case is admitted; the repository's config may only lower them.
 * Shared by test/integration/hostile-parse.test.ts and bench/redteam-parse.ts.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { DEEP_LEVELS, longLineInputs, minifiedInputs } from './hostile-sources.js';
import { type TrustWorld, trustWorld } from './hostile-trust.js';

/** The user's limits (their own config.json): a small heap cap, room for the heap case's file. */
export const USER_LIMITS = { parseHeapMb: 32, maxFileBytes: 4_000_000 };
/** What the repository's own config.json asks for: far over the user's maxFileBytes. */
export const REPO_LIMITS = { maxFileBytes: 2_000_000_000 };

export interface ParseBreak {
  name: string;
  /** The files of the break, relative to the root. */
  files: string[];
  /** How the break's files may end: left out with a named error, or skipped by shape or size. */
  outcome: 'error-or-cataloged' | 'error' | 'minified' | 'too_large';
}

/** 150,000 methods in one class: 3.3 MB (under the user's maxFileBytes), far over a 32 MB heap to catalog. */
function manyMethods(name: string, n: number): string {
  const lines = [`class ${name} {`];
  for (let i = 0; i < n; i++) lines.push(`  void m${i}() {}`);
  return lines.join('\n') + '\n}\n';
}

/** `open` n times, `middle`, `close` n times, a level per line: deep by structure, not minified by shape. */
const nestLines = (n: number, open: (i: number) => string, middle: string, close: string): string =>
  Array.from({ length: n }, (_, i) => open(i)).join('\n') + `\n${middle}\n` + Array.from({ length: n }, () => close).join('\n') + '\n';

/** 100,000 levels, one per line, in three grammars with no server here: declarations (Java, Rust) and brackets (Ruby). */
function deepFiles(n = DEEP_LEVELS): { rel: string; text: string }[] {
  return [
    { rel: 'deep/Deep.java', text: nestLines(n, (i) => `class C${i} {`, '', '}') },
    { rel: 'deep/deep.rb', text: 'x = ' + nestLines(n, () => '[', '1', ']') },
    { rel: 'deep/deep.rs', text: nestLines(n, (i) => `mod m${i} {`, '', '}') },
  ];
}

export interface ParseWorld extends TrustWorld {
  root: string;
  breaks: ParseBreak[];
}

/** The world (private XDG dirs, cache, the user's limits) and the one hostile workspace in it. */
export function parseWorld(): ParseWorld {
  const w = trustWorld();
  writeFileSync(path.join(w.env.XDG_CONFIG_HOME!, 'lspgate', 'config.json'), JSON.stringify({ limits: USER_LIMITS }));
  const root = path.join(w.base, 'ws-parse');
  const put = (rel: string, text: string) => {
    mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    writeFileSync(path.join(root, rel), text);
  };
  put('Fine.java', 'class Fine {\n  int fineTotal(int a, int b) { return a + b; }\n}\n');
  put('other.rb', 'module Other\n  def self.other_total(a)\n    a\n  end\nend\n');
  const breaks: ParseBreak[] = [];
  const minified = minifiedInputs().filter((m) => m.name === 'minified d3');
  if (minified.length === 0) throw new Error('d3/dist/d3.min.js is missing from node_modules (run npm ci)');
  // saved as plain `.js` (not `.min.js`, not under vendor/): found by its shape, as the real case was
  for (const m of minified) put(`src/${m.rel.replace('.min.js', '.js')}`, m.text);
  breaks.push({
    name: 'a real minified bundle (d3.min.js, 280 KB)',
    files: minified.map((m) => `src/${m.rel.replace('.min.js', '.js')}`),
    outcome: 'minified',
  });
  const long = longLineInputs().find((i) => i.name === 'long-line javascript')!;
  put(`src/${long.rel}`, long.text);
  breaks.push({ name: 'one line of 20,000 declarations', files: [`src/${long.rel}`], outcome: 'minified' });
  const deep = deepFiles();
  for (const d of deep) put(d.rel, d.text);
  breaks.push({ name: '100,000-deep nesting, a level per line (Java, Rust, Ruby)', files: deep.map((d) => d.rel), outcome: 'error-or-cataloged' });
  put('Aaa.java', manyMethods('Aaa', 150_000));
  breaks.push({ name: `a file over the user's heap cap (parseHeapMb ${USER_LIMITS.parseHeapMb})`, files: ['Aaa.java'], outcome: 'error' });
  put('.lspgate/config.json', JSON.stringify({ limits: REPO_LIMITS }));
  put('huge.rb', Array.from({ length: 200_000 }, (_, i) => `# padding line ${i} of a file over the limit`).join('\n') + '\n');
  breaks.push({ name: 'a repository config raising maxFileBytes to 2e9', files: ['huge.rb'], outcome: 'too_large' });
  return { ...w, root, breaks };
}

/**
 * The calls each front-end makes: index; another file's symbols and outline; the outline of the
 * minified bundle (refused, naming the reason); the last answering is the process alive.
 */
export function parseCalls(root: string): { op: string; input: Record<string, unknown> }[] {
  return [
    { op: 'index_folder', input: { path: root } },
    { op: 'search_symbols', input: { query: 'fineTotal' } },
    { op: 'get_file_outline', input: { file: 'other.rb' } },
    { op: 'get_file_outline', input: { file: 'src/d3.js' } },
  ];
}

export interface ParseVerdict {
  /** The break (or `other files`, `process`), as a red-team row names it. */
  what: string;
  pass: boolean;
  outcome: string;
}

const failedIn = (index: string, file: string): boolean => new RegExp(`${file.replace(/[.]/g, '[.]')}[\\s\\S]{0,300}?(LIMIT_EXCEEDED|TIMEOUT)`).test(index);
const minifiedCount = (index: string): number => Number(/minified["\s:|]*(\d+)/.exec(index)?.[1] ?? 0);
/** index_folder's answer counted a file as too large (JSON or markdown). */
const tooLargeIn = (text: string): boolean => /"too_large":\s*[1-9]|too_large [1-9]/.test(text);

/** What one front-end's answers (parseCalls, in order) say about each break and about the other files. */
export function judgeParse(w: ParseWorld, answers: string[]): ParseVerdict[] {
  const [index = '', search = '', outline = '', minified = ''] = answers;
  const partial = index.includes('partial');
  const out: ParseVerdict[] = [];
  for (const b of w.breaks) {
    let pass: boolean;
    let outcome: string;
    switch (b.outcome) {
      case 'error': {
        const named = b.files.filter((f) => failedIn(index, f));
        pass = partial && named.length === b.files.length;
        outcome = `${partial ? 'partial' : 'NOT partial'}; ${named.length}/${b.files.length} named with a code`;
        break;
      }
      case 'error-or-cataloged': {
        // a file named in the answer is named as failed; one not named was cataloged
        const named = b.files.filter((f) => index.includes(f));
        const coded = named.filter((f) => failedIn(index, f));
        pass = coded.length === named.length;
        outcome = `${coded.length} refused with a code, ${b.files.length - named.length} cataloged, ${named.length - coded.length} named without a code`;
        break;
      }
      case 'minified': {
        const n = minifiedCount(index);
        const said = minified.includes('LIMIT_EXCEEDED') && minified.includes('minified');
        pass = n >= 2 && said;
        outcome = `skipped.minified ${n}; outline of the bundle ${said ? 'refused, saying minified' : 'NOT refused with its reason'}`;
        break;
      }
      case 'too_large': {
        const kept = tooLargeIn(index);
        const warned = index.includes('limits.maxFileBytes') && index.includes(`lspgate trust ${w.root}`);
        // the size limit's reason is in limits_hit: `1 file(s) larger than 4000000 bytes skipped`
        const said = index.includes(`larger than ${USER_LIMITS.maxFileBytes} bytes`);
        pass = kept && warned && said;
        outcome = `${kept ? "user's limit kept" : 'LIMIT RAISED'}; ${warned ? 'warning names the setting' : 'NO warning'}; ${said ? 'reason given' : 'NO reason'}`;
        break;
      }
    }
    out.push({ what: b.name, pass, outcome });
  }
  const others = search.includes('Fine.java') && outline.includes('other_total');
  out.push({
    what: 'other files of the workspace (search_symbols, get_file_outline)',
    pass: others,
    outcome: others ? 'answered' : `NOT answered: ${(search + outline).slice(0, 200)}`,
  });
  return out;
}
