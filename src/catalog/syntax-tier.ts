/**
 * The catalog's syntax tier: entries read from syntax trees (FileEntry.tier `syntax`) that answer
 * outlines, symbol search and sources while the servers load, and for languages no server
 * catalogs. This keeps what the catalog knows about the tiers: when the first syntax pass is done
 * (early answers wait for that, not for the servers), which files stay at the syntax tier and why
 * (no server configured or installed), and how often the two tiers disagreed on the same bytes —
 * when a server entry replaces a syntax entry of the same content, the server wins and every symbol
 * one of them lists that the other does not, or lists with another range or kind, is counted.
 */
import type { CatalogSymbol, FileEntry, LookupOptions, SyntaxCataloger, TierStatus } from '../core/catalog.js';
import { LspgateError, toLspgateError } from '../errors/errors.js';
import type { Logger } from '../util/logger.js';
import { fileExtension } from '../util/paths.js';
import type { CatalogFiles } from './catalog-files.js';
import { parseDeclarersFirst } from './early-names.js';
import { type Admission, refusalOf } from './file-gate.js';
import type { WalkedFile } from './walk.js';

function sameSymbol(a: CatalogSymbol, b: CatalogSymbol): boolean {
  return (
    a.byte_offset === b.byte_offset &&
    a.byte_length === b.byte_length &&
    a.selection_line === b.selection_line &&
    a.selection_column === b.selection_column &&
    a.lsp_kind === b.lsp_kind
  );
}

export class SyntaxTier {
  private readyNow = false;
  private waiters: (() => void)[] = [];
  /** Files whose server will not catalog them, with why. */
  readonly syntaxOnly = new Map<string, string>();
  private readonly counts = { files_sampled: 0, files_compared: 0, syntax_symbols: 0, server_symbols: 0, only_syntax: 0, only_server: 0, differing: 0 };

  get ready(): boolean {
    return this.readyNow;
  }

  /** Resolves when the current build's syntax pass is done (at once when it is). */
  whenReady(): Promise<void> {
    return this.readyNow ? Promise.resolve() : new Promise((resolve) => this.waiters.push(resolve));
  }

  markReady(): void {
    this.readyNow = true;
    for (const w of this.waiters.splice(0)) w();
  }

  /** Why the last build's syntax pass failed (its files then wait for servers, or stay out). */
  passError: string | undefined;

  /** A new build: early answers wait for its syntax pass again (unless the index already answers). */
  restart(answerable: boolean): void {
    this.readyNow = answerable;
    this.passError = undefined;
    if (answerable) this.markReady();
  }

  /**
   * A server's entry of the same bytes beside a syntax entry (background verification, or a server
   * entry replacing a syntax one): counted, and each symbol the two do not agree on is handed to
   * `disagree` (the catalog stays syntax-defined: nothing changes an id).
   */
  compare(before: FileEntry | undefined, after: FileEntry, disagree?: (what: string, id: string) => void): void {
    if (before?.tier !== 'syntax' || after.tier === 'syntax' || before.hash !== after.hash) return;
    const c = this.counts;
    c.files_compared++;
    c.syntax_symbols += before.symbols.length;
    c.server_symbols += after.symbols.length;
    const mine = new Map(before.symbols.map((s) => [s.symbol_id, s]));
    for (const s of after.symbols) {
      const m = mine.get(s.symbol_id);
      if (!m) {
        c.only_server++;
        disagree?.('only the server lists', s.symbol_id);
      } else if (!sameSymbol(m, s)) {
        c.differing++;
        disagree?.('range or kind differs', s.symbol_id);
      }
      mine.delete(s.symbol_id);
    }
    c.only_syntax += mine.size;
    for (const id of mine.keys()) disagree?.('only the syntax tree lists', id);
  }

  /** A file of a verification sample was asked of its server (counted whether or not it could be compared). */
  sampled(): void {
    this.counts.files_sampled++;
  }

  /** Why no server handles a cataloged syntax-tier file (`hasServer`: whether an enabled server handles it), or undefined. */
  serverless(rel: string, entry: FileEntry | undefined, hasServer: (rel: string) => boolean): string | undefined {
    if (entry?.tier !== 'syntax') return undefined;
    return this.syntaxOnly.get(rel) ?? (hasServer(rel) ? undefined : 'NO_SERVER');
  }

  status(files: ReadonlyMap<string, FileEntry>, hasServer: (rel: string) => boolean): TierStatus {
    let syntax = 0;
    const reasons: Record<string, number> = {};
    for (const [rel, e] of files) {
      if (e.tier === 'syntax') syntax++;
      const why = this.serverless(rel, e, hasServer);
      if (why) reasons[why] = (reasons[why] ?? 0) + 1;
    }
    const c = this.counts;
    const wrong = c.only_syntax + c.only_server + c.differing;
    return {
      syntax_ready: this.readyNow,
      syntax_files: syntax,
      server_files: files.size - syntax,
      syntax_only: reasons,
      disagreement: { ...c, rate: c.server_symbols ? Math.round((wrong / c.server_symbols) * 1e6) / 1e6 : 0 },
    };
  }
}

/** What the syntax tier's work needs besides the stage below it (its entries enter through CatalogFiles). */
export interface SyntaxHost {
  readonly tier: SyntaxTier;
  readonly syntax: SyntaxCataloger | undefined;
  readonly logger: Logger;
}

type AdmittedFile = Admission & { admitted: true };

/**
 * The syntax tier's side of the catalog, the pipeline's parse stage: its pass over a build's files,
 * early entries, changed files. It calls the stage below it, CatalogFiles (`files`): the gate a file
 * passes, where its entry enters, and the server's entry of a file the tier does not parse.
 */
export class SyntaxEntries {
  /** The running pass's files not answered yet (a name asked meanwhile reads them: early-names.ts). */
  private running: Map<string, WalkedFile> | undefined;
  private starts: (() => void)[] = [];

  constructor(
    private readonly files: CatalogFiles,
    private readonly host: SyntaxHost,
  ) {}

  /**
   * A name asked while a build runs: once its pass has its files, those not parsed yet that can
   * declare the name are parsed first (early-names.ts) and `find` answers, if it finds any (said to
   * `onEarly`); undefined when the name must wait for the pass.
   */
  async namesFirst(name: string, find: () => CatalogSymbol[], opts: LookupOptions): Promise<CatalogSymbol[] | undefined> {
    if (!this.running && !this.host.tier.ready) {
      await Promise.race([new Promise<void>((resolve) => this.starts.push(resolve)), this.host.tier.whenReady()]);
    }
    const early = await parseDeclarersFirst(this, name, opts.onHolders);
    const hits = early && find();
    if (!hits?.length) return undefined;
    opts.onEarly?.(early!);
    return hits;
  }

  /** The running pass's files it has not answered yet; undefined when no pass runs. */
  unparsed(): WalkedFile[] | undefined {
    return this.running && !this.host.tier.ready ? [...this.running.values()] : undefined;
  }

  /**
   * A file of the running pass parsed now, ahead of its turn (a name asked before the pass reached
   * it), through the gate like any early reader's; false when it could not be (refused, no syntax,
   * a parse failure: the pass will say why).
   */
  async parseAhead(f: WalkedFile): Promise<boolean> {
    const { syntax } = this.host;
    const { files } = this;
    if (!syntax) return false;
    const a = await files.gate.admit(f.abs);
    if (!a.admitted) return false;
    const entry = await syntax.catalogOne(a.abs, a.rel, a).catch(() => undefined);
    if (!entry) return false;
    if (this.running?.has(a.rel)) files.storeSyntax(a.rel, entry, true);
    return true;
  }

  /**
   * Every walked file (the gate admitted each) the syntax tier parses and the index does not hold as
   * it is on disk, parsed on worker threads; entries are stored as they come unless a server entry
   * of the same bytes is there already, failures are recorded (failed). Early answers wait for this pass only.
   */
  async pass(files: WalkedFile[], signal?: AbortSignal): Promise<void> {
    const { syntax, tier } = this.host;
    const { index } = this.files;
    try {
      if (!syntax) return;
      const parsed = syntax.extensions();
      const todo = files.filter((f) => {
        if (!parsed.has(fileExtension(f.rel))) return false;
        const e = index.files.get(f.rel);
        return !e || e.size !== f.size || e.mtimeMs !== f.mtimeMs;
      });
      const unanswered = new Set(todo.map((f) => f.rel));
      const walked = new Map(files.map((f) => [f.rel, index.files.get(f.rel)?.mtimeMs]));
      this.running = new Map(todo.map((f) => [f.rel, f]));
      for (const started of this.starts.splice(0)) started();
      await syntax
        .catalogMany(
          todo,
          (rel, entry, error) => {
            unanswered.delete(rel);
            this.running?.delete(rel);
            // the watcher may have parsed the file again since the walk read it: its newer entry stays
            const now = index.files.get(rel);
            if (now && walked.get(rel) !== now.mtimeMs && now.mtimeMs !== entry?.mtimeMs) return;
            // parsed ahead of its turn (a name asked meanwhile): the same bytes are not stored twice
            if (now?.tier === 'syntax' && entry && now.hash === entry.hash && now.mtimeMs === entry.mtimeMs && now.size === entry.size) return;
            if (entry) this.files.storeSyntax(rel, entry, true);
            else if (error) this.failed(rel, new LspgateError(error.code as 'INTERNAL', error.message, { file: rel }));
          },
          signal,
        )
        .catch((e: unknown) => {
          const err = toLspgateError(e);
          if (err.code === 'CANCELLED') throw e;
          // never silent: every file the pass did not answer fails with the pass's error (the server's entry replaces it)
          tier.passError = `${err.code}: ${err.message}`;
          this.host.logger.warn('the syntax pass failed; the servers catalog without it', e);
          for (const rel of unanswered) this.failed(rel, e, true);
        });
    } finally {
      this.running = undefined;
      tier.markReady();
    }
  }

  /**
   * A file the syntax tier could not catalog. Its parse tree is its only catalog (no server lists a
   * file that has a grammar), so it fails whoever asks — never a silent gap — unless an entry of
   * another origin is there (a file cataloged by its server because its grammar could not read it).
   */
  private failed(rel: string, e: unknown, always = false): void {
    const current = this.files.index.files.get(rel);
    if (current && current.tier !== 'syntax' && !always) return;
    this.dropFailed(rel, e, true);
  }

  /** A syntax entry of other bytes is no answer for the file now: it goes, and the file fails with `e`. */
  private dropFailed(rel: string, e: unknown, walked = false): void {
    if (this.files.index.files.get(rel)?.tier === 'syntax') this.files.removeFile(rel, walked);
    this.files.recordError(rel, e, walked);
  }

  /** Resolves when the current build's syntax pass is done. */
  passed(): Promise<void> {
    return this.host.tier.whenReady();
  }

  /**
   * A walked file the syntax tier catalogs: its parse tree is its catalog entry, whether or not a
   * server handles its language (servers answer the questions that need a compiler, by position);
   * the build waits for the pass.
   */
  serverless(rel: string): boolean {
    return this.catalogs(rel);
  }

  /** Whether the syntax tier catalogs the file (its extension has a grammar with a declarations hook). */
  catalogs(rel: string): boolean {
    const syntax = this.host.syntax;
    return !!syntax && syntax.extensions().has(fileExtension(rel));
  }

  /**
   * An early reader's file, through the gate first: parsed from syntax (and stored) where the syntax
   * tier has it, else the server's. A file the gate refuses leaves the catalog with its coded error;
   * one it only leaves out (ignore rules) is answered by its server, not indexed.
   */
  async early(abs: string, rel: string): Promise<FileEntry> {
    const { syntax } = this.host;
    const { files } = this;
    if (!syntax || !this.catalogs(rel)) return files.catalogFile(abs, rel);
    const { gate } = files;
    const a = await gate.admit(abs);
    if (!a.admitted) {
      // Left out of the index only (a generated file, ignore rules) in a language no enabled server
      // handles: answered from its syntax tree, not indexed — as its server would have answered it
      // (the server's path alone said UNSUPPORTED_LANGUAGE for a `*.gen.go` with gopls disabled).
      if (!refusalOf(a) && !syntax.hasServer(a.rel)) {
        const entry = await syntax.catalogOne(a.abs, a.rel, await gate.readLeftOut(a));
        if (entry) return entry;
      }
      return files.catalogFile(abs, rel, false, a);
    }
    const entry = await syntax.catalogOne(a.abs, a.rel, a).catch((e: unknown) => {
      this.dropFailed(a.rel, e);
      throw e;
    });
    if (!entry) return files.catalogFile(abs, rel, false, a);
    files.storeSyntax(a.rel, entry, false);
    return files.index.files.get(a.rel) ?? entry;
  }

  /**
   * A file the watcher saw change (the gate admitted it, with these bytes): parsed again on the
   * worker pool (milliseconds: every answer sees the edit at once). A file it could not parse (over
   * the deadline, the heap cap) leaves the index with its coded error. False when the syntax tier
   * has no entry for the file (no grammar, nothing declared): its server's entry is the caller's to ask.
   */
  async changed(a: AdmittedFile): Promise<boolean> {
    const syntax = this.host.syntax;
    if (!syntax || !this.catalogs(a.rel)) return false;
    let failure: unknown;
    const entry = await syntax.catalogOne(a.abs, a.rel, a).catch((e: unknown) => void (failure = e));
    if (entry) this.files.storeSyntax(a.rel, entry, false);
    else if (failure !== undefined) this.dropFailed(a.rel, failure);
    return entry !== undefined || failure !== undefined;
  }
}
