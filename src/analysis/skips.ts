/**
 * Files an answer left out, and why. A whole-workspace analysis asks a server about many files; one
 * that cannot be answered for (gopls: "no package metadata" for a file its build constraints
 * exclude; a request that timed out under load; a file the catalog could not read) is listed in the
 * answer's `skipped` with the error, the answer is marked `partial` (in `_meta` and so in the text
 * an agent reads), and the rest is answered. A call fails only when nothing could be answered.
 * Cancellation is never a skip: it ends the call.
 */
import type { CallMeta } from '../core/call-meta.js';
import { isErrorCode, LspgateError, toLspgateError } from '../errors/errors.js';

export interface SkippedFile {
  file: string;
  /** The error code of the failure (TIMEOUT, INTERNAL for a server's error answer, ...). */
  code: string;
  /** The failure as it was reported (a server's own message included). */
  reason: string;
}

export class Skips {
  private readonly byFile = new Map<string, SkippedFile>();
  /** The coded error's details of each failure (SERVER_NOT_INSTALLED's server and install hint). */
  private readonly details = new Map<string, Record<string, unknown>>();

  /** The first failure of a file is kept: later ones are usually its consequences. */
  add(file: string, code: string, reason: string, details?: Record<string, unknown>): void {
    if (this.byFile.has(file)) return;
    this.byFile.set(file, { file, code, reason });
    if (details) this.details.set(file, details);
  }

  /** Records a thrown failure for a file; cancellation is rethrown. */
  addError(file: string, e: unknown): void {
    const err = toLspgateError(e);
    if (err.code === 'CANCELLED') throw err;
    this.add(file, err.code, err.message, err.details);
  }

  has(file: string): boolean {
    return this.byFile.has(file);
  }

  get size(): number {
    return this.byFile.size;
  }

  /** In path order. */
  list(): SkippedFile[] {
    return [...this.byFile.values()].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  }

  /**
   * Marks the answer partial when files were left out, with a warning naming how many and why
   * (the runner puts both at the head of the text rendering). `answered` = how many units of the
   * work were answered: none answered while some failed is the failure itself, not an empty answer.
   */
  finish(meta: CallMeta, what: string, answered = 1): SkippedFile[] {
    const list = this.list();
    if (list.length === 0) return list;
    if (answered === 0) {
      const first = list[0]!;
      throw new LspgateError(
        isErrorCode(first.code) ? first.code : 'INTERNAL',
        `${what}: nothing could be answered, ${list.length} file(s) failed (${first.file}: ${first.reason})`,
        // the first failure's details too: what it needs (the server to install) is not lost
        { ...this.details.get(first.file), skipped: list.slice(0, 20) },
      );
    }
    meta.setIndexState('partial');
    const codes = [...new Set(list.map((s) => s.code))].join(', ');
    const names = list
      .slice(0, 3)
      .map((s) => s.file)
      .join(', ');
    meta.warn(`partial: ${list.length} file(s) left out of ${what} (${codes}: ${names}${list.length > 3 ? ', …' : ''}); see \`skipped\``);
    return list;
  }
}

/** The skip list of one call (every part of the call adds to the same list). */
const perCall = new WeakMap<object, Skips>();

export function skipsOf(call: object): Skips {
  let s = perCall.get(call);
  if (!s) perCall.set(call, (s = new Skips()));
  return s;
}

/** Runs one file's part of an analysis: a failure skips that file (cancellation ends the call). */
export async function perFile<T>(skips: Skips, file: string, work: () => Promise<T>): Promise<T | undefined> {
  try {
    return await work();
  } catch (e) {
    skips.addError(file, e);
    return undefined;
  }
}

/** Files the catalog could not catalog (their declarations are unknown to every catalog-based answer). */
export function addCatalogErrors(skips: Skips, errors: readonly { file: string; code: string; message: string }[]): void {
  for (const e of errors) skips.add(e.file, e.code, `not cataloged: ${e.message}`);
}
