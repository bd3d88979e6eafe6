/**
 * Small readers of syntax nodes shared by the language profiles' structure hooks (type headers,
 * decorations): a base from the node that names it, decorators written before a declaration, and
 * the outermost node of a declaration. Node and field names here are the ones the shipped grammars
 * share; anything a grammar names its own way stays in that language's profile.
 */
import type { BaseRelation, DeclaredBase } from './language-profile.js';
import type { SyntaxNode } from '../syntax/syntax.js';
import type { SourcePosition } from '../syntax/positions.js';

/** Named children of a node, without the nulls the runtime's typing allows. */
export function namedChildren(n: SyntaxNode): SyntaxNode[] {
  return n.namedChildren.filter((c): c is SyntaxNode => !!c);
}

/**
 * A base named by `name` (the identifier the server resolves) inside the written reference `whole`
 * (`core.Base`, `\App\Base`, `pkg.Thing`): its head is the leftmost identifier of `whole`.
 */
export function baseAt(name: SyntaxNode, whole: SyntaxNode, relation: BaseRelation, at: (n: SyntaxNode) => SourcePosition): DeclaredBase {
  let head: SyntaxNode = whole;
  while (head.namedChildCount > 0 && head !== name) head = namedChildren(head)[0]!;
  return { name: name.text, head: head.text, relation, at: at(name) };
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
