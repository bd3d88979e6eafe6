/**
 * A wide answer's deadline (`max_ms`): the call, its walks and its import graph read it, and at it
 * answer with what they have. What a deadline cut is said in `limits_hit` (limit `max_ms`) with
 * `truncated`, so the answer's first markdown line says it (runner.ts cutNotice), and such an answer
 * is never cached (the same call may finish next time).
 */
import type { CallMeta } from '../core/call-meta.js';
import type { LimitHit } from '../schema/meta.js';

/**
 * The deadline of a wide operation the caller gave none (MCP, the sidecar, the REPL and the CLI): below
 * the MCP SDK client's 60 s request timeout, so an agent gets the answer so far with its cut said
 * first, not a timeout and nothing. `max_ms` overrides it.
 */
export const DEFAULT_MAX_MS = 30_000;

export class Deadline {
  /** performance.now() at which it passes. */
  readonly at: number;
  private readonly parts: string[] = [];
  private hit: LimitHit | undefined;

  constructor(
    readonly ms: number,
    start = performance.now(),
  ) {
    this.at = start + ms;
  }

  passed(): boolean {
    return performance.now() >= this.at;
  }

  /** `p`'s value, or undefined when the deadline passes first (`p` goes on; its failure is then nobody's). */
  async race<T>(p: Promise<T>): Promise<{ value: T } | undefined> {
    p.catch(() => undefined);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), Math.max(0, this.at - performance.now()))));
    try {
      return await Promise.race([p.then((value) => ({ value })), late]);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Says what the deadline left out: `truncated`, and one `limits_hit` max_ms for the answer's first
   * line, whose detail gathers every part the deadline cut (the import graph, the callers).
   */
  cut(meta: CallMeta, detail: string): void {
    if (!this.parts.includes(detail)) this.parts.push(detail);
    const text = `${this.parts.join('; ')}; raise max_ms for the rest`;
    if (this.hit) {
      this.hit.detail = text;
      return;
    }
    meta.truncate();
    this.hit = { limit: 'max_ms', value: this.ms, detail: text };
    meta.limit(this.hit);
  }
}

/** Whether an answer's limits say a deadline cut it. */
export const cutByDeadline = (limits: readonly { limit: string }[]): boolean => limits.some((h) => h.limit === 'max_ms');
