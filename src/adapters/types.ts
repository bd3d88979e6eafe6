/**
 * What differs per language server: turning documentSymbol + hover (+ source text) into the
 * descriptors (schema/descriptors.ts). The service does the LSP plumbing and symbol resolution; an adapter
 * only interprets. One adapter per servers.json `adapter` name; `generic` serves any other server.
 * What differs per language whatever the server (grammars, syntax queries, test conventions …) is
 * the language's profile (language-profile.ts); an adapter names the profiles it serves. New
 * per-language hooks of the servers (e.g. an identifier grammar for edits) are optional members
 * here, each with a default in the service, so an adapter that lacks one still works.
 */
import type { Diagnostic, DocumentSymbol, Position } from 'vscode-languageserver-protocol';

import type { Located } from '../core/location.js';
import type { LspSession, OpenDocument, PositionEncoding } from '../lsp/types.js';
import type { ClassDescriptor, FunctionDescriptor, SymbolDescriptor, SymbolKind } from '../schema/descriptors.js';
import type { FileStructure } from './file-structure.js';
import type { LanguageProfile } from './language-profile.js';

export interface FileContext {
  absPath: string;
  /** Workspace-relative, with `/`. */
  relPath: string;
  uri: string;
  /** LSP languageId of the file (typescriptreact, php, ...). */
  languageId: string;
  /** Descriptor language: typescript | javascript | go | python | php | <languageId>. */
  language: string;
  /** The text the server has (synced). */
  text: string;
  lines: string[];
  /** The file's documentSymbol answer, hierarchical (SymbolInformation[] answers are nested by range first). */
  symbols: DocumentSymbol[];
  session: LspSession;
  /** The workspace root (real absolute path). */
  root: string;
  /** Hover contents as plain markdown text at a position (cached per file version); undefined when none. */
  hover(pos: Position): Promise<string | undefined>;
  /** Another file's context (same workspace), e.g. Go methods declared in sibling files. */
  loadFile(absPath: string): Promise<FileContext>;
  /** A URI the server answered, on its real path: inside the workspace, external or refused (the service's one conversion). */
  locate(uri: string): Located;
  /**
   * The file's parse-tree structure (type headers with their bases, decorations), read on first
   * use and kept with the document's content; undefined when lspgate has no grammar for the file.
   */
  structure(): FileStructure | undefined;
}

export interface SymbolContext {
  file: FileContext;
  symbol: DocumentSymbol;
  /** Enclosing symbols, outermost first. */
  parents: DocumentSymbol[];
}

export interface PackageInfo {
  package?: string;
  namespace?: string;
}

/** What a server-environment hook gets: lspgate's private cache, the server's environment, a log line. */
export interface ServerEnvContext {
  cacheDir: string;
  /** The environment the server is started with (PATH holds the servers.json entry's extraPath). */
  env: NodeJS.ProcessEnv;
  log(message: string): void;
}

export interface LanguageAdapter {
  readonly name: string;
  /**
   * The languages this adapter serves, as profiles of the language registry (languages.ts): the
   * typescript adapter serves typescript and javascript. Empty for the generic adapter, which serves
   * whatever language its server names.
   */
  readonly languages: readonly LanguageProfile[];
  /** Descriptor language for an LSP languageId: the name of one of `languages` (or the id itself for the generic adapter). */
  language(languageId: string): string;
  /** Package / namespace of a file: Go package clause, Python dotted module, PHP namespace, TS module path. */
  packageOf(file: FileContext): PackageInfo;
  /**
   * The symbols of a normalised documentSymbol tree that declare something (default: all of them).
   * TypeScript 7's server also lists import bindings and export-clause specifiers.
   */
  declarations?(symbols: DocumentSymbol[], text: string, encoding: PositionEncoding): DocumentSymbol[];
  /** Exhaustive mapping of the server's SymbolKind (with language knowledge: Go struct vs type). */
  symbolKind(ctx: SymbolContext): SymbolKind;
  /** Cheap summary, no round trip beyond the documentSymbol already made. */
  symbolDescriptor(ctx: SymbolContext): SymbolDescriptor;
  /** Full type descriptor (fields, methods, relations...), may hover. */
  classDescriptor(ctx: SymbolContext): Promise<ClassDescriptor>;
  /** Full function/method descriptor (parameters, returns, modifiers...), may hover. */
  functionDescriptor(ctx: SymbolContext): Promise<FunctionDescriptor>;
  /** Whether the symbol is part of its package's public surface (list_package_exports). */
  isExported(ctx: SymbolContext): boolean;
  /**
   * Files (absolute) that make up the package/namespace the caller named, searched in the
   * workspace; undefined when the adapter cannot tell (the service then matches packageOf).
   */
  packageFiles?(root: string, name: string, candidates: string[]): Promise<string[] | undefined>;
  /**
   * How find_references tells writes from reads: 'highlight' (documentHighlight kinds, the default
   * when the server has documentHighlightProvider) or 'lexical' (assignment operators on the line)
   * for servers whose highlight kinds are wrong (typescript-language-server 5.3 maps tsserver's
   * writtenReference to Read).
   */
  readonly writeAccess?: 'highlight' | 'lexical';
  /**
   * Why `name` is not an identifier of the language (rename_symbol's new name), undefined when it is;
   * without one, adapters/identifier.ts's rule for any language applies.
   */
  newNameProblem?(name: string): string | undefined;
  /**
   * Diagnostics the server computes on request for the synced document, where it has such a
   * request besides its publishes (tsserver's own diagnostics requests through
   * typescript-language-server, answered once the project is loaded); undefined when the server
   * does not offer it or did not answer as that server does (its publishes are used then).
   * `problemsOnly`: the caller keeps errors and warnings only, so requests for hints alone may be left out.
   */
  requestDiagnostics?(session: LspSession, doc: OpenDocument, signal?: AbortSignal, opts?: { problemsOnly?: boolean }): Promise<Diagnostic[] | undefined>;
  /**
   * The files of the server's project that answers for `absPath` (absolute paths), where the
   * server can say (tsserver's projectInfo): a callers walk opens none of them and asks no
   * references for their call sites, since the call hierarchy already covers them. Undefined
   * when it cannot say: then every file spelling the name counts as possibly outside.
   */
  projectFiles?(session: LspSession, absPath: string, signal?: AbortSignal): Promise<ReadonlySet<string> | undefined>;
  /**
   * Environment variables added for a server started at `root`, read at each (re)start: what the
   * language's own tool needs to see a root's projects as one (go: a go.work for nested modules).
   */
  serverEnv?(root: string, ctx: ServerEnvContext): Promise<Record<string, string>>;
  /**
   * What a server's failed answer about `absPath` means, when the adapter can tell (the server's own
   * message names no cause a caller can act on); undefined leaves the error as it is.
   */
  explainFailure?(
    lspMessage: string,
    absPath: string,
    ctx: ServerEnvContext & { root: string },
  ): Promise<{ message: string; details: Record<string, unknown> } | undefined>;
}

/** A language folder's adapter module as the registry sees it: its exports, one of them the adapter. */
export type AdapterModule = Readonly<Record<string, unknown>>;

/** A server of the shipped servers.json as the registry lists it. */
export interface ShippedServer {
  readonly id: string;
  /** The adapter servers.json names (`generic` when it names none). */
  readonly adapter: string;
  readonly languages: readonly string[];
  /** Whether it runs unless a user's or workspace's servers.json says otherwise. */
  readonly enabled: boolean;
}
