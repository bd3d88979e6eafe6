/**
 * Small readers of syntax nodes shared by the language profiles' structure hooks (type headers,
 * decorations): a base from the node that names it, decorators written before a declaration, and
 * the outermost node of a declaration. Node and field names here are the ones the shipped grammars
 * share; anything a grammar names its own way stays in that language's profile.
 */
import type { SourcePosition } from '../syntax/positions.js';
import type { SyntaxNode } from '../syntax/syntax.js';
import type { BaseRelation, DeclaredBase } from './syntax-hooks.js';

/** Named children of a node, without the nulls the runtime's typing allows. */
export function namedChildren(n: SyntaxNode): SyntaxNode[] {
  return n.namedChildren.filter((c): c is SyntaxNode => !!c);
}

const WHITESPACE = new Set([' ', '\t', '\n', '\r', '\f', '\v']);

/** A node's text with each run of whitespace (line breaks of a multi-line header) as one space. */
export function collapsed(n: SyntaxNode | string): string {
  let out = '';
  let gap = false;
  for (const ch of typeof n === 'string' ? n : n.text) {
    if (WHITESPACE.has(ch)) gap = out.length > 0;
    else {
      out += gap ? ` ${ch}` : ch;
      gap = false;
    }
  }
  return out;
}

/**
 * A base named by `name` (the identifier the server resolves) inside the reference `path`
 * (`core.Base`, `\App\Base`, `pkg.Thing`: no generic arguments), written as `written` (with them):
 * its head is the leftmost identifier of `path`.
 */
export function baseAt(
  name: SyntaxNode,
  path: SyntaxNode,
  relation: BaseRelation,
  at: (n: SyntaxNode) => SourcePosition,
  written: SyntaxNode | string = path,
): DeclaredBase {
  let head: SyntaxNode = path;
  while (head.namedChildCount > 0 && head !== name) head = namedChildren(head)[0]!;
  return { name: name.text, head: head.text, relation, at: at(name), text: collapsed(path), written: collapsed(written) };
}

/**
 * The text of `outer` from `from` (its start by default) to `end` (where its body opens), the
 * comments inside left out, whitespace collapsed: a declaration's header.
 */
export function headerText(outer: SyntaxNode, end: number, from = outer.startIndex): string {
  const text = outer.text;
  const slice = (a: number, b: number) => text.slice(a - outer.startIndex, b - outer.startIndex);
  let out = '';
  let at = from;
  for (const c of outer.descendantsOfType('comment')) {
    if (!c || c.startIndex < at || c.startIndex >= end) continue;
    out += `${slice(at, c.startIndex)} `;
    at = c.endIndex;
  }
  return collapsed(out + slice(at, end));
}

/** The decorators of a declaration: its own `decorator` children and the ones written right before it among its siblings. */
export function decoratorNodes(decl: SyntaxNode, type = 'decorator'): SyntaxNode[] {
  const own = namedChildren(decl).filter((c) => c.type === type);
  const before: SyntaxNode[] = [];
  for (let s = decl.previousNamedSibling; s && s.type === type; s = s.previousNamedSibling) before.unshift(s);
  return [...before, ...own];
}

/** The node a declaration starts with, wrappers included (`export …`, Python's decorated definition). */
export function outermost(decl: SyntaxNode, wrappers: readonly string[]): SyntaxNode {
  let n = decl;
  while (n.parent && wrappers.includes(n.parent.type)) n = n.parent;
  return n;
}
