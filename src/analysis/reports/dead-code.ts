/**
 * find_dead_code: top-level functions, classes and the methods of top-level types that no server
 * finds a reference to outside their own declaration (textDocument/references; uses inside the
 * symbol's own body — recursion — do not keep it alive). Zero-reference symbols that something
 * outside the code calls are reported in their own categories, not as dead: entry points (`main`,
 * `init`), tests, framework hooks (dunders and PHP magic methods, decorated or attributed
 * declarations such as Flask routes and Laravel `#[Scope]`), and a library's exported API. A method
 * overriding a workspace method that something references is not dead (the call dispatches to it).
 * A file the server cannot answer for is skipped, not the whole report.
 */
import path from 'node:path';
import type { CatalogSymbol } from '../../core/catalog.js';
import type { ServiceCall } from '../../service/call.js';
import { LineSource } from '../../service/locations.js';
import { checkedDeclarations, outsideReferences } from './declarations.js';
import { BaseMethods } from './overrides.js';
import { addCatalogErrors, perFile, skipsOf, type SkippedFile } from '../skips.js';
import { isTestFile } from '../test-files.js';
import { readJsonObjectIfAny, readTextIfAny } from '../../util/optional-files.js';

export const CATEGORIES = ['dead', 'entry_point', 'test', 'framework_hook', 'exported_api'] as const;
export type Category = (typeof CATEGORIES)[number];

export interface DeadCodeCandidate {
  symbol_id: string;
  name: string;
  qualified_name: string;
  kind: string;
  file: string;
  line: number;
  category: Category;
  /** Why it is listed, and why in this category. */
  reason: string;
}

export interface DeadCodeResult {
  /** Declarations checked (answered or skipped). */
  scanned: number;
  candidates: DeadCodeCandidate[];
  /** Declarations over max_symbols, not checked. */
  unchecked: number;
  /** Files whose declarations could not be checked, with the server's failure. */
  skipped: SkippedFile[];
}

export async function findDeadCode(call: ServiceCall, maxSymbols: number): Promise<DeadCodeResult> {
  const catalog = call.workspace.catalog;
  await catalog.build(call.signal ? { signal: call.signal } : {});
  const all = catalog.all ? await catalog.all() : [];
  const eligible = checkedDeclarations(all);
  const scan = eligible.slice(0, maxSymbols);
  const library = new LibraryRules(call.root);
  const skips = skipsOf(call);
  addCatalogErrors(skips, catalog.status().errors);
  const byId = new Map(all.map((s) => [s.symbol_id, s]));
  const bases = new BaseMethods(call, (id) => byId.get(id));
  const out: DeadCodeCandidate[] = [];
  const src = new LineSource(call);
  let answered = 0;
  for (const s of scan) {
    // One failure of a file (gopls: no package metadata) is every declaration's of that file.
    if (skips.has(s.file)) continue;
    const found = await perFile(skips, s.file, () => unreferenced(call, src, s, bases));
    if (found === undefined) continue;
    answered++;
    if (found === false) continue;
    const lines = src.lines(call.resolvePath(s.file), (await call.file(call.resolvePath(s.file))).session);
    const [category, why] = classify(s, lines, library);
    out.push({ symbol_id: s.symbol_id, name: s.name, qualified_name: s.qualified_name, kind: s.kind, file: s.file, line: s.selection_line, category, reason: `no reference outside its declaration${found.note}; ${why}` });
  }
  const order = new Map(CATEGORIES.map((c, i) => [c, i]));
  out.sort((a, b) => order.get(a.category)! - order.get(b.category)! || a.file.localeCompare(b.file) || a.line - b.line);
  return { scanned: scan.length, candidates: out, unchecked: eligible.length - scan.length, skipped: skips.finish(call.meta, 'find_dead_code', scan.length ? answered : 1) };
}

/**
 * false when something references the declaration; else what was observed beyond "no reference"
 * (an override whose bases nothing references either). An override of a workspace method that is
 * referenced is alive: a call through the base dispatches to it.
 */
async function unreferenced(call: ServiceCall, src: LineSource, s: CatalogSymbol, bases: BaseMethods): Promise<false | { note: string }> {
  if ((await outsideReferences(call, src, s)).length) return false;
  const overridden = await bases.overridden(s);
  for (const b of overridden) if ((await outsideReferences(call, src, b)).length) return false;
  return { note: overridden.length ? ` (it overrides ${overridden.map((b) => b.qualified_name).join(', ')}, which nothing references either)` : '' };
}

const PHP_MAGIC = /^__(construct|destruct|call|callStatic|get|set|isset|unset|sleep|wakeup|serialize|unserialize|toString|invoke|set_state|clone|debugInfo)$/;

/**
 * Decorators of the language itself that change how a method is bound or typed and register it
 * nowhere: a declaration carrying only these is checked like any other.
 */
const BINDING_DECORATORS = /^@(staticmethod|classmethod|property|abstractmethod|abc\.abstractmethod|cached_property|functools\.cached_property|override|typing\.override|overload|typing\.overload|[\w.]+\.(setter|getter|deleter))$/;

function classify(s: CatalogSymbol, lines: string[], library: LibraryRules): [Category, string] {
  if (isTestFile(s.file) || /^(Test|Benchmark|Example|Fuzz)[A-Z_]/.test(s.name) || /^test_?/.test(s.name)) return ['test', 'a test (its runner calls it)'];
  if (!s.parent && (s.name === 'main' || (s.name === 'init' && s.language === 'go'))) return ['entry_point', `\`${s.name}\` is called by the runtime`];
  if (/^__\w+__$/.test(s.name) || (s.language === 'php' && PHP_MAGIC.test(s.name))) return ['framework_hook', 'a dunder / magic method the language calls'];
  const marker = decoration(s, lines);
  if (marker) return ['framework_hook', `it is decorated with \`${marker}\`, and what a decorator or attribute does with it (calls it, registers it) is not visible to references`];
  if (library.exported(s)) return ['exported_api', `exported API of a library (${library.why(s)}): callers may live outside the workspace`];
  return ['dead', 'nothing in the workspace references it'];
}

/** A decorator (`@app.route(...)`) or attribute (`#[Scope]`) on the declaration, from its own lines and the lines just above; binding decorators (`@staticmethod`) do not count. */
function decoration(s: CatalogSymbol, lines: string[]): string | undefined {
  let first = s.line - 1;
  while (first > 0 && /^\s*(@|#\[)/.test(lines[first - 1] ?? '')) first--;
  for (let l = first; l < s.selection_line - 1 && l < lines.length; l++) {
    const m = /^\s*(@[\w.]+|#\[[\w\\]+)/.exec(lines[l] ?? '');
    if (!m) continue;
    if (m[1]!.startsWith('#[')) return `${m[1]!}]`;
    if (!BINDING_DECORATORS.test(m[1]!)) return m[1]!;
  }
  return undefined;
}

/**
 * Whether the workspace is a library, from its manifests: package.json with `exports`/`main` and not
 * `private`; composer.json of type `library`; pyproject.toml with a `[build-system]`; for Go, any
 * package other than `main` outside `internal/`. Then exported symbols are API, not dead.
 */
class LibraryRules {
  private readonly pkg: Record<string, unknown> | undefined;
  private readonly composer: Record<string, unknown> | undefined;
  private readonly pyproject: string | undefined;

  constructor(root: string) {
    this.pkg = readJsonObjectIfAny(path.join(root, 'package.json'));
    this.composer = readJsonObjectIfAny(path.join(root, 'composer.json'));
    this.pyproject = readTextIfAny(path.join(root, 'pyproject.toml'));
  }

  exported(s: CatalogSymbol): boolean {
    return this.why(s) !== undefined;
  }

  why(s: CatalogSymbol): string | undefined {
    if (s.language === 'go') {
      const pkgPath = path.posix.dirname(s.file);
      if (/^[A-Z]/.test(s.name) && s.package !== 'main' && !/(^|\/)internal(\/|$)/.test(pkgPath)) return `exported from package ${s.package ?? pkgPath}`;
      return undefined;
    }
    if (s.language === 'typescript' || s.language === 'javascript') {
      const lib = this.pkg && this.pkg.private !== true && (this.pkg.exports !== undefined || this.pkg.main !== undefined);
      return lib && /^\s*export\b/.test(s.signature) ? 'package.json exports' : lib && s.parent ? 'a member of an exported type' : undefined;
    }
    if (s.language === 'python') return this.pyproject && /^\s*\[build-system\]/m.test(this.pyproject) && !s.name.startsWith('_') ? 'pyproject.toml builds a distribution' : undefined;
    if (s.language === 'php') return this.composer?.type === 'library' && !/\b(private|protected)\b/.test(s.signature) ? 'composer.json type library' : undefined;
    return undefined;
  }
}

