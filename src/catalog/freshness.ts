/**
 * Whether a cataloged file still matches the disk: mtime + size first, then the bytes' hash; a
 * changed file is cataloged again. Runs on every answer that names a cataloged file.
 */
import { statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';

import type { FileEntry } from '../core/catalog.js';
import { toLspgateError } from '../errors/errors.js';
import { noteFileAccess } from '../util/dependency-scope.js';
import { sha256 } from '../util/hash.js';
import type { CatalogFiles } from './catalog-files.js';
import { type GateAnswer, GateRefusal, WALKED } from './file-gate.js';
import type { SyntaxEntries } from './syntax-tier.js';

/** Failures of a file's own parse bounds (syntax-pool.ts): that file fails, not the answer it is part of. */
const PARSE_BOUNDS = new Set(['TIMEOUT', 'LIMIT_EXCEEDED']);

/**
 * The pipeline's stage between a reader and the parse: an entry is kept while its stamps or bytes
 * match the disk, else the file is parsed again (SyntaxEntries, for an early reader) or asked of its
 * server (CatalogFiles), through the gate either way; both are stages below this one, called directly.
 */
export class Freshness {
  constructor(
    private readonly files: CatalogFiles,
    private readonly syntax: SyntaxEntries,
  ) {}

  /**
   * Keeps a file's entry if its bytes did not change (mtime+size first, then hash), else re-asks;
   * `admission`: the gate's answer the caller already has. An early reader has a changed file parsed
   * again on the worker pool (never through a server, whatever its language).
   */
  async refreshFile(
    f: { abs: string; rel: string; size?: number; mtimeMs?: number },
    background = false,
    admission?: GateAnswer,
    early = false,
  ): Promise<FileEntry> {
    const entry = this.files.index.files.get(f.rel);
    if (entry) {
      // Synchronous: this runs on every answer that names a cataloged file (containers of each
      // reference, symbol ids), one after the other; an async stat waits for a thread-pool round
      // trip each time, which under load cost more than the server's own answer (bench profile).
      const st = f.size !== undefined && f.mtimeMs !== undefined ? { size: f.size, mtimeMs: f.mtimeMs } : statSync(f.abs);
      noteFileAccess(f.abs, 'ino' in st ? st : undefined);
      if (st.size === entry.size && st.mtimeMs === entry.mtimeMs) return entry;
      const bytes = admission && admission !== WALKED && admission.admitted ? admission.bytes : await readFile(f.abs);
      if (sha256(bytes) === entry.hash) {
        entry.mtimeMs = st.mtimeMs;
        entry.size = st.size;
        this.files.touched();
        return entry;
      }
    }
    return early ? this.syntax.early(f.abs, f.rel) : this.files.catalogFile(f.abs, f.rel, background, admission);
  }

  /** Makes sure the cataloged answer for `rel` matches the disk; false when the file is gone. */
  async ensureFresh(rel: string, early = false): Promise<boolean> {
    const abs = path.join(this.files.root, rel);
    try {
      await this.refreshFile({ abs, rel }, false, undefined, early);
      return true;
    } catch (e) {
      // gone, or refused by the gate now (the catalog dropped it): no longer a cataloged file
      if ((e as NodeJS.ErrnoException).code === 'ENOENT' || e instanceof GateRefusal) {
        this.files.removeFile(rel);
        return false;
      }
      this.files.recordError(rel, e);
      throw toLspgateError(e);
    }
  }

  /** Re-catalogs any of `files` that changed on disk (one that fails a parse bound is left out); true when one did. */
  async freshen(files: Iterable<string>, early = false): Promise<boolean> {
    let changed = false;
    for (const rel of new Set(files)) {
      const before = this.files.index.files.get(rel);
      // a file over a parse bound (deadline, heap cap) is left out of this answer, recorded as failed:
      // the answer is partial, not an error for every file beside it
      await this.ensureFresh(rel, early).catch((e: unknown) => {
        if (!PARSE_BOUNDS.has(toLspgateError(e).code)) throw e;
      });
      if (this.files.index.files.get(rel) !== before) changed = true;
    }
    return changed;
  }

  /** Stats every cataloged file (mtime+size) and re-catalogs the changed ones; true when one was. */
  async sweep(): Promise<boolean> {
    const rels = [...this.files.index.files.keys()];
    let changed = false;
    for (let i = 0; i < rels.length; i += 64) {
      const batch = rels.slice(i, i + 64);
      const before = batch.map((r) => this.files.index.files.get(r));
      // A file that fails is recorded in status().errors by ensureFresh; the sweep goes on.
      await Promise.all(batch.map((r) => this.ensureFresh(r).catch(() => undefined)));
      if (batch.some((r, k) => this.files.index.files.get(r) !== before[k])) changed = true;
    }
    return changed;
  }
}
