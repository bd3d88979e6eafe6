/**
 * The TypeScript and JavaScript declarations hook: tsserver's navigation tree (nav-tree.ts) as
 * typescript-language-server sends it in documentSymbol — navigationBar.ts mergeChildren first
 * (same-named overloads, namespaces and members of one container are one item with several spans;
 * a function with `F.x = …` beside it becomes an ES5 class whose constructor is the function), then
 * typescript-language-server's collectDocumentSymbols: one symbol per span, the name's position as
 * the selection only where the name lies in that span (every later span of a merged item selects
 * its start), `<function>` and `<class>` items only when something inside them is listed.
 */
import type { DeclarationSyntax, SyntaxFileInfo, SyntaxSymbol } from '../language-profile.js';
import type { SyntaxNode } from '../../syntax/syntax.js';
import { tsDescriptorKind } from './kinds.js';
import { tsModulePath } from './module-path.js';
import { NAV_KIND, NavTreeBuilder, type NavItem } from './nav-tree.js';

interface Marked extends NavItem {
  /** A later span of a merged item: its selection is its start. */
  later?: boolean;
}

/** navigationBar.ts mergeChildren over sibling lists read together (the children of one merged item). */
function mergeSiblings(lists: Marked[][]): void {
  const firsts = new Map<string, Marked[]>();
  const groups = new Map<Marked, Marked[]>();
  for (const list of lists) {
    for (const item of list) {
      if (item.merge === undefined) continue;
      const key = `${item.merge}\u0000${item.name}`;
      const known = firsts.get(key) ?? [];
      const first = known.find((a) => a.scope === item.scope || (a.own && item.own));
      if (first) {
        item.later = true;
        groups.get(first)!.push(item);
      } else {
        known.push(item);
        firsts.set(key, known);
        groups.set(item, [item]);
      }
    }
  }
  for (const list of lists) {
    for (const item of list) {
      const group = groups.get(item);
      if (group) mergeSiblings(group.map((g) => g.children));
      else if (!item.later) mergeSiblings([item.children]);
    }
  }
}

/**
 * navigationBar.ts tryMergeEs5Class for `F.x = …` after `function F`: F becomes a class whose
 * first child is a constructor over the function (with the function's children); an assignment
 * right after F (or after the last one merged) widens F's span, a later one is a span of its own.
 */
function mergeEs5Classes(list: Marked[]): Marked[] {
  if (!list.some((i) => i.merge?.startsWith('es5 '))) return list;
  const out: Marked[] = [];
  const classes = new Map<string, { item: Marked; lastEnd: number }>();
  let previous: Marked | undefined;
  for (const item of list) {
    const target = item.merge?.startsWith('es5 ') ? item.merge.slice(4) : undefined;
    const fn = target === undefined ? undefined : (classes.get(target) ?? convert(out.find((f) => f.merge === 'function' && f.name === target), classes));
    if (target === undefined || !fn) {
      out.push(item);
      previous = item;
      continue;
    }
    if (previous && previous.end === fn.lastEnd) {
      fn.item.end = item.end;
      fn.item.children.push(...item.children);
    } else {
      out.push({ ...item, name: fn.item.name, lspKind: NAV_KIND.class, later: true });
    }
    fn.lastEnd = item.end;
    previous = item;
  }
  return out;
}

function convert(fn: Marked | undefined, classes: Map<string, { item: Marked; lastEnd: number }>): { item: Marked; lastEnd: number } | undefined {
  if (!fn) return undefined;
  const ctor: Marked = { name: 'constructor', lspKind: NAV_KIND.constructor, start: fn.start, end: fn.end, children: fn.children };
  fn.lspKind = NAV_KIND.class;
  fn.children = [ctor];
  const entry = { item: fn, lastEnd: fn.end };
  classes.set(fn.name, entry);
  return entry;
}

function es5Pass(list: Marked[]): Marked[] {
  const out = mergeEs5Classes(list);
  for (const item of out) item.children = es5Pass(item.children);
  return out;
}

function toSymbols(items: Marked[], text: string, lineStart: (at: number) => number): SyntaxSymbol[] {
  const out: SyntaxSymbol[] = [];
  for (const item of items) {
    const children = toSymbols(item.children, text, lineStart);
    if (item.anonymous && children.length === 0) continue;
    const named = !item.later && item.nameAt !== undefined && item.nameAt >= item.start && item.nameAt <= item.end;
    const selection = named ? item.nameAt! : item.start;
    const before = text.slice(lineStart(selection), selection);
    out.push({ name: item.name, lspKind: item.lspKind, kind: tsDescriptorKind(item.lspKind, before), start: item.start, end: item.end, selection, children });
  }
  return out;
}

function lineStartFinder(text: string): (at: number) => number {
  return (at) => text.lastIndexOf('\n', at - 1) + 1;
}

function reader(js: boolean): DeclarationSyntax['read'] {
  return (root: SyntaxNode, text: string) => {
    const items = es5Pass(new NavTreeBuilder(js).build(root) as Marked[]);
    mergeSiblings([items]);
    return toSymbols(items, text, lineStartFinder(text));
  };
}

const packageOf = (file: SyntaxFileInfo) => ({ package: tsModulePath(file.relPath) });

export const TS_DECLARATIONS: DeclarationSyntax = { read: reader(false), packageOf };
export const JS_DECLARATIONS: DeclarationSyntax = { read: reader(true), packageOf };
