/**
 * A declarations hook made of one tree-sitter query, for languages whose server lists each
 * declaration where it stands, nested as the source nests them (Java, C#, C++, Rust, Ruby, Bash,
 * CSS): each captured node is a symbol of its capture's kind (`@class`, `@method` …, predicate
 * operands `@_…`), named by the language's `nameOf` or its `name` field, spanning the node; symbols
 * nest by containment. Shared by the grammar-only profiles, each in its own folder.
 */
import type { DeclarationSyntax, SyntaxFileInfo, SyntaxSymbol } from './language-profile.js';
import type { SymbolKind } from '../schema/descriptors.js';
import type { SyntaxCapture, SyntaxNode } from '../syntax/syntax.js';

/** LSP SymbolKind and lspgate's kind of each capture name a query may use. */
export const CAPTURE_KINDS: ReadonlyMap<string, { lsp: number; kind: SymbolKind }> = new Map<string, { lsp: number; kind: SymbolKind }>([
  ['module', { lsp: 2, kind: 'module' }],
  ['namespace', { lsp: 3, kind: 'namespace' }],
  ['class', { lsp: 5, kind: 'class' }],
  ['method', { lsp: 6, kind: 'method' }],
  ['property', { lsp: 7, kind: 'property' }],
  ['field', { lsp: 8, kind: 'field' }],
  ['constructor', { lsp: 9, kind: 'constructor' }],
  ['enum', { lsp: 10, kind: 'enum' }],
  ['interface', { lsp: 11, kind: 'interface' }],
  ['function', { lsp: 12, kind: 'function' }],
  ['variable', { lsp: 13, kind: 'variable' }],
  ['constant', { lsp: 14, kind: 'constant' }],
  ['enum_member', { lsp: 22, kind: 'enum_member' }],
  ['struct', { lsp: 23, kind: 'struct' }],
  ['type', { lsp: 26, kind: 'type' }],
]);

export interface QueryDeclarations {
  query: string;
  /** The symbol's name and where it starts; undefined leaves the capture out. Default: the `name` field. */
  nameOf?(node: SyntaxNode, capture: string): { text: string; at: number } | undefined;
  /** The capture's kind when it depends on where the node stands (a function in a class is a method). */
  kindOf?(node: SyntaxNode, capture: string): string;
  packageOf?(file: SyntaxFileInfo, tree: SyntaxNode, text: string): { package?: string; namespace?: string };
}

function defaultName(node: SyntaxNode): { text: string; at: number } | undefined {
  const name = node.childForFieldName('name');
  return name ? { text: name.text, at: name.startIndex } : undefined;
}

/** Symbols nested by containment (a node inside another's range is its child). */
function nest(flat: SyntaxSymbol[]): SyntaxSymbol[] {
  const roots: SyntaxSymbol[] = [];
  const stack: SyntaxSymbol[] = [];
  for (const s of flat.sort((a, b) => a.start - b.start || b.end - a.end)) {
    while (stack.length && stack[stack.length - 1]!.end < s.end) stack.pop();
    const parent = stack[stack.length - 1];
    (parent ? parent.children : roots).push(s);
    stack.push(s);
  }
  return roots;
}

export function queryDeclarations(spec: QueryDeclarations): DeclarationSyntax {
  return {
    query: spec.query,
    read(_root: SyntaxNode, _text: string, captures: readonly SyntaxCapture[]): SyntaxSymbol[] {
      const flat: SyntaxSymbol[] = [];
      const seen = new Set<string>();
      for (const c of captures) {
        if (c.name.startsWith('_')) continue;
        const kindName = spec.kindOf?.(c.node, c.name) ?? c.name;
        const kind = CAPTURE_KINDS.get(kindName);
        const name = spec.nameOf ? spec.nameOf(c.node, c.name) : defaultName(c.node);
        // one symbol per node (two patterns may capture the same one)
        const key = `${c.node.startIndex}:${c.node.endIndex}:${kindName}`;
        if (!kind || !name || !name.text || seen.has(key)) continue;
        seen.add(key);
        flat.push({ name: name.text.replace(/\s+/g, ' '), lspKind: kind.lsp, kind: kind.kind, start: c.node.startIndex, end: c.node.endIndex, selection: name.at, children: [] });
      }
      return nest(flat);
    },
    ...(spec.packageOf ? { packageOf: spec.packageOf } : {}),
  };
}
