/**
 * A callers walk read for its files only (analyze_impact: one ripple effect per file). At its last
 * level the nodes found are not walked further, so asking an item's callers there can only add
 * files: when every file that spells the item's name is in the answer already, the answer cannot
 * change and the item is not asked. Exact because a call site spells its callee's name as a call:
 * `name(`, `name<T>(`, `name[T](`, a tagged template, `.name` (tsserver counts a property access as a
 * call site), `@name`, `["name"]`, `<name` in JSX — so a type annotation (`: string`) is no call —
 * except where an import or export renames it (`export { a as b }`, `export default a`): an item
 * whose name is renamed in any file that spells it is always asked. Where the caller knows which files
 * can reach the item's file at all (analyze_impact: TypeScript importers from the import graph),
 * spellings in other files do not count (zod's v3 sources spell the v4 factories' names). The walk asked every item of its last level, one call hierarchy
 * request each, which tsserver answers one at a time: on zod, 500 requests for a helper with 136
 * call sites, 12–13 s.
 */
import { type CallHierarchyItem, SymbolKind } from 'vscode-languageserver-protocol';

import type { LspSession } from '../../lsp/types.js';
import { isSecretPath } from '../../util/paths.js';
import type { ServiceCall } from '../call.js';
import { diskText } from '../disk-texts.js';
import type { CallEdge } from './call-fallback-types.js';
import { servedBy } from './mentions.js';

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
/** Files that may hold JSX, where `<Name` is a call site (elsewhere it is a type argument). */
const JSX_FILE = /\.(tsx|jsx|js|mjs|cjs)$/;
const escape = (name: string) => name.replace(/\$/g, '\\$');

/** The files that can call into `home` (a workspace file), or undefined when any file may. */
export type Reach = (home: string) => ((file: string) => boolean) | undefined;

export class NewFilesOnly {
  /** Files (workspace-relative) the answer holds: the walk's nodes so far. */
  private readonly known = new Set<string>();
  /** The words of every file the session's server serves, read once per walk. */
  private words: Map<string, { text: string; words: Set<string> }> | undefined;
  private readonly renamed = new Map<string, boolean>();
  /** Per name, the files that spell a call of it. */
  private readonly spellers = new Map<string, string[]>();
  /** Items of the last level not asked: their callers could add no file. */
  skipped = 0;

  constructor(
    private readonly call: ServiceCall,
    private readonly session: LspSession,
    /** Where an item is declared (workspace-relative), for `reach`. */
    private readonly homeOf: (item: CallHierarchyItem) => string | undefined,
    private readonly reach?: Reach,
  ) {}

  know(file: string): void {
    this.known.add(file);
  }

  /**
   * The edges of a last level's items, `ask`ed `concurrency` at a time, items whose callers could
   * add no file left out (an empty list). Those spelled in the most files the answer lacks are asked
   * first: their callers fill the answer soonest, and more of the rest need no request.
   */
  async lastLevel(
    items: CallHierarchyItem[],
    ask: (i: number) => Promise<CallEdge[]>,
    fileOf: (e: CallEdge) => string | undefined,
    concurrency: number,
  ): Promise<CallEdge[][]> {
    const out: CallEdge[][] = items.map(() => []);
    const order = items.map((item, i) => ({ i, unknown: this.unknownSpellers(item) })).sort((a, b) => b.unknown - a.unknown || a.i - b.i);
    let next = 0;
    const worker = async () => {
      while (next < order.length) {
        const { i } = order[next++]!;
        if (!this.mayAddFiles(items[i]!)) {
          this.skipped++;
          continue;
        }
        const edges = await ask(i);
        out[i] = edges;
        for (const e of edges) {
          const file = fileOf(e);
          if (file !== undefined) this.known.add(file);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, order.length)) }, worker));
    return out;
  }

  /** Whether the item's callers may be in a file the answer lacks. */
  mayAddFiles(item: CallHierarchyItem): boolean {
    return this.unknownSpellers(item) > 0 || this.isRenamed(item.name);
  }

  /** Files spelling the item's name that the answer lacks (Infinity: the name is no word a call spells). */
  private unknownSpellers(item: CallHierarchyItem): number {
    const { name } = item;
    // constructors are called by their class's name, Python's dunders by syntax (`Foo()`, `a + b`)
    if (!IDENTIFIER.test(name) || name.startsWith('__') || item.kind === SymbolKind.Constructor || item.kind === SymbolKind.Class) return Infinity;
    const home = this.reach ? this.homeOf(item) : undefined;
    const reaches = home !== undefined ? this.reach?.(home) : undefined;
    let n = 0;
    for (const file of this.callSpellers(name)) if (!this.known.has(file) && (!reaches || reaches(file))) n++;
    return n;
  }

  private callSpellers(name: string): string[] {
    let files = this.spellers.get(name);
    if (files) return files;
    const n = escape(name);
    const call = new RegExp(
      `(?<![\\w$])${n}\\s*(?:\\(|<|\\[[^\\]\\n]*\\]\\s*\\(|\x60|!|\\?\\.)|\\.\\s*${n}(?![\\w$])|@\\s*${n}(?![\\w$])|\\[\\s*["']${n}["']\\s*\\]`,
    );
    const jsx = new RegExp(`<\\s*${n}(?![\\w$])`);
    files = [];
    for (const [file, { text, words }] of this.files()) if (words.has(name) && (call.test(text) || (JSX_FILE.test(file) && jsx.test(text)))) files.push(file);
    this.spellers.set(name, files);
    return files;
  }

  /** An import or export renames the name somewhere, so a call may spell another name. */
  private isRenamed(name: string): boolean {
    if (!IDENTIFIER.test(name)) return true;
    let r = this.renamed.get(name);
    if (r === undefined) {
      const n = escape(name);
      const re = new RegExp(
        `(?<![\\w$])${n}\\s+as\\s+[\\w$]|export\\s+default\\s+(?:async\\s+)?(?:function\\s*\\*?\\s*|class\\s+)?${n}(?![\\w$])|export\\s*=\\s*${n}(?![\\w$])`,
      );
      r = false;
      for (const { text, words } of this.files().values())
        if (words.has(name) && re.test(text)) {
          r = true;
          break;
        }
      this.renamed.set(name, r);
    }
    return r;
  }

  private files(): Map<string, { text: string; words: Set<string> }> {
    if (this.words) return this.words;
    this.words = new Map();
    for (const [rel] of this.call.workspace.catalog.files()) {
      const abs = this.call.resolvePath(rel, { mustExist: false });
      if (isSecretPath(abs) || !servedBy(this.call, abs, this.session)) continue;
      const text = diskText(abs);
      if (text === undefined) continue;
      this.words.set(rel, { text, words: new Set(text.match(/[\w$]+/g) ?? []) });
    }
    return this.words;
  }
}
