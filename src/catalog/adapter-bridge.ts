/**
 * The catalog asks the language adapter (src/adapters, written alongside) for symbol kinds and a
 * file's package. The adapter registry is loaded lazily and by a computed specifier so the catalog
 * keeps working (LSP kinds, no package) in a tree where the registry does not exist yet.
 */
import type { DocumentSymbol } from 'vscode-languageserver-protocol';
import { HoverRequest, MarkupContent } from 'vscode-languageserver-protocol';
import type { FileContext, LanguageAdapter, PackageInfo } from '../adapters/types.js';
import type { Workspace } from '../gateway/types.js';
import type { LspSession } from '../lsp/types.js';
import type { SymbolKind } from '../schema/descriptors.js';
import type { Logger } from '../util/logger.js';
import { fromLspSymbolKind, languageOf } from './lsp-kind.js';

interface AdapterRegistry {
  adapterFor(name: string): LanguageAdapter | undefined;
}

let registry: Promise<AdapterRegistry | undefined> | undefined;

export function loadAdapterRegistry(): Promise<AdapterRegistry | undefined> {
  const spec = '../adapters/index.js';
  registry ??= (import(spec) as Promise<Partial<AdapterRegistry>>).then(
    (m) => (typeof m.adapterFor === 'function' ? (m as AdapterRegistry) : undefined),
    (e: NodeJS.ErrnoException) => {
      if (e?.code === 'ERR_MODULE_NOT_FOUND' || /Failed to load url|Cannot find module/.test(String(e?.message))) return undefined;
      throw e;
    },
  );
  return registry;
}

export interface FileInterpretation {
  language: string;
  pkg: PackageInfo;
  kindOf(symbol: DocumentSymbol, parents: DocumentSymbol[]): SymbolKind;
}

/** Language, package and kind mapping for one file, from its adapter when there is one. */
export async function interpretFile(
  args: { absPath: string; relPath: string; uri: string; languageId: string; adapterName: string; text: string; lines: string[]; symbols: DocumentSymbol[]; session: LspSession; workspace: Workspace },
  logger: Logger,
): Promise<FileInterpretation> {
  const adapter = (await loadAdapterRegistry())?.adapterFor(args.adapterName);
  if (!adapter) return { language: languageOf(args.languageId), pkg: {}, kindOf: (s) => fromLspSymbolKind(s.kind) };
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
        return adapter.symbolKind({ file, symbol, parents });
      } catch (e) {
        logger.warn(`adapter ${adapter.name} symbolKind failed on ${args.relPath}`, e);
        return fromLspSymbolKind(symbol.kind);
      }
    },
  };
}
