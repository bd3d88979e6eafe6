/**
 * When is a server ready (indexing finished)? Per the entry's readiness rule:
 *  - progress: the work-done progress whose begin title matches `titlePattern` ended and no other
 *    is open; if none begins within `quietMs` after initialized, ready — until the first didOpen,
 *    which (while no matching progress was seen) makes it not ready again for `openQuietMs`:
 *    typescript-language-server only loads a project once a file of it is opened. A matching
 *    progress that begins later puts the server back to indexing.
 *  - notification: ready at `method` (intelephense `indexingEnded`); if `startMethod` is not seen
 *    within `quietMs`, ready.
 *  - first-reply: ready on the first successful documentSymbol (pyright has no start-up signal).
 */
import type { Readiness } from '../config/schema.js';

type ProgressValue = { kind?: string; title?: string; message?: string; percentage?: number };
/** An open work-done progress: its begin title and the latest message and percentage it reported. */
type OpenProgress = { title: string; message?: string; percentage?: number };

export class ReadinessTracker {
  private ready = false;
  private waiters = new Set<() => void>();
  private open = new Map<string, OpenProgress>();
  private matchedSeen = false;
  private startSeen = false;
  private firstOpenSeen = false;
  private quietTimer: NodeJS.Timeout | undefined;
  private readonly pattern: RegExp | undefined;
  private disposed = false;

  constructor(
    private readonly rule: Readiness,
    private readonly onChange: (ready: boolean) => void,
  ) {
    this.pattern = rule.kind === 'progress' && rule.titlePattern ? new RegExp(rule.titlePattern) : undefined;
  }

  get isReady(): boolean {
    return this.ready;
  }

  /**
   * Work-done progress still open: each title with the latest message and percentage the server
   * reported (`Loading packages: 12/40 (30%)`), so a caller who waits sees how far it is.
   */
  openTitles(): string[] {
    return [...this.open.values()].map((p) => {
      const message = p.message && p.message !== p.title ? `: ${p.message}` : '';
      const pct = p.percentage !== undefined ? ` (${p.percentage}%)` : '';
      return `${p.title}${message}${pct}`;
    });
  }

  /** Called once after `initialized` was sent. */
  started(): void {
    if (this.rule.kind === 'first-reply') return;
    this.armQuiet();
  }

  documentOpened(): void {
    if (this.rule.kind !== 'progress' || this.matchedSeen) return;
    if (!this.firstOpenSeen) {
      // The quiet period after `initialized` may have declared the server ready with nothing open;
      // opening the first file is what makes a project-loading server start its work.
      this.firstOpenSeen = true;
      this.setReady(false);
      this.armQuiet(this.rule.openQuietMs ?? this.rule.quietMs);
    } else if (!this.ready) {
      this.armQuiet(this.rule.openQuietMs ?? this.rule.quietMs);
    }
  }

  progress(token: string | number, value: unknown): void {
    const v = (value ?? {}) as ProgressValue;
    const key = String(token);
    if (v.kind === 'begin') {
      const title = v.title ?? '';
      this.open.set(key, { title, ...reported(v) });
      if (this.rule.kind === 'progress' && (!this.pattern || this.pattern.test(title))) {
        this.matchedSeen = true;
        this.clearQuiet();
        this.setReady(false);
      }
    } else if (v.kind === 'report') {
      const open = this.open.get(key);
      if (open) this.open.set(key, { ...open, ...reported(v) });
    } else if (v.kind === 'end') {
      this.open.delete(key);
      this.evaluate();
    }
  }

  notification(method: string): void {
    if (this.rule.kind !== 'notification') return;
    if (this.rule.startMethod && method === this.rule.startMethod) {
      this.startSeen = true;
      this.clearQuiet();
      this.setReady(false);
    } else if (method === this.rule.method) {
      this.clearQuiet();
      this.setReady(true);
    }
  }

  /** A documentSymbol answered. */
  firstReply(): void {
    if (this.rule.kind === 'first-reply') this.setReady(true);
  }

  /** Resolves true when ready, false when `ms` ran out first. */
  wait(ms: number): Promise<boolean> {
    if (this.ready) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(t);
        this.waiters.delete(done);
        resolve(this.ready);
      };
      const t = setTimeout(done, Math.max(0, ms));
      this.waiters.add(done);
    });
  }

  dispose(): void {
    this.disposed = true;
    this.clearQuiet();
    for (const w of [...this.waiters]) w();
  }

  private evaluate(): void {
    if (this.rule.kind !== 'progress') return;
    if (this.matchedSeen && this.open.size === 0) this.setReady(true);
  }

  private armQuiet(quietMs?: number): void {
    this.clearQuiet();
    const ms = this.rule.kind === 'first-reply' ? 0 : (quietMs ?? this.rule.quietMs);
    this.quietTimer = setTimeout(() => {
      this.quietTimer = undefined;
      if (this.rule.kind === 'progress' && !this.matchedSeen && this.open.size === 0) this.setReady(true);
      if (this.rule.kind === 'progress' && !this.matchedSeen && this.open.size > 0) this.matchedSeen = true; // wait for what is open
      if (this.rule.kind === 'notification' && this.rule.startMethod && !this.startSeen) this.setReady(true);
    }, ms);
    this.quietTimer.unref();
  }

  private clearQuiet(): void {
    if (this.quietTimer) clearTimeout(this.quietTimer);
    this.quietTimer = undefined;
  }

  private setReady(ready: boolean): void {
    if (this.disposed || this.ready === ready) return;
    this.ready = ready;
    this.onChange(ready);
    if (ready) for (const w of [...this.waiters]) w();
  }
}

/** The message and percentage of a begin or report value, when they are well-formed (the spec: percentage 0..100). */
function reported(v: ProgressValue): { message?: string; percentage?: number } {
  const out: { message?: string; percentage?: number } = {};
  if (typeof v.message === 'string' && v.message !== '') out.message = v.message.slice(0, 200);
  if (typeof v.percentage === 'number' && Number.isFinite(v.percentage)) out.percentage = Math.max(0, Math.min(100, Math.round(v.percentage)));
  return out;
}
