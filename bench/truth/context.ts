/**
 * What every check of `npm run truth` gets: the corpus, its truth, a gateway on it (lspgate as a
 * client uses it, through `gateway.run`), and a way to run an operation that records a failure
 * instead of stopping the harness.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { LspgateError } from '../../src/errors/errors.js';
import { Gateway } from '../../src/gateway/gateway.js';
import type { Corpus, Lang } from './corpora.js';
import type { GoTruth, PyTruth, TsTruth } from './oracles.js';
import type { Row } from './table.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Result = Record<string, any>;

export interface Truth {
  ts?: TsTruth;
  go?: GoTruth;
  py?: PyTruth;
  php?: Map<string, Set<string>>;
}

export type Outcome = { ok: true; result: Result } | { ok: false; code: string; message: string; details?: Result };

export class TruthContext {
  readonly rows: Row[] = [];

  private constructor(
    readonly corpus: Corpus,
    readonly truth: Truth,
    readonly gateway: Gateway,
    readonly cacheDir: string,
  ) {}

  /** A gateway with an empty cache of its own: every server starts cold. */
  static async open(corpus: Corpus, truth: Truth): Promise<TruthContext> {
    const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-truth-'));
    const gateway = await Gateway.create({ root: corpus.root, cacheDir });
    return new TruthContext(corpus, truth, gateway, cacheDir);
  }

  /** A second, cold context on the same corpus, for checks about what a fresh start answers. */
  cold(): Promise<TruthContext> {
    return TruthContext.open(this.corpus, this.truth);
  }

  get lang(): Lang {
    return this.corpus.lang;
  }

  get root(): string {
    return this.corpus.root;
  }

  /** An operation's JSON result, or its error code (never thrown: a failure is a finding). */
  async run(op: string, input: Record<string, unknown> = {}): Promise<Outcome> {
    try {
      return { ok: true, result: (await this.gateway.run(op, { ...input, output_format: 'json' })).result as Result };
    } catch (e) {
      if (e instanceof LspgateError) return { ok: false, code: e.code, message: e.message, ...(e.details ? { details: e.details } : {}) };
      return { ok: false, code: 'THROWN', message: (e as Error).message };
    }
  }

  /** Every page of a paged list (`field`) of an operation. */
  async allPages(op: string, input: Record<string, unknown>, field: string): Promise<Outcome & { items?: Result[] }> {
    const items: Result[] = [];
    let cursor: string | undefined;
    let last: Outcome;
    do {
      last = await this.run(op, { ...input, ...(cursor ? { cursor } : {}) });
      if (!last.ok) return last;
      items.push(...((last.result[field] as Result[]) ?? []));
      cursor = last.result._meta?.next_cursor as string | undefined;
    } while (cursor);
    return { ...last, items };
  }

  add(row: Omit<Row, 'lang'>): void {
    this.rows.push({ ...row, lang: this.lang });
  }

  async close(): Promise<void> {
    await this.gateway.close();
    fs.rmSync(this.cacheDir, { recursive: true, force: true });
  }
}

/** `partial: n file(s) skipped (codes)` of an answer, or `-`. */
export function partialOf(r: Result): string {
  const skipped = (r.skipped as { code: string }[] | undefined) ?? [];
  const state = r._meta?.index_state as string | undefined;
  if (!skipped.length && state === 'ready') return '-';
  const codes = [...new Set(skipped.map((s) => s.code))].join(', ');
  return `${state}${skipped.length ? `: ${skipped.length} file(s) skipped (${codes})` : ''}`;
}

export function failureOf(o: Outcome): string {
  return o.ok ? '-' : `${o.code}: ${o.message.slice(0, 120)}`;
}
