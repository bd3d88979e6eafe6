/**
 * The syntax cataloger's work for one file: its bytes parsed with tree-sitter and read by its
 * language profile's declarations hook (what the language's server lists in documentSymbol), then
 * flattened exactly as the server cataloger flattens a documentSymbol answer (catalog-entry.ts):
 * the same ids `path::Qualified.name#kind`, byte offsets of the real bytes, content hashes,
 * signatures and docstrings. Pure: bytes in, entry out; it runs in the syntax workers only
 * (syntax-pool.ts), where a deadline and a heap cap bound it.
 */
import type { DocumentSymbol } from 'vscode-languageserver-protocol';

import type { SyntaxSymbol } from '../../adapters/language-profile.js';
import { syntaxOf } from '../../adapters/languages.js';
import type { FileEntry } from '../../core/catalog.js';
import { SourceText } from '../../lsp/source-text.js';
import type { SymbolKind } from '../../schema/descriptors.js';
import { loadGrammar } from '../../syntax/runtime.js';
import { compileQuery, WHOLE_FILE_QUERY, withSyntaxTree } from '../../syntax/syntax.js';
import { sha256 } from '../../util/hash.js';
import { decodeUtf8 } from '../../util/utf8-text.js';
import { checkSymbolDepth, flattenSymbols } from './catalog-entry.js';

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

/** Loads the runtime, the file's grammar and its declarations query (fixed work, whatever the file holds). */
export async function prepareSyntax(rel: string): Promise<void> {
  const syntax = syntaxOf(rel);
  const hook = syntax?.profile.syntax.declarations;
  if (!syntax || !hook) return;
  await loadGrammar(syntax.grammar);
  if (hook.query !== undefined) await compileQuery(syntax.grammar, hook.query);
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
    (root, query) => ({
      symbols: hook.read(root, text, query ? query.captures(root, WHOLE_FILE_QUERY) : []),
      pkg: hook.packageOf?.({ relPath: file.rel, absPath: file.abs, workspaceRoot: file.root }, root, text) ?? {},
    }),
    hook.query,
  );
  checkSymbolDepth(file.rel, symbols);
  const { roots, kinds, signatures } = toDocumentSymbols(symbols, text);
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
      symbols: roots,
      kindOf: (s) => kinds.get(s)!,
      signatureOf: (s) => signatures.get(s),
      ...(pkg.package ? { package: pkg.package } : {}),
      ...(pkg.namespace ? { namespace: pkg.namespace } : {}),
    }),
  };
}

/** The syntax symbols as a DocumentSymbol tree (without recursion, children in their order), with each one's kind and signature. */
function toDocumentSymbols(symbols: SyntaxSymbol[], text: string) {
  const kinds = new Map<DocumentSymbol, SymbolKind>();
  const signatures = new Map<DocumentSymbol, string>();
  const at = positionFinder(text);
  const toDocumentSymbol = (s: SyntaxSymbol): DocumentSymbol => {
    const d: DocumentSymbol = {
      name: s.name,
      kind: s.lspKind as DocumentSymbol['kind'],
      range: { start: at(s.start), end: at(s.end) },
      selectionRange: { start: at(s.selection), end: at(s.selection) },
      children: [],
    };
    kinds.set(d, s.kind);
    if (s.signature !== undefined) signatures.set(d, s.signature);
    return d;
  };
  // converted without recursion, children in their order
  const roots = symbols.map(toDocumentSymbol);
  const pending = symbols.map((s, i) => ({ s, d: roots[i]! }));
  for (let p = pending.pop(); p; p = pending.pop()) {
    for (const child of p.s.children) {
      const d = toDocumentSymbol(child);
      p.d.children!.push(d);
      pending.push({ s: child, d });
    }
  }
  return { roots, kinds, signatures };
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
