/**
 * TypeScript declaration source text → modifiers, member tails and class headers. Input is the
 * text the documentSymbol ranges cover: for members, from the range start (which may include the
 * JSDoc) to the name; after the name, up to the end of the declaration.
 */
import { collapseWhitespace, indexOfTopLevel, splitTopLevel, stripComments } from './source-text.js';

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

export interface TsHeritage {
  typeParameters?: string;
  extends: string[];
  implements: string[];
}

/** `class Registry<T extends Named> implements Repository<T, EntityId>` → type parameters and heritage clauses. */
export function parseTsHeritage(header: string): TsHeritage {
  const out: TsHeritage = { extends: [], implements: [] };
  const kw = /\b(class|interface)\s+[\w$]+\s*/.exec(header);
  if (!kw) return out;
  let rest = header.slice(kw.index + kw[0].length);
  if (rest.startsWith('<')) {
    let depth = 0;
    let i = 0;
    for (; i < rest.length; i++) {
      if (rest[i] === '<') depth++;
      else if (rest[i] === '>' && rest[i - 1] !== '=' && --depth === 0) break;
    }
    out.typeParameters = rest.slice(0, i + 1);
    rest = rest.slice(i + 1);
  }
  const clauses = rest.split(/\b(extends|implements)\b/);
  for (let i = 1; i < clauses.length; i += 2) {
    const list = splitTopLevel(clauses[i + 1] ?? '');
    (clauses[i] === 'extends' ? out.extends : out.implements).push(...list);
  }
  return out;
}

/** `Repository<T, EntityId>` → `Repository`; `ns.Base` → `ns.Base`. */
export function stripTypeArguments(type: string): string {
  const lt = type.indexOf('<');
  return (lt >= 0 ? type.slice(0, lt) : type).trim();
}
