/**
 * The catalog asks the language adapter (src/adapters) for the descriptor language, symbol kinds
 * (Go struct vs type...) and a file's package/namespace, so catalog ids and kinds agree with the
 * descriptors the service builds. TypeScript servers differ in what they list (import bindings)
 * and how they kind consts: both are evened out here so a catalog does not depend on which TS
 * server built it.
 */
import type { DocumentSymbol } from 'vscode-languageserver-protocol';
import { HoverRequest, MarkupContent } from 'vscode-languageserver-protocol';
import type { FileContext, LanguageAdapter, PackageInfo } from '../adapters/types.js';
import { adapterFor } from '../adapters/index.js';
import { withoutImportBindings } from '../adapters/typescript-imports.js';
import { tsKindAsTsserver } from '../adapters/typescript-kinds.js';
import type { PositionEncoding } from '../lsp/types.js';
import type { Workspace } from '../gateway/types.js';
import type { LspSession } from '../lsp/types.js';
import type { SymbolKind } from '../schema/descriptors.js';
import type { Logger } from '../util/logger.js';
import { fromLspSymbolKind } from '../schema/convert/lsp-kind.js';

export interface FileInterpretation {
  language: string;
  pkg: PackageInfo;
  kindOf(symbol: DocumentSymbol, parents: DocumentSymbol[]): SymbolKind;
}

/**
 * Only the symbols that declare something: for the TypeScript adapter (typescript-language-server
 * and TypeScript 7's `tsc --lsp`), not the import bindings and export-clause specifiers tsgo lists.
 */
export function declarationsOnly(adapterName: string | undefined, symbols: DocumentSymbol[], text: string, encoding: PositionEncoding): DocumentSymbol[] {
  return adapterName === 'typescript' ? withoutImportBindings(symbols, text, encoding) : symbols;
}

/** Language, package and kind mapping for one file, from its adapter when there is one. */
export async function interpretFile(
  args: { absPath: string; relPath: string; uri: string; languageId: string; adapterName: string; text: string; lines: string[]; symbols: DocumentSymbol[]; session: LspSession; workspace: Workspace },
  logger: Logger,
): Promise<FileInterpretation> {
  const adapter = adapterFor(args.adapterName);
  const language = adapter.language(args.languageId);
  const file: FileContext = {
    absPath: args.absPath,
    relPath: args.relPath,
    uri: args.uri,
    languageId: args.languageId,
    language,
    text: args.text,
    lines: args.lines,
    symbols: args.symbols,
    session: args.session,
    workspace: args.workspace,
    hover: async (pos) => {
      const h = await args.session.request(HoverRequest.type, { textDocument: { uri: args.uri }, position: pos });
      if (!h) return undefined;
      const c = h.contents;
      if (MarkupContent.is(c)) return c.value;
      const parts = Array.isArray(c) ? c : [c];
      return parts.map((p) => (typeof p === 'string' ? p : p.value)).join('\n\n');
    },
    loadFile: () => Promise.reject(new Error('loadFile is not available while cataloging')),
  };
  let pkg: PackageInfo = {};
  try {
    pkg = adapter.packageOf(file);
  } catch (e) {
    logger.warn(`adapter ${adapter.name} packageOf failed on ${args.relPath}`, e);
  }
  return {
    language,
    pkg,
    kindOf: (symbol, parents) => {
      try {
        const kind = adapter.symbolKind({ file, symbol, parents });
        // tsserver and tsgo kind consts and type aliases differently: the same id whichever answered.
        return adapter.name === 'typescript' ? tsKindAsTsserver(kind, args.lines, symbol) : kind;
      } catch (e) {
        logger.warn(`adapter ${adapter.name} symbolKind failed on ${args.relPath}`, e);
        return fromLspSymbolKind(symbol.kind);
      }
    },
  };
}
