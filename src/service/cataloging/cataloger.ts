/**
 * The service's cataloger: one file → one catalog FileEntry. A file whose language has a grammar
 * is cataloged from its parse tree (syntax-cataloger.ts, on the worker pool); a file of a language
 * with a server and no grammar through the same FileContext pipeline the operations use
 * (file-context.ts), so its catalog symbols, ids and kinds are the ones the descriptors see. The
 * catalog (src/catalog) only indexes and stores the entries. Bulk server cataloging is bounded per
 * server (limits.perServerConcurrency).
 */
import type { DocumentSymbol } from 'vscode-languageserver-protocol';

import { adapterFor } from '../../adapters/index.js';
import { projectManifests } from '../../adapters/languages.js';
import type { FileContext, LanguageAdapter, PackageInfo } from '../../adapters/types.js';
import { readGated } from '../../catalog/file-gate.js';
import type { CatalogSymbol, FileCataloger, FileContent, FileEntry } from '../../core/catalog.js';
import { LspgateError } from '../../errors/errors.js';
import { SourceText } from '../../lsp/source-text.js';
import type { LspSession } from '../../lsp/types.js';
import { fromLspSymbolKind } from '../../schema/convert/lsp-kind.js';
import type { SymbolKind } from '../../schema/descriptors.js';
import { sha256 } from '../../util/hash.js';
import type { Logger } from '../../util/logger.js';
import { decodeUtf8 } from '../../util/utf8-text.js';
import type { ServiceEnv } from '../env.js';
import { loadFileContext } from '../file-context.js';
import { withTransientDocument } from '../held-documents.js';
import { fixedPolicyKeys } from '../navigation/resolution-policy.js';
import { flattenSymbols } from './catalog-entry.js';
import { Limiter } from './limiter.js';
import { ServiceSyntaxCataloger } from './syntax-cataloger.js';

export class ServiceCataloger implements FileCataloger {
  private readonly limiters = new Map<string, Limiter>();
  private readonly logger: Logger;
  /** The syntax tier; `LSPGATE_SYNTAX=off` leaves it out (every answer then waits for the servers, as before it existed). */
  readonly syntax: ServiceSyntaxCataloger | undefined;

  constructor(
    private readonly env: ServiceEnv,
    private readonly root: string,
  ) {
    this.logger = env.logger.child('cataloger');
    this.syntax = process.env.LSPGATE_SYNTAX === 'off' ? undefined : new ServiceSyntaxCataloger(env, root);
  }

  projectManifests(): ReadonlySet<string> {
    return projectManifests();
  }

  searchKeys(symbols: readonly CatalogSymbol[]): Uint8Array {
    return fixedPolicyKeys(symbols);
  }

  extensions(): Set<string> {
    return new Set(this.env.servers.filter((s) => s.enabled).flatMap((s) => s.extensions.map((e) => e.toLowerCase())));
  }

  /**
   * A file with a grammar is cataloged from its parse tree (the worker pool: no server is started
   * or asked for it); every other file by its server's documentSymbol.
   */
  async catalogFile(abs: string, rel: string, opts: { background?: boolean; content?: FileContent } = {}): Promise<FileEntry> {
    if (this.syntax?.catalogs(rel)) {
      const entry = await this.syntax.catalogOne(abs, rel, opts.content ?? (await this.read(abs, rel)));
      if (entry) return entry;
    }
    return this.serverEntry(abs, rel, opts);
  }

  /** The id of the enabled server that handles the file, or undefined. */
  serverOf(abs: string): string | undefined {
    return this.env.broker.route(abs, this.root)?.entry.id;
  }

  /** The file's entry from its server's documentSymbol (a language with no grammar; background verification). */
  async serverEntry(abs: string, rel: string, opts: { background?: boolean; content?: FileContent } = {}): Promise<FileEntry> {
    const route = this.env.broker.route(abs, this.root);
    if (!route) throw new LspgateError('UNSUPPORTED_LANGUAGE', `no enabled language server handles ${rel}`, { file: rel });
    const session = await this.env.broker.sessionFor(abs, this.root);
    // the adaptive limiter paces bulk work only: a file someone waits for is not queued behind the build
    if (!opts.background) return this.entryOf(session, abs, rel, false, opts.content);
    // a bulk file's didOpen waits too while interactive work runs (semaphore.ts: background units)
    return this.limiterOf(session).run((began) =>
      session.backgroundUnit(() => {
        began();
        return this.entryOf(session, abs, rel, true, opts.content);
      }),
    );
  }

  private limiterOf(session: LspSession): Limiter {
    const key = `${session.serverId}@${session.root}`;
    let limiter = this.limiters.get(key);
    const max = Math.min(this.env.limits.perServerConcurrency, session.entry.catalogConcurrency ?? Infinity);
    if (!limiter) this.limiters.set(key, (limiter = new Limiter({ max })));
    return limiter;
  }

  private async entryOf(session: LspSession, abs: string, rel: string, background: boolean, content?: FileContent): Promise<FileEntry> {
    // The bytes are read once (by the catalog's gate when it passes them): byte offsets and hashes
    // are of these bytes, and the server is given their text (not a second read that could differ).
    const { bytes, ...st } = content ?? (await this.read(abs, rel));
    decodeUtf8(bytes, rel); // byte offsets must be offsets of the real bytes (utf8-text.ts)
    const source = new SourceText(bytes);
    const wasOpen = session.getDocument(abs) !== undefined;
    // ...and is closed again (tsserver keeps every open file in memory), unless a question pinned it meanwhile
    const file: FileContext = await withTransientDocument(session, abs, () =>
      loadFileContext(
        {
          root: this.root,
          session: async () => session,
          otherFile: () => Promise.reject(new LspgateError('INTERNAL', 'other files are not loaded while cataloging')),
          parseBounds: this.env.limits,
          warn: (m) => this.logger.warn(m),
        },
        abs,
        // A file opened only to catalog it is not kept in the response cache (every file of the
        // workspace would be, for answers an operation may never ask for again)...
        { text: source.text, transient: !wasOpen, background },
      ),
    );
    const adapter = adapterFor(session.entry.adapter);
    return {
      hash: sha256(bytes),
      size: st.size,
      mtimeMs: st.mtimeMs,
      language: file.language,
      server: session.serverId,
      symbols: flattenSymbols({
        file: rel,
        language: file.language,
        server: session.serverId,
        encoding: session.positionEncoding,
        source,
        symbols: file.symbols,
        kindOf: (symbol, parents) => this.kindOf(adapter, file, symbol, parents),
        ...this.packageOf(adapter, file),
      }),
    };
  }

  /** A file the gate admitted earlier (walked) or left out but was asked for: read again under its content rules. */
  private read(abs: string, rel: string): Promise<FileContent> {
    return readGated(this.root, abs, rel, this.env.limits.maxFileBytes);
  }

  /** An adapter that fails on one file costs that file its package, never the whole file. */
  private packageOf(adapter: LanguageAdapter, file: FileContext): PackageInfo {
    try {
      return adapter.packageOf(file);
    } catch (e) {
      this.logger.warn(`adapter ${adapter.name} packageOf failed on ${file.relPath}`, e);
      return {};
    }
  }

  private kindOf(adapter: LanguageAdapter, file: FileContext, symbol: DocumentSymbol, parents: DocumentSymbol[]): SymbolKind {
    try {
      return adapter.symbolKind({ file, symbol, parents });
    } catch (e) {
      this.logger.warn(`adapter ${adapter.name} symbolKind failed on ${file.relPath}`, e);
      return fromLspSymbolKind(symbol.kind);
    }
  }
}
