/**
 * The one-line signature of a grammar-only declaration, read from its tree: the declaration's own
 * text from where it starts on its name's line up to its body (`public String toString()`, not
 * `public String toString() { return ""; }`; `struct Helper`, not the struct on one line with its
 * fields), or, when it has no body and ends on that line, its own text (an enum constant that shares
 * its line with its siblings is `Red = 1`, not the whole enum). Comments between the name and the
 * body, and a constructor's member initializers, are left out. Undefined when neither holds: the
 * catalog then reads the name's line, as it does for every language.
 */
import type { SyntaxNode } from '../syntax/syntax.js';
import { balance, capSignature } from './doc-text.js';
import { collapsed } from './structure-forms.js';

/** A body this far below the name is not a signature's end (a declaration the grammar misread). */
const MAX_SIGNATURE_LINES = 15;
/** Levels a capture of a declarator or a bare name climbs to its declaration (Java and C++ capture a field's declarator). */
const MAX_CLIMB = 3;
/** Node types of what stands between a signature and its body, left out (C++ member initializers). */
const BEFORE_BODY = new Set(['field_initializer_list']);

/** A declaration node, not a body of them (Java's `enum_body_declarations`, C++'s `field_declaration_list`). */
function isDeclaration(n: SyntaxNode): boolean {
  return /(declaration|definition)$/.test(n.type);
}

/** The declaration a capture stands for: itself, or when it is a declarator or only the name, the declaration around it (`private int size;`). */
function declarationOf(node: SyntaxNode, nameAt: number): SyntaxNode {
  if (!node.type.includes('declarator') && (node.startIndex !== nameAt || node.namedChildCount > 0)) return node;
  let up: SyntaxNode | null = node.parent;
  for (let i = 0; up && i < MAX_CLIMB; i++, up = up.parent) {
    if (!isDeclaration(up)) continue;
    // C#'s `private int x;` is a field declaration around a variable declaration
    let outer: SyntaxNode = up;
    while (outer.parent && isDeclaration(outer.parent)) outer = outer.parent;
    return outer;
  }
  return node;
}

/**
 * Where the body of a declaration starts: its `body` field, else a `block` child (CSS rules) — a body of
 * statements or members, not a tuple struct's or a variant's `(…)`, which is part of its signature —
 * or the member initializers before it.
 */
function bodyStart(node: SyntaxNode, text: string): number | undefined {
  let body = node.childForFieldName('body');
  for (let i = 0; !body && i < node.childCount; i++) if (node.child(i)?.type === 'block') body = node.child(i);
  if (!body || text[body.startIndex] === '(') return undefined;
  let at = body.startIndex;
  for (let i = 0; i < node.childCount; i++) {
    const c = node.child(i);
    if (c && BEFORE_BODY.has(c.type)) at = Math.min(at, c.startIndex);
  }
  return at;
}

function lineStart(text: string, at: number): number {
  return text.lastIndexOf('\n', at - 1) + 1;
}

/**
 * One line: whitespace collapsed, where the lines broke inside brackets no space left (`fn f(\n  a: u8,\n)` is
 * `fn f(a: u8)`), and no `;`, `,` or `:` left before a cut body.
 */
function oneLine(text: string, cutAtBody: boolean): string {
  const sig = collapsed(text.replace(/,?[ \t]*\r?\n\s*([)\]>])/g, '$1').replace(/([([<])[ \t]*\r?\n\s*/g, '$1'));
  return cutAtBody ? sig.replace(/\s*[;,:]$/, '') : sig;
}

export function declaredSignature(captured: SyntaxNode, nameAt: number, text: string): string | undefined {
  const node = declarationOf(captured, nameAt);
  const from = Math.max(node.startIndex, lineStart(text, nameAt));
  const body = bodyStart(node, text);
  const lineEnd = text.indexOf('\n', nameAt);
  let to: number;
  if (body !== undefined && body >= nameAt) to = body;
  else if (node.namedChildCount === 0) return undefined;
  else if (lineEnd < 0 || lineEnd >= node.endIndex) to = node.endIndex;
  else {
    // no body and more lines (a Ruby method with none): the name's line, when its brackets close there
    to = lineEnd;
    if (balance(text.slice(from, to)) !== 0) return undefined;
  }
  let sig = text.slice(from, to);
  if (sig.split('\n').length > MAX_SIGNATURE_LINES) return undefined;
  // comments between the name and the body (`class Widget // exported`) are no part of the signature
  for (let i = node.childCount - 1; i >= 0; i--) {
    const c = node.child(i);
    if (c && c.type.includes('comment') && c.startIndex >= from && c.endIndex <= to)
      sig = sig.slice(0, c.startIndex - from) + ' ' + sig.slice(c.endIndex - from);
  }
  sig = oneLine(sig, to !== node.endIndex);
  if (!sig) return undefined;
  return capSignature(sig);
}
