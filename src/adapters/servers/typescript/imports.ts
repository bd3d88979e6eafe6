/**
 * Import bindings are not declarations. TypeScript 7's native server (`tsc --lsp`, servers.json
 * `tsgo`) lists every binding of `import … from`, `import x = require(…)` / `import x = A.B`,
 * and every specifier of `export { … } [from …]` as a Variable symbol in documentSymbol;
 * typescript-language-server 5.3 (tsserver's navtree) lists none of them (both compared on the
 * same file: named, default, namespace, type-only, multi-line and renamed imports, import-equals,
 * `export { a as b } from`, `export * as ns from`, `export { local as alias }`). Cataloged, they
 * turn `find_definition {symbol:"formatName"}` into AMBIGUOUS_SYMBOL (the function and its
 * import in every importing file) and fill outlines with names declared elsewhere.
 *
 * The filter finds those statements with a small tokenizer (comments, strings, template
 * literals, regular expressions skipped; not the TypeScript parser: loading it costs ~100 MB RSS
 * and ~0.5 s) and drops every symbol whose name (selectionRange start) lies inside one. For a
 * server that lists no such symbols it changes nothing.
 */
import type { DocumentSymbol, Position } from 'vscode-languageserver-protocol';
import { SymbolKind as Lsp } from 'vscode-languageserver-protocol';

import { lineStarts, offsetAt } from '../../../lsp/positions.js';
import type { PositionEncoding } from '../../../lsp/types.js';

const enum K {
  Ident,
  String,
  Punct,
  Other,
}

interface Tok {
  k: K;
  /** Identifier or punctuator text; empty for strings and other literals. */
  v: string;
  s: number;
  e: number;
}

/** After these keywords a `/` starts a regular expression; after any other identifier it divides. */
const REGEX_AFTER = new Set(['return', 'typeof', 'instanceof', 'in', 'of', 'new', 'delete', 'void', 'throw', 'case', 'do', 'else', 'yield', 'await']);
const IDENT = /[\p{ID_Start}$_\\#](?:[\p{ID_Continue}$\\]|\u200c|\u200d)*/uy;
const NUMBER = /\.?\d(?:[eE][+-]|[\w.])*/y;
const FLAGS = /[\p{ID_Continue}$]*/uy;

function isNewline(c: number): boolean {
  return c === 10 || c === 13 || c === 0x2028 || c === 0x2029;
}

function isAsciiIdentStart(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c === 36 || c === 35 || c === 92;
}

function isAsciiIdentPart(c: number): boolean {
  return isAsciiIdentStart(c) || (c >= 48 && c <= 57);
}

function regexAllowed(prev: Tok | undefined): boolean {
  if (!prev) return true;
  if (prev.k === K.Ident) return REGEX_AFTER.has(prev.v);
  if (prev.k === K.Punct) return !(prev.v === ')' || prev.v === ']' || prev.v === '}');
  return false;
}

/** A string literal from its quote; an unterminated one ends at the line break (JSX text: `it's`). */
function skipString(text: string, i: number, quote: number): number {
  for (let j = i + 1; j < text.length; j++) {
    const c = text.charCodeAt(j);
    if (c === 92 /* \ */) j++;
    else if (c === quote) return j + 1;
    else if (isNewline(c)) return j;
  }
  return text.length;
}

/** A regular expression literal from its `/`; without a closing `/` on the line it is a division. */
function skipRegex(text: string, i: number): number | undefined {
  let inClass = false;
  for (let j = i + 1; j < text.length; j++) {
    const c = text.charCodeAt(j);
    if (isNewline(c)) return undefined;
    if (c === 92) j++;
    else if (c === 91 /* [ */) inClass = true;
    else if (c === 93 /* ] */) inClass = false;
    else if (c === 47 && !inClass) {
      FLAGS.lastIndex = j + 1;
      FLAGS.exec(text);
      return FLAGS.lastIndex;
    }
  }
  return undefined;
}

/** Template text from after a backtick or a `}` closing `${`: its end, and whether `${` opened. */
function skipTemplate(text: string, j: number): { end: number; expr: boolean } {
  for (; j < text.length; j++) {
    const c = text.charCodeAt(j);
    if (c === 92) j++;
    else if (c === 96 /* ` */) return { end: j + 1, expr: false };
    else if (c === 36 /* $ */ && text.charCodeAt(j + 1) === 123) return { end: j + 2, expr: true };
  }
  return { end: text.length, expr: false };
}

/** The significant tokens of JS/TS source (no whitespace, no comments). */
export function tokenize(text: string): Tok[] {
  const out: Tok[] = [];
  const templateDepths: number[] = [];
  let depth = 0;
  let i = 0;
  const push = (k: K, s: number, e: number, v = '') => out.push({ k, v, s, e });
  while (i < text.length) {
    const c = text.charCodeAt(i);
    const ch = text[i]!;
    if (c <= 32 || c === 0xa0 || c === 0xfeff || isNewline(c) || (c > 127 && /\s/.test(ch))) {
      i++;
    } else if (c === 47 /* / */ && text.charCodeAt(i + 1) === 47) {
      while (i < text.length && !isNewline(text.charCodeAt(i))) i++;
    } else if (c === 47 && text.charCodeAt(i + 1) === 42 /* * */) {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 2;
    } else if (c === 47) {
      const end = regexAllowed(out[out.length - 1]) ? skipRegex(text, i) : undefined;
      if (end === undefined) push(K.Punct, i, ++i, '/');
      else push(K.Other, i, (i = end));
    } else if (c === 39 || c === 34) {
      push(K.String, i, (i = skipString(text, i, c)));
    } else if (c === 96) {
      const t = skipTemplate(text, i + 1);
      if (t.expr) templateDepths.push(depth++);
      push(K.Other, i, (i = t.end));
    } else if (c === 125 /* } */ && templateDepths.length && templateDepths[templateDepths.length - 1] === depth - 1) {
      // The `}` closing a template's `${`: the template text goes on.
      depth--;
      templateDepths.pop();
      const t = skipTemplate(text, i + 1);
      if (t.expr) templateDepths.push(depth++);
      push(K.Other, i, (i = t.end));
    } else if ((c >= 48 && c <= 57) || (c === 46 && /\d/.test(text[i + 1] ?? ''))) {
      NUMBER.lastIndex = i;
      NUMBER.exec(text);
      push(K.Other, i, (i = NUMBER.lastIndex));
    } else if (isAsciiIdentStart(c)) {
      const s = i;
      while (++i < text.length && isAsciiIdentPart(text.charCodeAt(i)));
      if (i < text.length && text.charCodeAt(i) > 127) {
        IDENT.lastIndex = s;
        IDENT.exec(text);
        i = IDENT.lastIndex;
      }
      push(K.Ident, s, i, text.slice(s, i));
    } else {
      IDENT.lastIndex = i;
      const m = c > 127 ? IDENT.exec(text) : null;
      if (m) {
        push(K.Ident, i, (i = IDENT.lastIndex), m[0]);
      } else {
        if (c === 123) depth++;
        else if (c === 125) depth = Math.max(0, depth - 1);
        push(K.Punct, i, ++i, ch);
      }
    }
  }
  return out;
}

function isPunct(t: Tok | undefined, ...v: string[]): boolean {
  return t !== undefined && t.k === K.Punct && v.includes(t.v);
}

function isIdent(t: Tok | undefined, v?: string): boolean {
  return t !== undefined && t.k === K.Ident && (v === undefined || t.v === v);
}

/** Import attributes (`with { type: 'json' }`) longer than this are not attributes (a misread guard). */
const MAX_ATTRIBUTE_TOKENS = 200;

/** After a module specifier at `v`: the end of an optional `with { … }` / `assert { … }`. */
function attributesEnd(toks: Tok[], v: number): number {
  if ((isIdent(toks[v + 1], 'with') || isIdent(toks[v + 1], 'assert')) && isPunct(toks[v + 2], '{')) {
    for (let w = v + 3; w < toks.length && w < v + MAX_ATTRIBUTE_TOKENS; w++) if (isPunct(toks[w], '}')) return toks[w]!.e;
  }
  return toks[v]!.e;
}

/** `import x = require('m')` or `import x = A.B.C`, from the token after `=`. */
function importEqualsEnd(toks: Tok[], v: number): number | undefined {
  if (isIdent(toks[v], 'require') && isPunct(toks[v + 1], '(') && toks[v + 2]?.k === K.String && isPunct(toks[v + 3], ')')) return toks[v + 3]!.e;
  if (!isIdent(toks[v])) return undefined;
  while (isPunct(toks[v + 1], '.') && isIdent(toks[v + 2])) v += 2;
  return toks[v]!.e;
}

/** End of an import declaration whose clause starts at token `u` (after `import`), if it is one. */
function importEnd(toks: Tok[], u: number): number | undefined {
  let braces = 0;
  // Only names, `,`, `*`, braces and strings can come before the module specifier: anything else ends the search.
  for (let v = u; v < toks.length; v++) {
    const x = toks[v]!;
    if (x.k === K.String) {
      if (braces === 0) return attributesEnd(toks, v); // `import 'm'` or `… from 'm'`
    } else if (x.k === K.Punct) {
      if (x.v === '{') braces++;
      else if (x.v === '}') {
        if (--braces < 0) return undefined;
      } else if (x.v === '=' && braces === 0) return importEqualsEnd(toks, v + 1);
      else if (x.v !== ',' && x.v !== '*') return undefined;
    } else if (x.k !== K.Ident) return undefined;
  }
  return undefined;
}

/** End of `export { … } [from 'm']` or `export * [as n] from 'm'` from its `{` or `*` at `u`. */
function exportClauseEnd(toks: Tok[], u: number): number | undefined {
  let w = u + 1;
  if (isPunct(toks[u], '{')) {
    while (w < toks.length && (isIdent(toks[w]) || isPunct(toks[w], ',') || toks[w]!.k === K.String)) w++;
    if (!isPunct(toks[w], '}')) return undefined;
    return isIdent(toks[w + 1], 'from') && toks[w + 2]?.k === K.String ? attributesEnd(toks, w + 2) : toks[w]!.e;
  }
  if (isIdent(toks[w], 'as') && (isIdent(toks[w + 1]) || toks[w + 1]?.k === K.String)) w += 2;
  return isIdent(toks[w], 'from') && toks[w + 1]?.k === K.String ? attributesEnd(toks, w + 1) : undefined;
}

/**
 * [start, end) string indices of every import declaration, import-equals declaration and export
 * clause (`export {…}`, `export {…} from`, `export * from`) in `text`. Not `import(…)`,
 * `import.meta`, `export default`, `export =` or a member named `import`.
 */
export function importStatementSpans(text: string): [number, number][] {
  const toks = tokenize(text);
  const spans: [number, number][] = [];
  for (let t = 0; t < toks.length; t++) {
    const tok = toks[t]!;
    if (tok.k !== K.Ident || (tok.v !== 'import' && tok.v !== 'export')) continue;
    if (isPunct(toks[t - 1], '.')) continue; // obj.import
    let end: number | undefined;
    if (tok.v === 'import') {
      if (isPunct(toks[t + 1], '(', '.', ':', '?', ',', ')', ';', '=')) continue; // import(…), import.meta, { import: … }
      end = importEnd(toks, t + 1);
    } else {
      let u = t + 1;
      if (isIdent(toks[u], 'type') && isPunct(toks[u + 1], '{', '*')) u++;
      if (!isPunct(toks[u], '{', '*')) continue;
      end = exportClauseEnd(toks, u);
    }
    if (end !== undefined) spans.push([tok.s, end]);
  }
  return spans;
}

function insideAny(spans: [number, number][], offset: number): boolean {
  // Spans are in source order and do not overlap: binary search.
  let lo = 0;
  let hi = spans.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const [s, e] = spans[mid]!;
    if (offset < s) hi = mid - 1;
    else if (offset >= e) lo = mid + 1;
    else return true;
  }
  return false;
}

/** String index of an LSP position, through the line's own text (no whole-file walk per symbol). */
function offsetFinder(text: string, starts: number[], encoding: PositionEncoding): (p: Position) => number {
  return (p) => {
    const start = starts[p.line];
    if (start === undefined) return text.length;
    const next = starts[p.line + 1] ?? text.length;
    if (encoding === 'utf-16') return Math.min(next, start + p.character);
    return start + offsetAt(text.slice(start, next), { line: 0, character: p.character }, encoding);
  };
}

/** Symbols where an import can be: top level, and inside namespaces / modules (`declare module 'm'`). */
function importScopeSymbols(nodes: DocumentSymbol[], out: DocumentSymbol[] = []): DocumentSymbol[] {
  for (const n of nodes) {
    out.push(n);
    if ((n.kind === Lsp.Namespace || n.kind === Lsp.Module) && n.children?.length) importScopeSymbols(n.children, out);
  }
  return out;
}

/**
 * Could this name be an import binding, judging by its line alone? True after `import`, after
 * `export {` / `export *`, and at the start of a line or after `{` / `,` (a specifier of a list
 * spread over lines). False for `export const x`, `function f`, `class C`...: then the file is
 * not tokenized at all (typescript-language-server never lists import bindings).
 */
function mayBeImportBinding(text: string, start: number, lineStart: number): boolean {
  const before = text.slice(lineStart, start);
  return /\bimport\b/.test(before) || /\bexport\s*(?:type\s*)?[{*]/.test(before) || /(?:^|[{,])\s*(?:type\s+)?$/.test(before);
}

/**
 * The documentSymbol tree without the symbols named inside import declarations and export
 * clauses (with their children). Unchanged (same array) when there are none.
 */
export function withoutImportBindings(symbols: DocumentSymbol[], text: string, encoding: PositionEncoding): DocumentSymbol[] {
  if (symbols.length === 0) return symbols;
  const starts = lineStarts(text);
  const offsetOf = offsetFinder(text, starts, encoding);
  const suspects = importScopeSymbols(symbols).filter((n) => {
    const p = n.selectionRange.start;
    return mayBeImportBinding(text, offsetOf(p), starts[p.line] ?? text.length);
  });
  if (suspects.length === 0) return symbols;
  const spans = importStatementSpans(text);
  if (spans.length === 0) return symbols;
  const filter = (nodes: DocumentSymbol[]): DocumentSymbol[] => {
    let changed = false;
    const kept: DocumentSymbol[] = [];
    for (const node of nodes) {
      if (insideAny(spans, offsetOf(node.selectionRange.start))) {
        changed = true;
        continue;
      }
      const children = node.children?.length ? filter(node.children) : node.children;
      if (children !== node.children) changed = true;
      kept.push(children === node.children ? node : { ...node, children });
    }
    return changed ? kept : nodes;
  };
  return filter(symbols);
}
