/**
 * A file's documentSymbol tree (normalised by symbols.ts) → flat CatalogSymbols with stable ids
 * `path::Qualified.name#kind`: nesting kept in `qualified_name` and `parent`, byte offsets of the
 * real bytes, content hashes, and signature / summary / docstring read from the source.
 */
import type { DocumentSymbol } from 'vscode-languageserver-protocol';

import { docComment, firstSentence, isSignatureDetail, lineFrom, readableLines, sourceSignature } from '../../adapters/doc-text.js';
import { languageProfile } from '../../adapters/languages.js';
import type { CatalogSymbol } from '../../core/catalog.js';
import { LspgateError } from '../../errors/errors.js';
import type { SourceText } from '../../lsp/source-text.js';
import type { PositionEncoding } from '../../lsp/types.js';
import type { SymbolKind } from '../../schema/descriptors.js';
import { MAX_SYNTAX_NESTING, tooDeeplyNested } from '../../syntax/syntax.js';
import { sha256 } from '../../util/hash.js';

export interface FlattenInput {
  file: string;
  language: string;
  server: string;
  encoding: PositionEncoding;
  source: SourceText;
  symbols: DocumentSymbol[];
  kindOf(symbol: DocumentSymbol, parents: DocumentSymbol[]): SymbolKind;
  /** A signature the syntax reader wrote for the symbol, used as given (no cut at the name's line). */
  signatureOf?(symbol: DocumentSymbol): string | undefined;
  package?: string;
  namespace?: string;
}

/** gopls names methods `(*Router).ServeHTTP` / `(Router).Len` at the top level. */
const GO_METHOD = /^\(\*?([\w.]+)(?:\[[^\]]*\])?\)\.(\w+)$/;

/**
 * LIMIT_EXCEEDED when declarations nest deeper than MAX_SYNTAX_NESTING (walked without recursion):
 * each symbol's qualified name and content hash cover its ancestors' text, so 100,000 nested
 * declarations would cost the square of the file's size; real code nests a few levels.
 */
export function checkSymbolDepth<T extends { children?: T[] | undefined }>(file: string, roots: readonly T[]): void {
  const stack: { node: T; depth: number }[] = roots.map((node) => ({ node, depth: 1 }));
  for (let top = stack.pop(); top; top = stack.pop()) {
    if (top.depth > MAX_SYNTAX_NESTING) {
      const e = tooDeeplyNested();
      throw new LspgateError(e.code, `${file}: ${e.message}`, { file, ...e.details }, { cause: e });
    }
    for (const child of top.node.children ?? []) stack.push({ node: child, depth: top.depth + 1 });
  }
}

interface Reading {
  /** The source lines cut to what the extraction reads (doc-text.ts readableLines). */
  lines: string[];
  seen: Map<string, number>;
}

export function flattenSymbols(input: FlattenInput): CatalogSymbol[] {
  checkSymbolDepth(input.file, input.symbols);
  const out: CatalogSymbol[] = [];
  const reading: Reading = { lines: readableLines(input.source.lines), seen: new Map() };
  // Pre-order with an explicit stack (no recursion): each frame is one level's list and the next index in it.
  const frames: { nodes: DocumentSymbol[]; next: number; parent: CatalogSymbol | undefined }[] = [{ nodes: input.symbols, next: 0, parent: undefined }];
  const parents: DocumentSymbol[] = [];
  while (frames.length) {
    const frame = frames[frames.length - 1]!;
    const node = frame.nodes[frame.next++];
    if (!node) {
      frames.pop();
      parents.pop();
      continue;
    }
    const sym = toCatalogSymbol(input, reading, node, parents.slice(), frame.parent);
    out.push(sym);
    if (node.children?.length) {
      parents.push(node);
      frames.push({ nodes: node.children, next: 0, parent: sym });
    }
  }
  return out;
}

function toCatalogSymbol(
  input: FlattenInput,
  reading: Reading,
  node: DocumentSymbol,
  parents: DocumentSymbol[],
  parent: CatalogSymbol | undefined,
): CatalogSymbol {
  const { seen, lines } = reading;
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
  // on a line longer than the extraction reads, the signature starts where the declaration does
  const from = node.range.start.line === selLine ? node.range.start : node.selectionRange.start;
  const ownEnd = node.range.end.line === selLine ? source.column(node.range.end, encoding) - 1 : undefined;
  const first = lineFrom(source.lines[selLine] ?? '', source.column(from, encoding) - 1, ownEnd);
  const signature =
    input.signatureOf?.(node) ?? (isSignatureDetail(node.detail, name) ? node.detail.trim() : sourceSignature(lines, selLine, input.language, first));
  const profile = languageProfile(input.language);
  const docstring =
    profile?.declarations.bodyDocstring?.(lines, selLine, endLine) ??
    docComment(lines, node.range.start.line, selLine, {
      endLine,
      ...(profile?.comments.blockDoc ? { blockDoc: profile.comments.blockDoc } : {}),
      ...(profile?.comments.trailingDoc ? { trailing: true } : {}),
    });
  // built in the key order of the catalog's JSON, optional keys in their places (no spread objects per symbol)
  const sym = {
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
  } as CatalogSymbol;
  if (docstring) sym.docstring = docstring;
  if (parent) sym.parent = parent.symbol_id;
  if (input.package) sym.package = input.package;
  if (input.namespace) sym.namespace = input.namespace;
  sym.line = node.range.start.line + 1;
  sym.end_line = endLine + 1;
  sym.selection_line = selLine + 1;
  sym.selection_column = source.column(node.selectionRange.start, encoding);
  sym.byte_offset = start;
  sym.byte_length = end - start;
  sym.content_hash = sha256(source.bytes.subarray(start, end));
  return sym;
}
