/**
 * TypeScript declaration source text → modifiers, member tails and class headers. Input is the
 * text the documentSymbol ranges cover: for members, from the range start (which may include the
 * JSDoc) to the name; after the name, up to the end of the declaration.
 */
import { collapseWhitespace } from '../../../util/whitespace.js';
import { indexOfTopLevel, stripComments } from '../../typescript/source-text.js';

export const TS_MODIFIERS = [
  'export',
  'default',
  'declare',
  'abstract',
  'static',
  'readonly',
  'public',
  'private',
  'protected',
  'async',
  'override',
  'accessor',
  'get',
  'set',
  'const',
] as const;
export type TsModifier = (typeof TS_MODIFIERS)[number];

/** Modifier keywords in the text before a declaration's name (comments and decorators ignored). */
export function parseTsModifiers(prefix: string): TsModifier[] {
  const text = stripComments(prefix).replace(/@[\w.]+(\([^)]*\))?/g, ' ');
  const words = text.split(/[^\w$]+/).filter(Boolean);
  return words.filter((w): w is TsModifier => (TS_MODIFIERS as readonly string[]).includes(w));
}

export interface TsMemberTail {
  optional?: boolean;
  /** Type annotation as written. */
  type?: string;
  /** Initializer as written. */
  initializer?: string;
}

/** `?: string;` / `: boolean = true;` / ` = 'red',` → optional, type, initializer. */
export function parseTsMemberTail(tail: string): TsMemberTail {
  let rest = stripComments(tail).trim();
  const out: TsMemberTail = {};
  if (rest.startsWith('!')) rest = rest.slice(1).trim();
  if (rest.startsWith('?')) {
    out.optional = true;
    rest = rest.slice(1).trim();
  }
  rest = rest.replace(/[;,]\s*$/, '').trim();
  const eq = indexOfTopLevel(rest, '=');
  const typePart = eq >= 0 ? rest.slice(0, eq) : rest;
  if (typePart.trim().startsWith(':')) out.type = collapseWhitespace(typePart.trim().slice(1));
  if (eq >= 0 && rest[eq + 1] !== '>') out.initializer = collapseWhitespace(rest.slice(eq + 1));
  return out;
}

/** A class / interface / enum / namespace declaration cut at its body: `export abstract class Shape implements Describable`. */
export function tsDeclarationHeader(text: string): string {
  const clean = stripComments(text);
  const brace = indexOfTopLevel(clean, '{');
  return collapseWhitespace(brace >= 0 ? clean.slice(0, brace) : clean).replace(/;$/, '');
}
