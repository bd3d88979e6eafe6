/**
 * Small readers of syntax nodes shared by the language profiles' pattern hooks: a call's callee and
 * first argument, a string literal's value, and the findings they build. Node and field names here
 * are the ones the shipped grammars share (`function`, `arguments`); anything a grammar names its
 * own way stays in that language's profile.
 */
import type { SyntaxNode } from '../syntax/syntax.js';
import { collapsed } from './structure-forms.js';
import type { PatternFinding } from './syntax-hooks.js';

/** Method names that register an HTTP route on a router object (`app.get`, `router.post`, `Route::any`). */
export const HTTP_VERBS: ReadonlySet<string> = new Set(['get', 'post', 'put', 'patch', 'delete', 'options', 'head', 'all', 'route', 'any', 'match']);

/** `app.route` of `app.route('/x')`, `Component` of `Component({...})`. */
export function calleeText(n: SyntaxNode): string {
  const target = n.type === 'call_expression' || n.type === 'call' ? (n.childForFieldName('function') ?? n) : n;
  return compact(target.text);
}

/** A text without its whitespace: `app . route` → `app.route`, a catch type list over two lines → one word. */
export function compact(text: string): string {
  return collapsed(text).split(' ').join('');
}

/** The parts of a string literal's node that are its value, in the shipped grammars. */
const STRING_PARTS = new Set(['string_fragment', 'string_content', 'escape_sequence', 'interpreted_string_literal_content', 'raw_string_literal_content']);

export function firstArgument(call: SyntaxNode): SyntaxNode | undefined {
  const args = call.childForFieldName('arguments');
  const first = args?.namedChildren.find((c): c is SyntaxNode => !!c && c.type !== 'comment');
  return first?.type === 'argument' ? (first.namedChildren[0] ?? undefined) : (first ?? undefined);
}

/** The value of a string literal, from its content nodes (quotes, prefixes such as Python's `f` and substitutions left out), else undefined. */
export function stringValue(n: SyntaxNode | undefined): string | undefined {
  if (!n || !n.type.includes('string')) return undefined;
  return n.children
    .filter((c): c is SyntaxNode => !!c && STRING_PARTS.has(c.type))
    .map((c) => c.text)
    .join('');
}

export const errorHandling = (name: string, description: string): PatternFinding => ({ pattern_type: 'error-handling', name, description });

/** A route registration when the call's first argument is a path literal (`/…` where `requireSlash`). */
export function routeRegistration(registrar: string, call: SyntaxNode, requireSlash: boolean): PatternFinding | undefined {
  const path = stringValue(firstArgument(call));
  if (path === undefined || (requireSlash && !path.startsWith('/'))) return undefined;
  return { pattern_type: 'framework', name: `routes ${registrar}`, description: `HTTP routes registered with ${registrar}(path, handler)` };
}
