/**
 * The TypeScript and JavaScript declarations hook: tsserver's navigation tree (nav-tree.ts) as
 * typescript-language-server sends it in documentSymbol — navigationBar.ts mergeChildren first
 * (same-named overloads, namespaces and members of one container are one item with several spans;
 * a function with `F.x = …` beside it becomes an ES5 class whose constructor is the function), then
 * typescript-language-server's collectDocumentSymbols: one symbol per span, the name's position as
 * the selection only where the name lies in that span (every later span of a merged item selects
 * its start), `<function>` and `<class>` items only when something inside them is listed.
 */
import type { SyntaxNode } from '../../syntax/syntax.js';
import type { DeclarationSyntax, SyntaxFileInfo, SyntaxSymbol } from '../language-profile.js';
import { nearBefore, tsDescriptorKind } from './kinds.js';
import { tsModulePath } from './module-path.js';
import { NAV_KIND, type NavItem, NavTreeBuilder } from './nav-tree.js';

interface Marked extends NavItem {
  /** A later span of a merged item: its selection is its start. */
  later?: boolean;
}

/**
 * navigationBar.ts mergeChildren over sibling lists read together (the children of one merged
 * item), then over their children's lists, level by level without recursion.
 */
function mergeSiblings(start: Marked[][]): void {
  const pending: Marked[][][] = [start];
  for (let lists = pending.pop(); lists; lists = pending.pop()) {
    const groups = mergeLevel(lists);
    for (const list of lists) {
      for (const item of list) {
        const group = groups.get(item);
        if (group) pending.push(group.map((g) => g.children));
        else if (!item.later) pending.push([item.children]);
      }
    }
  }
}

/**
 * A CommonJS export (`exports.x = …`) after a sibling of the same name is no item of its own to
 * TypeScript: it merges into the earlier one (its children with it); one before any such sibling stays.
 */
function absorbCommonJs(list: Marked[]): void {
  if (!list.some((i) => i.commonJs)) return;
  const named = new Map<string, Marked>();
  let kept = 0;
  for (const item of list) {
    const earlier = named.get(item.name);
    if (item.commonJs && earlier) {
      earlier.children.push(...item.children);
      continue;
    }
    if (!earlier) named.set(item.name, item);
    list[kept++] = item;
  }
  list.length = kept;
}

function mergeLevel(lists: Marked[][]): Map<Marked, Marked[]> {
  const firsts = new Map<string, Marked[]>();
  const groups = new Map<Marked, Marked[]>();
  for (const list of lists) absorbCommonJs(list);
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
  return groups;
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
  // the first function of each name in `out` (a search of `out` for each assignment was assignments × items)
  const functions = new Map<string, Marked>();
  let previous: Marked | undefined;
  for (const item of list) {
    const target = item.merge?.startsWith('es5 ') ? item.merge.slice(4) : undefined;
    const fn = target === undefined ? undefined : (classes.get(target) ?? convert(functions.get(target), classes));
    if (target === undefined || !fn) {
      out.push(item);
      if (item.merge === 'function' && !functions.has(item.name)) functions.set(item.name, item);
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

/** mergeEs5Classes at every level, parents before children, without recursion. */
function es5Pass(list: Marked[]): Marked[] {
  const top = mergeEs5Classes(list);
  const pending = [...top];
  for (let item = pending.pop(); item; item = pending.pop()) {
    item.children = mergeEs5Classes(item.children);
    pending.push(...item.children);
  }
  return top;
}

/**
 * The items as symbols, without recursion: children are converted before their parent (an
 * anonymous item is kept only when it has named children), each list keeps its order.
 */
function toSymbols(items: Marked[], text: string): SyntaxSymbol[] {
  const converted = new Map<Marked, SyntaxSymbol[]>();
  const root: Marked[] = items;
  // post-order: a frame's list is converted once all its items' children are
  const frames: { list: Marked[]; next: number }[] = [{ list: root, next: 0 }];
  while (frames.length) {
    const frame = frames[frames.length - 1]!;
    const item = frame.list[frame.next];
    if (item && !converted.has(item)) {
      converted.set(item, []);
      frames.push({ list: item.children, next: 0 });
      continue;
    }
    if (item) {
      frame.next++;
      continue;
    }
    frames.pop();
    const out: SyntaxSymbol[] = [];
    for (const it of frame.list) {
      const children = converted.get(it)!;
      if (it.anonymous && children.length === 0) continue;
      const named = !it.later && it.nameAt !== undefined && it.nameAt >= it.start && it.nameAt <= it.end;
      const selection = named ? it.nameAt! : it.start;
      out.push({
        name: it.name,
        lspKind: it.lspKind,
        kind: tsDescriptorKind(it.lspKind, lineBefore(text, selection)),
        start: it.start,
        end: it.end,
        selection,
        children,
      });
    }
    const parent = frames[frames.length - 1];
    if (!parent) return out;
    converted.set(parent.list[parent.next]!, out);
    parent.next++;
  }
  return [];
}

/** The text of `at`'s line before it, as far back as keywords are looked for (kinds.ts nearBefore). */
function lineBefore(text: string, at: number): string {
  const near = nearBefore(text.slice(0, at));
  return near.slice(near.lastIndexOf('\n') + 1);
}

function reader(js: boolean): DeclarationSyntax['read'] {
  return (root: SyntaxNode, text: string) => {
    const items = es5Pass(new NavTreeBuilder(js).build(root, text) as Marked[]);
    mergeSiblings([items]);
    return toSymbols(items, text);
  };
}

const packageOf = (file: SyntaxFileInfo) => ({ package: tsModulePath(file.relPath) });

export const TS_DECLARATIONS: DeclarationSyntax = { read: reader(false), packageOf };
export const JS_DECLARATIONS: DeclarationSyntax = { read: reader(true), packageOf };
