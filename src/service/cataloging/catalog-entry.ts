/**
 * A file's documentSymbol tree (normalised by symbols.ts) → flat CatalogSymbols with stable ids
 * `path::Qualified.name#kind`: nesting kept in `qualified_name` and `parent`, byte offsets of the
 * real bytes, content hashes, and signature / summary / docstring read from the source.
 */
import type { DocumentSymbol } from 'vscode-languageserver-protocol';
import { docComment, firstSentence, isSignatureDetail, sourceSignature } from '../../adapters/doc-text.js';
import { languageProfile } from '../../adapters/languages.js';
import type { CatalogSymbol } from '../../core/catalog.js';
import type { SourceText } from '../../lsp/source-text.js';
import type { PositionEncoding } from '../../lsp/types.js';
import type { SymbolKind } from '../../schema/descriptors.js';
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
  const signature = input.signatureOf?.(node) ?? (isSignatureDetail(node.detail, name) ? node.detail.trim() : sourceSignature(source.lines, selLine, input.language));
  const profile = languageProfile(input.language);
  const docstring =
    profile?.declarations.bodyDocstring?.(source.lines, selLine, endLine) ??
    docComment(source.lines, node.range.start.line, selLine, { endLine, ...(profile?.comments.blockDoc ? { blockDoc: profile.comments.blockDoc } : {}), ...(profile?.comments.trailingDoc ? { trailing: true } : {}) });
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
