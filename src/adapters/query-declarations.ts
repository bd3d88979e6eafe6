/**
 * A declarations hook made of one tree-sitter query, for languages whose server lists each
 * declaration where it stands, nested as the source nests them (most grammar-only languages):
 * each captured node is a symbol of its capture's kind (`@class`, `@method` …, predicate
 * operands `@_…`), named by the language's `nameOf` or its `name` field, spanning the node; symbols
 * nest by containment. Shared by the grammar-only profiles, each in its own folder.
 */
import { LspSymbolKind } from '../schema/convert/lsp-symbol-kind.js';
import type { SymbolKind } from '../schema/descriptors.js';
import { compiledQuery, parseLoaded, type SyntaxCapture, type SyntaxNode } from '../syntax/syntax.js';
import { declaredSignature } from './declared-signature.js';
import type { DeclarationSyntax, SyntaxFileInfo, SyntaxSymbol } from './language-profile.js';
import { collapsed } from './structure-forms.js';

/** LSP SymbolKind and lspgate's kind of each capture name a query may use. */
export const CAPTURE_KINDS: ReadonlyMap<string, { lsp: number; kind: SymbolKind }> = new Map<string, { lsp: number; kind: SymbolKind }>([
  ['module', { lsp: LspSymbolKind.Module, kind: 'module' }],
  ['namespace', { lsp: LspSymbolKind.Namespace, kind: 'namespace' }],
  ['class', { lsp: LspSymbolKind.Class, kind: 'class' }],
  ['method', { lsp: LspSymbolKind.Method, kind: 'method' }],
  ['property', { lsp: LspSymbolKind.Property, kind: 'property' }],
  ['field', { lsp: LspSymbolKind.Field, kind: 'field' }],
  ['constructor', { lsp: LspSymbolKind.Constructor, kind: 'constructor' }],
  ['enum', { lsp: LspSymbolKind.Enum, kind: 'enum' }],
  ['interface', { lsp: LspSymbolKind.Interface, kind: 'interface' }],
  ['function', { lsp: LspSymbolKind.Function, kind: 'function' }],
  ['variable', { lsp: LspSymbolKind.Variable, kind: 'variable' }],
  ['constant', { lsp: LspSymbolKind.Constant, kind: 'constant' }],
  ['enum_member', { lsp: LspSymbolKind.EnumMember, kind: 'enum_member' }],
  ['struct', { lsp: LspSymbolKind.Struct, kind: 'struct' }],
  ['type', { lsp: LspSymbolKind.TypeParameter, kind: 'type' }],
]);

/** A symbol's name and where it starts. */
export interface DeclaredName {
  text: string;
  at: number;
  /**
   * A name the profile built from nodes it checked, which the language's server gives as it is
   * (Rust's `impl Trait for Type`, a CSS selector, C++'s `operator()`): not held to the identifier rule.
   */
  composite?: boolean;
  /**
   * The symbol's range when it is not the captured node's: a declaration error recovery left as loose
   * tokens of an ERROR node (a shell function's `name ( ) {` … `}`), captured by its name.
   */
  span?: readonly [number, number];
}

/**
 * Spans of a text to read as blank, found in its tree: what a preprocessor would have removed
 * (C++ export, visibility and namespace macros the grammar cannot know), so the text parses again
 * around them.
 */
export interface TextRepair {
  /** The grammar the profile parses with (the repaired text is parsed again with it). */
  readonly grammar: string;
  spans(root: SyntaxNode): Array<readonly [number, number]>;
}

export interface QueryDeclarations {
  query: string;
  /**
   * The symbol's name and where it starts; undefined leaves the capture out; several names make one
   * symbol each over the same node (a CSS rule under each selector of its list). Default: the `name` field.
   */
  nameOf?(node: SyntaxNode, capture: string): DeclaredName | readonly DeclaredName[] | undefined;
  /** The capture's kind when it depends on where the node stands (a function in a class is a method). */
  kindOf?(node: SyntaxNode, capture: string): string;
  packageOf?(file: SyntaxFileInfo, tree: SyntaxNode, text: string): { package?: string; namespace?: string };
  /** Words of the language that never name a declaration (C++ `explicit`, read as a type by error recovery). */
  keywords?: ReadonlySet<string>;
  repair?: TextRepair;
  /** Captures beside the query's, found by a walk of the tree (a shell header error recovery left in pieces), named by `nameOf`. */
  moreCaptures?(root: SyntaxNode): readonly SyntaxCapture[];
}

/** Rounds of repair at most: each one blanks what the previous parse showed, a few settle any header. */
const REPAIR_ROUNDS = 6;

/** Characters no identifier of the grammar-only languages holds: a name holding one is a piece of source, not a name. */
const NOT_IN_A_NAME = new Set([' ', '\t', '\n', '\r', '\f', '\v', '{', '}', ';', '(', ')', ',', '"', "'", '`']);

/**
 * Whether a name read from a tree is an identifier: a symbol whose "name" is a span of source
 * (error recovery made a class body, or a return type and a name, into one node) is never emitted.
 */
export function isIdentifierName(name: DeclaredName, keywords?: ReadonlySet<string>): boolean {
  if (!name.text || keywords?.has(name.text)) return false;
  if (name.composite) return true;
  for (const ch of name.text) if (NOT_IN_A_NAME.has(ch) || ch.charCodeAt(0) < 0x20) return false;
  return true;
}

function defaultName(node: SyntaxNode): DeclaredName | undefined {
  const name = node.childForFieldName('name');
  return name ? { text: name.text, at: name.startIndex } : undefined;
}

/** Symbols nested by containment (a node inside another's range is its child; symbols of one node are siblings). */
function nest(flat: SyntaxSymbol[]): SyntaxSymbol[] {
  const roots: SyntaxSymbol[] = [];
  const stack: SyntaxSymbol[] = [];
  for (const s of flat.sort((a, b) => a.start - b.start || b.end - a.end || a.selection - b.selection)) {
    const same = (t: SyntaxSymbol) => t.start === s.start && t.end === s.end;
    while (stack.length && (stack[stack.length - 1]!.end < s.end || same(stack[stack.length - 1]!))) stack.pop();
    const parent = stack[stack.length - 1];
    (parent ? parent.children : roots).push(s);
    stack.push(s);
  }
  return roots;
}

/** The text with each span as spaces, line breaks kept: every index and line stays where it was. */
function blanked(text: string, spans: ReadonlyArray<readonly [number, number]>): string {
  const chars = text.split('');
  for (const [a, b] of spans) for (let i = a; i < b && i < chars.length; i++) if (chars[i] !== '\n' && chars[i] !== '\r') chars[i] = ' ';
  return chars.join('');
}

export function queryDeclarations(spec: QueryDeclarations): DeclarationSyntax {
  const symbolsOf = (captures: readonly SyntaxCapture[], text: string): SyntaxSymbol[] => {
    const flat: SyntaxSymbol[] = [];
    const seen = new Set<string>();
    for (const c of captures) {
      if (c.name.startsWith('_')) continue;
      const kindName = spec.kindOf?.(c.node, c.name) ?? c.name;
      const kind = CAPTURE_KINDS.get(kindName);
      const named = spec.nameOf ? spec.nameOf(c.node, c.name) : defaultName(c.node);
      if (!kind || !named) continue;
      for (const name of Array.isArray(named) ? (named as readonly DeclaredName[]) : [named as DeclaredName]) {
        // one symbol per node and name (two patterns may capture the same node)
        const [start, end] = name.span ?? [c.node.startIndex, c.node.endIndex];
        const key = `${start}:${end}:${kindName}:${name.at}`;
        if (!isIdentifierName(name, spec.keywords) || seen.has(key)) continue;
        seen.add(key);
        const symbol: SyntaxSymbol = {
          name: collapsed(name.text),
          lspKind: kind.lsp,
          kind: kind.kind,
          start,
          end,
          selection: name.at,
          children: [],
        };
        const signature = declaredSignature(c.node, name.at, text);
        if (signature !== undefined) symbol.signature = signature;
        flat.push(symbol);
      }
    }
    return nest(flat);
  };
  const withMore = (root: SyntaxNode, captures: readonly SyntaxCapture[]): readonly SyntaxCapture[] =>
    spec.moreCaptures ? [...captures, ...spec.moreCaptures(root)] : captures;
  /** The symbols of a text re-parsed with its macro-like spans blank, round after round while a parse shows more. */
  const repaired = (repair: TextRepair, root: SyntaxNode, text: string, captures: readonly SyntaxCapture[]): SyntaxSymbol[] => {
    const query = compiledQuery(repair.grammar, spec.query);
    let spans = repair.spans(root);
    let current = text;
    let symbols: SyntaxSymbol[] | undefined;
    for (let round = 0; round < REPAIR_ROUNDS && spans.length > 0 && query; round++) {
      current = blanked(current, spans);
      // signatures read the text as written (the macros the parse needed blank are part of them)
      const next = parseLoaded(repair.grammar, current, (r) => ({ symbols: symbolsOf(withMore(r, query.captures(r)), text), spans: repair.spans(r) }));
      if (!next) break;
      symbols = next.symbols;
      spans = next.spans;
    }
    return symbols ?? symbolsOf(withMore(root, captures), text);
  };
  return {
    query: spec.query,
    read(root: SyntaxNode, text: string, captures: readonly SyntaxCapture[]): SyntaxSymbol[] {
      return spec.repair ? repaired(spec.repair, root, text, captures) : symbolsOf(withMore(root, captures), text);
    },
    ...(spec.packageOf ? { packageOf: spec.packageOf } : {}),
  };
}
