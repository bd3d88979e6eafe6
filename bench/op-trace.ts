/**
 * Where an operation's time goes during a cold catalog (bench/interactive-during-catalog.ts --trace):
 * the LSP traffic of lspgate's session is recorded (the session's trace listener), and each timed
 * operation's window is split into "before its first request reached the server" (lspgate's queue,
 * file loading, event-loop delay), "the server answering" (send → answer of the requests it sent,
 * overlapping ones counted once) and the rest (lspgate's own work after the answers), with how many
 * of lspgate's requests were already outstanding at the server when the operation's first one went.
 */
import type { LspSession, TraceEvent } from '../src/lsp/types.js';

interface Sent {
  id: number | string;
  method: string;
  uri?: string;
  at: number;
  answeredAt?: number;
  /** An executeCommand's first argument (tsserver's command) and the file it names. */
  what?: string;
}

export interface OpBreakdown {
  totalMs: number;
  /** Window start → the first request this operation sent. */
  beforeFirstSendMs: number;
  /** Union of the send → answer intervals of the requests sent in the window. */
  serverMs: number;
  requests: string[];
  /** lspgate requests outstanding at the server when the first one of this operation was sent. */
  outstandingAtSend: number;
  /** Window start → the didOpen of the operation's file, when the operation opened it (first touch). */
  openedAtMs?: number;
}

export class OpTrace {
  private readonly sent = new Map<number | string, Sent>();
  private readonly log: Sent[] = [];
  /** didOpen notifications sent: when and for which URI. */
  private readonly opens: { uri: string; at: number }[] = [];
  private attached?: LspSession;

  attach(session: LspSession | undefined): void {
    if (!session || this.attached === session) return;
    this.attached = session;
    session.onTrace((e: TraceEvent) => this.record(e));
  }

  private record(e: TraceEvent): void {
    const now = performance.now();
    if (e.direction === 'send' && e.kind === 'notification' && e.method === 'textDocument/didOpen') {
      const uri = (e.payload as { textDocument?: { uri?: string } } | undefined)?.textDocument?.uri;
      if (uri) this.opens.push({ uri, at: now });
    }
    if (e.direction === 'send' && e.kind === 'request' && e.id !== undefined) {
      const uri = (e.payload as { textDocument?: { uri?: string } } | undefined)?.textDocument?.uri;
      const s: Sent = { id: e.id, method: e.method ?? '?', at: now, ...(uri ? { uri } : {}) };
      const args = (e.payload as { arguments?: unknown[] } | undefined)?.arguments;
      if (args && typeof args[0] === 'string')
        s.what = `${args[0]} ${String((args[1] as { file?: string } | undefined)?.file ?? '')
          .split('/')
          .slice(-2)
          .join('/')}`;
      this.sent.set(e.id, s);
      this.log.push(s);
    } else if (e.direction === 'receive' && e.id !== undefined && (e.kind === 'response' || e.kind === 'error')) {
      const s = this.sent.get(e.id);
      if (s) s.answeredAt = now;
      this.sent.delete(e.id);
    }
  }

  /** Each request sent in [start, end]: offset from start, send → answer ms, method or tsserver command and file. */
  requestLines(start: number, end: number): string[] {
    return this.log
      .filter((s) => s.at >= start && s.at <= end)
      .map((s) => `  +${Math.round(s.at - start)} ${s.answeredAt === undefined ? '?' : Math.round(s.answeredAt - s.at)} ms ${s.what ?? s.method}`);
  }

  /**
   * The breakdown of the window [start, end] (performance.now() times). The catalog's documentSymbol
   * requests sent meanwhile are not the operation's: a documentSymbol counts only for `file` (a URI suffix).
   */
  window(start: number, end: number, file: string): OpBreakdown {
    const mine = this.log.filter((s) => s.at >= start && s.at <= end && (s.method !== 'textDocument/documentSymbol' || !!s.uri?.endsWith(file)));
    const first = mine[0];
    const outstanding = first ? this.log.filter((s) => s.at < first.at && (s.answeredAt === undefined || s.answeredAt > first.at)).length : 0;
    let serverMs = 0;
    let coveredTo = -Infinity;
    for (const s of mine) {
      const a = Math.max(s.at, coveredTo);
      const b = s.answeredAt ?? end;
      if (b > a) serverMs += b - a;
      coveredTo = Math.max(coveredTo, b);
    }
    const opened = this.opens.find((o) => o.at >= start && o.at <= end && o.uri.endsWith(file));
    return {
      totalMs: end - start,
      beforeFirstSendMs: first ? first.at - start : end - start,
      serverMs,
      requests: mine.map((s) => s.method),
      outstandingAtSend: outstanding,
      ...(opened ? { openedAtMs: opened.at - start } : {}),
    };
  }
}
