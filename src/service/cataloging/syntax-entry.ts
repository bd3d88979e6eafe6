/**
 * The syntax cataloger's work for one file: its bytes parsed with tree-sitter and read by its
 * language profile's declarations hook (what the language's server lists in documentSymbol), then
 * flattened exactly as the server cataloger flattens a documentSymbol answer (catalog-entry.ts):
 * the same ids `path::Qualified.name#kind`, byte offsets of the real bytes, content hashes,
 * signatures and docstrings. Pure: bytes in, entry out; it runs in the syntax workers and, for one
 * changed file, in the process itself.
 */
import type { DocumentSymbol } from 'vscode-languageserver-protocol';
import type { SyntaxSymbol } from '../../adapters/language-profile.js';
import { syntaxOf } from '../../adapters/languages.js';
import type { FileEntry } from '../../core/catalog.js';
import { SourceText } from '../../lsp/source-text.js';
import type { SymbolKind } from '../../schema/descriptors.js';
import { withSyntaxTree } from '../../syntax/syntax.js';
import { sha256 } from '../../util/hash.js';
import { decodeUtf8 } from '../../util/utf8-text.js';
import { flattenSymbols } from './catalog-entry.js';

/** `CatalogSymbol.server` / `FileEntry.server` of what the syntax tier cataloged. */
export const SYNTAX_SERVER = 'tree-sitter';

export interface SyntaxFile {
  rel: string;
  abs: string;
  /** The workspace root (real path). */
  root: string;
  bytes: Buffer;
  size: number;
  mtimeMs: number;
}

/** Whether lspgate can catalog a file from syntax (a grammar and a declarations hook for its extension). */
export function hasSyntaxTier(rel: string): boolean {
  return syntaxOf(rel)?.profile.syntax.declarations !== undefined;
}

/** The file's catalog entry from its syntax tree; undefined when its language has no declarations hook. */
export async function syntaxEntry(file: SyntaxFile): Promise<FileEntry | undefined> {
  // a script without an extension is parsed by the interpreter its first line names
  const syntax = syntaxOf(file.rel, file.bytes);
  const hook = syntax?.profile.syntax.declarations;
  if (!syntax || !hook) return undefined;
  decodeUtf8(file.bytes, file.rel);
  const source = new SourceText(file.bytes);
  const text = source.text;
  const { symbols, pkg } = await withSyntaxTree(
    syntax.grammar,
    text,
    (root, query) => ({ symbols: hook.read(root, text, query ? query.captures(root) : []), pkg: hook.packageOf?.({ relPath: file.rel, absPath: file.abs, workspaceRoot: file.root }, root, text) ?? {} }),
    hook.query,
  );
  const kinds = new Map<DocumentSymbol, SymbolKind>();
  const signatures = new Map<DocumentSymbol, string>();
  const at = positionFinder(text);
  const toDocumentSymbol = (s: SyntaxSymbol): DocumentSymbol => {
    const d: DocumentSymbol = {
      name: s.name,
      kind: s.lspKind as DocumentSymbol['kind'],
      range: { start: at(s.start), end: at(s.end) },
      selectionRange: { start: at(s.selection), end: at(s.selection) },
      children: s.children.map(toDocumentSymbol),
    };
    kinds.set(d, s.kind);
    if (s.signature !== undefined) signatures.set(d, s.signature);
    return d;
  };
  return {
    hash: sha256(file.bytes),
    size: file.size,
    mtimeMs: file.mtimeMs,
    language: syntax.profile.name,
    server: SYNTAX_SERVER,
    tier: 'syntax',
    symbols: flattenSymbols({
      file: file.rel,
      language: syntax.profile.name,
      server: SYNTAX_SERVER,
      encoding: 'utf-16',
      source,
      symbols: symbols.map(toDocumentSymbol),
      kindOf: (s) => kinds.get(s)!,
      signatureOf: (s) => signatures.get(s),
      ...(pkg.package ? { package: pkg.package } : {}),
      ...(pkg.namespace ? { namespace: pkg.namespace } : {}),
    }),
  };
}

/** LSP position (UTF-16, lines ended by \n, \r\n or \r as SourceText splits them) of a string index. */
function positionFinder(text: string): (index: number) => { line: number; character: number } {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) starts.push(i + 1);
  }
  return (index) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= index) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo, character: index - starts[lo]! };
  };
}
