/**
 * The catalog's syntax tier: entries read from syntax trees (FileEntry.tier `syntax`) that answer
 * outlines, symbol search and sources while the servers load, and for languages no server
 * catalogs. This keeps what the catalog knows about the tiers: when the first syntax pass is done
 * (early answers wait for that, not for the servers), which files stay at the syntax tier and why
 * (no server configured or installed), and how often the two tiers disagreed on the same bytes —
 * when a server entry replaces a syntax entry of the same content, the server wins and every symbol
 * one of them lists that the other does not, or lists with another range or kind, is counted.
 */
import type { CatalogSymbol, FileEntry, TierStatus } from '../core/catalog.js';

function sameSymbol(a: CatalogSymbol, b: CatalogSymbol): boolean {
  return a.byte_offset === b.byte_offset && a.byte_length === b.byte_length && a.selection_line === b.selection_line && a.selection_column === b.selection_column && a.lsp_kind === b.lsp_kind;
}

export class SyntaxTier {
  private readyNow = false;
  private waiters: (() => void)[] = [];
  /** Files whose server will not catalog them, with why. */
  readonly syntaxOnly = new Map<string, string>();
  private readonly counts = { files_compared: 0, syntax_symbols: 0, server_symbols: 0, only_syntax: 0, only_server: 0, differing: 0 };

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

  /** A new build: early answers wait for its syntax pass again (unless the index already answers). */
  restart(answerable: boolean): void {
    this.readyNow = answerable;
    if (answerable) this.markReady();
  }

  /** A server entry replaces a syntax entry: counted when both read the same bytes. */
  compare(before: FileEntry | undefined, after: FileEntry): void {
    if (before?.tier !== 'syntax' || after.tier === 'syntax' || before.hash !== after.hash) return;
    const c = this.counts;
    c.files_compared++;
    c.syntax_symbols += before.symbols.length;
    c.server_symbols += after.symbols.length;
    const mine = new Map(before.symbols.map((s) => [s.symbol_id, s]));
    for (const s of after.symbols) {
      const m = mine.get(s.symbol_id);
      if (!m) c.only_server++;
      else if (!sameSymbol(m, s)) c.differing++;
      mine.delete(s.symbol_id);
    }
    c.only_syntax += mine.size;
  }

  status(files: ReadonlyMap<string, FileEntry>): TierStatus {
    let syntax = 0;
    for (const e of files.values()) if (e.tier === 'syntax') syntax++;
    const reasons: Record<string, number> = {};
    for (const [rel, why] of this.syntaxOnly) if (files.get(rel)?.tier === 'syntax') reasons[why] = (reasons[why] ?? 0) + 1;
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
