/**
 * Names of tsserver's navigation-tree items, read from tree-sitter nodes the way TypeScript's
 * services/navigationBar.ts reads them from its own AST (getItemName, getFunctionOrClassName,
 * getCalledExpressionName, cleanText): property names keep their quotes, computed names their
 * brackets, callbacks are named after the call (`describe("x") callback`), and names are cut at
 * 150 characters with their line breaks dropped.
 */
import { parentOf, type SyntaxNode } from '../../syntax/syntax.js';

const MAX_LENGTH = 150;

/** navigationBar.ts cleanText: cut at 150 characters (then `...`), line breaks dropped. */
export function cleanText(text: string): string {
  const cut = text.length > MAX_LENGTH ? `${text.slice(0, MAX_LENGTH)}...` : text;
  return cut.replace(/\\?(?:\r?\n|[\r\u2028\u2029])/g, '');
}

const IDENTIFIERS = new Set([
  'identifier',
  'property_identifier',
  'type_identifier',
  'private_property_identifier',
  'shorthand_property_identifier',
  'shorthand_property_identifier_pattern',
  'statement_identifier',
]);

/** The text of a declaration name as an item name: identifiers as written, literals with their quotes, `[computed]`. */
export function nameText(name: SyntaxNode): string {
  return cleanText(name.text);
}

export function isIdentifierNode(n: SyntaxNode | null | undefined): boolean {
  return !!n && IDENTIFIERS.has(n.type);
}

/**
 * navigationBar.ts hasNavigationBarName: a member is listed when it has a name, and a computed name
 * only when its expression is an entity name (`[Symbol.iterator]`), a number or a string.
 */
export function hasNavigationBarName(name: SyntaxNode | null): boolean {
  if (!name) return false;
  if (name.type !== 'computed_property_name') return true;
  const expr = name.namedChildren[0];
  return (
    !!expr &&
    (isEntityName(expr) ||
      expr.type === 'number' ||
      expr.type === 'string' ||
      (expr.type === 'template_string' && !expr.namedChildren.some((c) => c?.type === 'template_substitution')))
  );
}

/** `a.b.c`: identifiers joined by property names (down the chain in a loop: a chain may be 20,000 long). */
function isEntityName(n: SyntaxNode): boolean {
  for (let node: SyntaxNode | null = n; node; node = node.childForFieldName('object')) {
    if (node.type === 'identifier') return true;
    if (node.type !== 'member_expression' || node.childForFieldName('property')?.type !== 'property_identifier') return false;
  }
  return false;
}

/**
 * navigationBar.ts getCalledExpressionName: `a.b.c` for `a.b.c(...)`, the last names only past
 * `this`; undefined otherwise. Read down the chain in a loop, then joined from its base up.
 */
function calledName(expr: SyntaxNode | null): string | undefined {
  const properties: string[] = [];
  let name: string | undefined;
  for (let node = expr; node; node = node.childForFieldName('object')) {
    if (node.type === 'identifier') name = node.text;
    const property = node.type === 'member_expression' ? node.childForFieldName('property') : null;
    if (!property) break;
    properties.push(property.text);
  }
  for (let i = properties.length - 1; i >= 0; i--) name = name === undefined ? properties[i] : `${name}.${properties[i]}`;
  return name;
}

const STRING_ARGUMENTS = new Set(['string', 'template_string']);

/**
 * The name of a function or class expression that has none of its own and no assigned one
 * (navigationBar.ts getFunctionOrClassName's last cases): `<class>`, a callback named after its call,
 * or `<function>`.
 */
export function anonymousName(node: SyntaxNode): string {
  if (node.type === 'class') return '<class>';
  const args = parentOf(node);
  const call = args?.type === 'arguments' ? parentOf(args) : undefined;
  if (call?.type !== 'call_expression') return '<function>';
  const name = calledName(call.childForFieldName('function'));
  if (name === undefined) return '<function>';
  const clean = cleanText(name);
  if (clean.length > MAX_LENGTH) return `${clean} callback`;
  const literals = args!.namedChildren.filter((a): a is SyntaxNode => !!a && STRING_ARGUMENTS.has(a.type)).map((a) => a.text);
  return `${clean}(${cleanText(literals.join(', '))}) callback`;
}

/**
 * The name TypeScript assigns a function or class expression from where it stands (utilities.ts
 * getAssignedName): the key of an object property, the identifier or property a `=` assigns to.
 */
export function assignedName(node: SyntaxNode): SyntaxNode | undefined {
  return assignedNameNode(node)?.node;
}

/**
 * getAssignedName with the text TypeScript names it by: an element access with a non-literal
 * index names it `[index]` (navigationBar.ts getItemName of an ElementAccessExpression).
 */
export function assignedNameNode(node: SyntaxNode): { node: SyntaxNode; text: string } | undefined {
  const parent = parentOf(node);
  if (parent && BINARY.has(parent.type) && parent.childForFieldName('right')?.equals(node)) {
    const left = parent.childForFieldName('left');
    const index = left?.type === 'subscript_expression' ? left.childForFieldName('index') : undefined;
    if (left && index && index.type !== 'string' && index.type !== 'number') return { node: left, text: cleanText(`[${index.text}]`) };
  }
  const named = assignedNameOf(node);
  return named ? { node: named, text: nameText(named) } : undefined;
}

/** Binary expressions to TypeScript: `=`, `??=`, `||` … — getAssignedName names the right side of any of them by its left. */
const BINARY = new Set(['assignment_expression', 'augmented_assignment_expression', 'binary_expression']);

function assignedNameOf(node: SyntaxNode): SyntaxNode | undefined {
  const parent = parentOf(node);
  if (!parent) return undefined;
  if (parent.type === 'pair' && parent.childForFieldName('value')?.equals(node)) return parent.childForFieldName('key') ?? undefined;
  if (BINARY.has(parent.type) && parent.childForFieldName('right')?.equals(node)) {
    const left = parent.childForFieldName('left');
    if (left?.type === 'identifier') return left;
    if (left?.type === 'member_expression') return left.childForFieldName('property') ?? undefined;
    if (left?.type === 'subscript_expression') {
      const index = left.childForFieldName('index');
      return index && (index.type === 'string' || index.type === 'number') ? index : undefined;
    }
  }
  return undefined;
}
