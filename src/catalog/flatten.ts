/**
 * documentSymbol answers → flat CatalogSymbols with stable ids. Hierarchical answers keep their
 * nesting in `qualified_name` and `parent`; flat SymbolInformation[] answers are nested by range
 * containment first (containerName is only a hint, and servers disagree on it).
 */
import { createHash } from 'node:crypto';
import type { DocumentSymbol, Range, SymbolInformation } from 'vscode-languageserver-protocol';
import type { PositionEncoding } from '../lsp/types.js';
import type { SymbolKind } from '../schema/descriptors.js';
import { docComment, firstSentence, isSignatureDetail, pythonDocstring, sourceSignature } from './doc-text.js';
import type { SourceText } from './source-text.js';
import type { CatalogSymbol } from './types.js';

export function isSymbolInformation(s: DocumentSymbol | SymbolInformation): s is SymbolInformation {
  return 'location' in s && !('selectionRange' in s);
}

/** Either answer shape as a DocumentSymbol tree sorted in source order. */
export function toDocumentSymbols(answer: (DocumentSymbol | SymbolInformation)[] | null | undefined, source?: SourceText): DocumentSymbol[] {
  if (!answer || answer.length === 0) return [];
  if (!answer.every(isSymbolInformation)) return sortTree(answer as DocumentSymbol[]);
  return nestByRange(answer, source);
}

function nestByRange(infos: SymbolInformation[], source?: SourceText): DocumentSymbol[] {
  const items = infos
    .map((si) => ({ name: si.name, kind: si.kind, range: si.location.range, selectionRange: nameRange(si, source), children: [] as DocumentSymbol[] }))
    .sort((a, b) => cmpPos(a.range.start, b.range.start) || cmpPos(b.range.end, a.range.end));
  const roots: DocumentSymbol[] = [];
  const stack: DocumentSymbol[] = [];
  for (const item of items) {
    while (stack.length && !contains(stack[stack.length - 1]!.range, item.range)) stack.pop();
    (stack.length ? stack[stack.length - 1]!.children! : roots).push(item);
    stack.push(item);
  }
  return roots;
}

/** SymbolInformation has no selectionRange: find the name inside the range, else use the start. */
function nameRange(si: SymbolInformation, source?: SourceText): Range {
  const r = si.location.range;
  if (source) {
    for (let l = r.start.line; l <= r.end.line && l < r.start.line + 50; l++) {
      const line = source.lines[l] ?? '';
      const from = l === r.start.line ? r.start.character : 0;
      const at = line.indexOf(si.name, from);
      if (at >= 0) return { start: { line: l, character: at }, end: { line: l, character: at + si.name.length } };
    }
  }
  return { start: r.start, end: r.start };
}

function sortTree(nodes: DocumentSymbol[]): DocumentSymbol[] {
  return [...nodes]
    .sort((a, b) => cmpPos(a.range.start, b.range.start))
    .map((n) => (n.children?.length ? { ...n, children: sortTree(n.children) } : n));
}

function cmpPos(a: { line: number; character: number }, b: { line: number; character: number }): number {
  return a.line - b.line || a.character - b.character;
}

function contains(outer: Range, inner: Range): boolean {
  return cmpPos(outer.start, inner.start) <= 0 && cmpPos(inner.end, outer.end) <= 0;
}

export interface FlattenInput {
  file: string;
  language: string;
  server: string;
  encoding: PositionEncoding;
  source: SourceText;
  symbols: DocumentSymbol[];
  kindOf(symbol: DocumentSymbol, parents: DocumentSymbol[]): SymbolKind;
  package?: string;
  namespace?: string;
}

/** gopls names methods `(*Router).ServeHTTP` / `(Router).Len` at the top level. */
const GO_METHOD = /^\(\*?([\w.]+)(?:\[[^\]]*\])?\)\.(\w+)$/;

export function flattenSymbols(input: FlattenInput): CatalogSymbol[] {
  const out: CatalogSymbol[] = [];
  const seen = new Map<string, number>();
  const visit = (nodes: DocumentSymbol[], parents: DocumentSymbol[], parent: CatalogSymbol | undefined) => {
    for (const node of nodes) {
      const sym = toCatalogSymbol(input, node, parents, parent, seen);
      out.push(sym);
      if (node.children?.length) visit(node.children, [...parents, node], sym);
    }
  };
  visit(input.symbols, [], undefined);
  return out;
}

function toCatalogSymbol(
  input: FlattenInput,
  node: DocumentSymbol,
  parents: DocumentSymbol[],
  parent: CatalogSymbol | undefined,
  seen: Map<string, number>,
): CatalogSymbol {
  const { source, encoding } = input;
  const go = GO_METHOD.exec(node.name);
  const name = go ? go[2]! : node.name;
  const qualified = go && !parent ? `${go[1]}.${name}` : parent ? `${parent.qualified_name}.${name}` : name;
  const kind = input.kindOf(node, parents);
  const base = `${input.file}::${qualified}#${kind}`;
  const n = (seen.get(base) ?? 0) + 1;
  seen.set(base, n);
  const start = source.byteOffset(node.range.start, encoding);
  const end = Math.max(start, source.byteOffset(node.range.end, encoding));
  const selLine = node.selectionRange.start.line;
  const endLine = node.range.end.character === 0 && node.range.end.line > node.range.start.line ? node.range.end.line - 1 : node.range.end.line;
  const signature = isSignatureDetail(node.detail, name) ? node.detail.trim() : sourceSignature(source.lines, selLine, input.language);
  const docstring =
    (input.language === 'python' ? pythonDocstring(source.lines, selLine, endLine) : undefined) ??
    docComment(source.lines, node.range.start.line, selLine);
  return {
    symbol_id: n === 1 ? base : `${base}~${n}`,
    file: input.file,
    name,
    qualified_name: qualified,
    kind,
    lsp_kind: node.kind,
    language: input.language,
    server: input.server,
    signature,
    summary: docstring ? firstSentence(docstring) : signature,
    ...(docstring ? { docstring } : {}),
    ...(parent ? { parent: parent.symbol_id } : {}),
    ...(input.package ? { package: input.package } : {}),
    ...(input.namespace ? { namespace: input.namespace } : {}),
    line: node.range.start.line + 1,
    end_line: endLine + 1,
    selection_line: selLine + 1,
    selection_column: source.column(node.selectionRange.start, encoding),
    byte_offset: start,
    byte_length: end - start,
    content_hash: sha256(source.bytes.subarray(start, end)),
  };
}

export function sha256(data: Buffer | string): string {
  return createHash('sha256').update(data).digest('hex');
}
