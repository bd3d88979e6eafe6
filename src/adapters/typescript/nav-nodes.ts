/**
 * Facts about tree-sitter nodes as TypeScript's AST has them, for the navigation tree (nav-tree.ts):
 * where a declaration starts (its decorators, `export`, `declare`) and ends (no trailing comment),
 * what merges with what, which patterns declare, the kind of a variable and of an export assignment.
 */
import { knowParent, parentOf, type SyntaxNode } from '../../syntax/syntax.js';

/** typescript-language-server's SymbolKind for each of tsserver's ScriptElementKinds used here. */
export const NAV_KIND = {
  module: 2,
  class: 5,
  method: 6,
  property: 7,
  constructor: 9,
  enum: 10,
  interface: 11,
  function: 12,
  variable: 13,
  constant: 14,
} as const;

export interface NavItem {
  name: string;
  lspKind: number;
  start: number;
  end: number;
  /** Start index of the item's name node (undefined: it has none). */
  nameAt?: number;
  children: NavItem[];
  /** Same key, same parent: one item to navigationBar.ts mergeChildren (overloads, namespaces declared twice). */
  merge?: string;
  /** `<function>` / `<class>`: left out unless something inside is listed. */
  anonymous?: boolean;
  /** The AST parent it merges within, and whether it sits directly in its container's body (navigationBar.ts isOwnChild). */
  scope?: number;
  own?: boolean;
  /** `exports.x = …` / `module.exports.x = …`: merged away into an earlier sibling named x (navigationBar.ts mergeChildren). */
  commonJs?: boolean;
}

export { knowParent, parentOf };

export const FUNCTION_EXPRESSIONS = new Set(['arrow_function', 'function_expression', 'function', 'generator_function']);
export const CLASS_EXPRESSIONS = new Set(['class']);
export const PATTERNS = new Set(['object_pattern', 'array_pattern']);

/** Bodies whose declarations are their container's own children (navigationBar.ts isOwnChild: a module block counts as its module). */
const OWN_BODIES = new Set(['program', 'class_body', 'interface_body', 'object_type', 'enum_body']);

/** What navigationBar.ts mergeChildren needs of a declaration: its merge key, AST parent and whether it is its container's own child. */
export function mergeable(n: SyntaxNode, merge: string): Pick<NavItem, 'merge' | 'scope' | 'own'> {
  let p = parentOf(n);
  if (p?.type === 'ambient_declaration') p = parentOf(p);
  if (p?.type === 'export_statement') p = parentOf(p);
  const moduleBody =
    p?.type === 'statement_block' && (parentOf(p)?.type === 'internal_module' || parentOf(p)?.type === 'module' || parentOf(p)?.type === 'ambient_declaration');
  return { merge, scope: p?.id ?? -1, own: !!p && (OWN_BODIES.has(p.type) || moduleBody) };
}

/** The text of the tree being read (NavWalk.build): endOf looks at a node's last characters before asking the tree. */
let reading: { tree: unknown; text: string } | undefined;

export function readingText(tree: unknown, text: string): void {
  reading = { tree, text };
}

/** How far back endOf looks for a line comment on a node's last line before it asks the tree. */
const TAIL = 256;

/**
 * Whether a comment may end the node spanning [start, end) of `text`: a block comment's `*\/` right
 * at its end, or a `//` on its last line. False only when neither can be there (a `//` inside a
 * string on that line answers true: the tree is asked then).
 */
function mayEndInComment(text: string, start: number, end: number): boolean {
  if (end - start >= 2 && text.charCodeAt(end - 1) === 0x2f && text.charCodeAt(end - 2) === 0x2a) return true;
  const lo = Math.max(start, end - TAIL);
  for (let i = end - 1; i >= lo; i--) {
    const c = text.charCodeAt(i);
    if (c === 0x0a || c === 0x0d || c === 0x2028 || c === 0x2029) return false;
    if (c === 0x2f && i > start && text.charCodeAt(i - 1) === 0x2f) return true;
  }
  return lo > start;
}

/** Where a node ends without the comments tree-sitter keeps at its end (TypeScript's node ends at its last token). */
export function endOf(n: SyntaxNode): number {
  // a node's end is its last child's: unless a comment ends its text, it is the node's own end
  if (reading?.tree === n.tree && !mayEndInComment(reading.text, n.startIndex, n.endIndex)) return n.endIndex;
  // down the last children in a loop: `const v = a = b = …` nests its last child 20,000 deep
  for (let node = n; ;) {
    let last = node.lastChild;
    while (last?.type === 'comment') last = last.previousSibling;
    if (!last || (last.equals(node.lastChild!) && last.childCount === 0)) return node.endIndex;
    node = last;
  }
}

/** Where TypeScript's node starts: at its first decorator or modifier, `export` and `declare` included. */
export function declarationStart(n: SyntaxNode): number {
  let start = n.startIndex;
  let p = parentOf(n);
  if (p?.type === 'ambient_declaration') {
    start = p.startIndex;
    p = parentOf(p);
  }
  if (p?.type === 'export_statement') start = p.startIndex;
  // tree-sitter puts a method's decorators before it in the class body
  for (let prev = n.previousNamedSibling; prev?.type === 'decorator'; prev = prev.previousNamedSibling) start = prev.startIndex;
  return start;
}

const PATTERN_PARTS = new Set(['object_pattern', 'array_pattern', 'pair_pattern', 'object_assignment_pattern', 'assignment_pattern', 'rest_pattern']);
const DECLARING = new Set(['required_parameter', 'optional_parameter', 'formal_parameters', 'variable_declarator', 'catch_clause']);

/** Whether a destructuring pattern declares (a parameter's, a variable's) rather than assigns. */
export function isParameterPattern(p: SyntaxNode): boolean {
  let x = parentOf(p);
  while (x && PATTERN_PARTS.has(x.type)) x = parentOf(x);
  return !!x && (DECLARING.has(x.type) || (x.type === 'for_in_statement' && !!x.childForFieldName('kind')));
}

export function isStatic(n: SyntaxNode): boolean {
  return n.children.some((c) => c?.type === 'static');
}

export function accessorKeyword(n: SyntaxNode): 'get' | 'set' | undefined {
  for (const c of n.children) {
    if (!c) continue;
    if (c.type === 'get' || c.type === 'set') return c.type;
    if (c.isNamed) return undefined;
  }
  return undefined;
}

export function isDefaultExport(n: SyntaxNode): boolean {
  const p = parentOf(n);
  return p?.type === 'export_statement' && p.children.some((c) => c?.type === 'default');
}

export function firstIdentifier(n: SyntaxNode): SyntaxNode {
  let x = n;
  while (x.type === 'nested_identifier' && x.namedChildren[0]) x = x.namedChildren[0];
  return x;
}

/** The LSP kind of a variable declaration: Constant for `const`, Variable for `let`, `var` and `using`. */
export function declarationKind(declarator: SyntaxNode): number {
  const decl = parentOf(declarator);
  const keyword = decl?.type === 'lexical_declaration' ? (decl.childForFieldName('kind')?.type ?? decl.child(0)?.type) : undefined;
  return keyword === 'const' ? NAV_KIND.constant : NAV_KIND.variable;
}

/** `(x)`, `x as T`, `x satisfies T`, `x!`, `<T>x` → x (TypeScript's skipOuterExpressions). */
export function skipOuterExpressions(n: SyntaxNode): SyntaxNode {
  let x = n;
  for (;;) {
    if (
      x.type === 'parenthesized_expression' ||
      x.type === 'as_expression' ||
      x.type === 'satisfies_expression' ||
      x.type === 'non_null_expression' ||
      x.type === 'type_assertion'
    ) {
      const inner = x.type === 'type_assertion' ? x.namedChildren[x.namedChildren.length - 1] : x.namedChildren[0];
      if (!inner) return x;
      x = inner;
    } else return x;
  }
}

/** navigationBar.ts getNodeKind of an ExportAssignment: its expression's kind, `const` when it has none. */
export function exportKind(expr: SyntaxNode): number {
  if (expr.type === 'class') return NAV_KIND.class;
  if (FUNCTION_EXPRESSIONS.has(expr.type)) return NAV_KIND.function;
  return NAV_KIND.constant;
}

/** An assignment the grammar read after a `using` keyword (`using x = …`, `await using x = …`): a declaration. */
export function isUsingDeclaration(n: SyntaxNode): boolean {
  return n.firstChild?.type === 'using' && !n.firstChild.isNamed;
}
