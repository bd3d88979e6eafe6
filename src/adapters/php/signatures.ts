/**
 * Whole one-line signatures of PHP declarations read from the parse tree, with every modifier
 * written out: a class member without a visibility is public (PHP's rule, and `var` is the old
 * spelling of `public`), so the outline says `public` rather than leave a reader to know it.
 * Attributes are left out (decorations list them); bodies are left out. No 200-character cut: a
 * long parameter list is given whole, up to a cap far above real code, marked when reached.
 */
import type { SyntaxNode } from '../../syntax/syntax.js';

/** Beyond this a signature is cut and ends with TRUNCATED (generated code, not hand-written). */
export const PHP_SIGNATURE_CAP = 4000;
const TRUNCATED = ' …(truncated)';

const SKIP = new Set(['attribute_list', 'comment']);

function oneLine(s: string): string {
  const flat = s
    .replace(/\s+/g, ' ')
    .replace(/\(\s+/g, '(')
    .replace(/\s+\)/g, ')')
    .replace(/,\s*\)/g, ')')
    .trim();
  return flat.length > PHP_SIGNATURE_CAP ? flat.slice(0, PHP_SIGNATURE_CAP) + TRUNCATED : flat;
}

/** The node's text from its first child that is not an attribute up to (not including) `stop`. */
function head(n: SyntaxNode, stop: number): string {
  const first = n.children.find((c) => !!c && !SKIP.has(c.type));
  return n.text.slice((first ? first.startIndex : n.startIndex) - n.startIndex, stop - n.startIndex);
}

/** `public` before a member that names no visibility; `var` read as `public`. */
function withVisibility(n: SyntaxNode, sig: string): string {
  const explicit = n.children.some((c) => c?.type === 'visibility_modifier');
  if (explicit) return sig;
  return sig.startsWith('var ') ? `public ${sig.slice(4)}` : `public ${sig}`;
}

/** `final public function f(int $a): void` — method or function, without its body. */
export function functionSignature(n: SyntaxNode, member: boolean): string {
  const body = n.childForFieldName('body');
  const sig = oneLine(head(n, body ? body.startIndex : n.endIndex).replace(/;\s*$/, ''));
  return member ? withVisibility(n, sig) : sig;
}

/** `final readonly class C extends B implements I`. */
export function typeSignature(n: SyntaxNode): string {
  const body = n.childForFieldName('body');
  return oneLine(head(n, body ? body.startIndex : n.endIndex));
}

/** One element of a property or constant declaration with the declaration's modifiers and type: `public static ?int $p = null`. */
export function elementSignature(decl: SyntaxNode, element: SyntaxNode, member: boolean): string {
  const firstElement = decl.children.find((c) => c?.type === element.type);
  const prefix = firstElement ? head(decl, firstElement.startIndex) : '';
  const sig = oneLine(`${prefix} ${element.text}`);
  return member ? withVisibility(decl, sig) : sig;
}

/** A promoted constructor parameter as the property it declares: `private readonly int $x`. */
export function promotedSignature(p: SyntaxNode): string {
  return withVisibility(p, oneLine(head(p, p.endIndex)));
}
