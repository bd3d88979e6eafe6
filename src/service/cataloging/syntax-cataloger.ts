/**
 * The syntax cataloger: files whose language profile has a declarations hook become catalog
 * entries from their syntax trees, always on the worker pool (syntax-pool.ts) under its per-file
 * deadline and heap cap — many at once (a cold workspace), or one ahead of any bulk pass (a changed
 * file, a question about a file the pass has not reached). Entries are marked `tier: syntax`; they
 * are the catalog's entries for these files (the servers answer semantic questions by position).
 */
import { languageProfiles, scriptExtension } from '../../adapters/languages.js';
import { entryFor } from '../../broker/route.js';
import type { FileContent, FileEntry, SyntaxCataloger, SyntaxFileJob } from '../../core/catalog.js';
import { type ErrorCode, LspgateError } from '../../errors/errors.js';
import { fileExtension } from '../../util/paths.js';
import type { ServiceEnv } from '../env.js';
import { parseInWorkers, type PoolOptions } from './syntax-pool.js';

export class ServiceSyntaxCataloger implements SyntaxCataloger {
  private readonly parsed: Set<string>;

  constructor(
    private readonly env: Pick<ServiceEnv, 'servers' | 'limits'>,
    private readonly root: string,
  ) {
    this.parsed = new Set(languageProfiles().flatMap((p) => (p.syntax.declarations ? Object.keys(p.grammars) : [])));
  }

  /** With `''` when some parsed language declares interpreters: files without an extension are then judged by their first line. */
  extensions(): Set<string> {
    const exts = new Set(this.parsed);
    if (languageProfiles().some((p) => p.syntax.declarations && p.interpreters)) exts.add('');
    return exts;
  }

  isScript(head: Buffer): boolean {
    const ext = scriptExtension(head);
    return ext !== undefined && this.parsed.has(ext);
  }

  /** Whether a file of this name is cataloged from its parse tree (a file without an extension: by its `#!` line, when read). */
  catalogs(relPath: string): boolean {
    return this.extensions().has(fileExtension(relPath));
  }

  hasServer(relPath: string): boolean {
    return entryFor(this.env.servers, relPath) !== undefined;
  }

  async catalogMany(
    files: SyntaxFileJob[],
    onEntry: (rel: string, entry: FileEntry | undefined, error?: { code: string; message: string }) => void,
    signal?: AbortSignal,
  ): Promise<void> {
    await parseInWorkers(files, { ...this.poolOptions(), signal }, (a) => onEntry(a.rel, a.entry, a.error));
  }

  private poolOptions(): PoolOptions {
    const { maxFileBytes, parseTimeoutMs, parseHeapMb } = this.env.limits;
    return { root: this.root, maxFileBytes, deadlineMs: parseTimeoutMs, maxHeapMb: parseHeapMb };
  }

  /** `content`: the bytes the catalog's gate admitted (size, private keys, binary already judged on them). */
  async catalogOne(absPath: string, relPath: string, content: FileContent): Promise<FileEntry | undefined> {
    let answer: { entry?: FileEntry; error?: { code: string; message: string } } = {};
    await parseInWorkers(
      [{ abs: absPath, rel: relPath, content: { bytes: content.bytes, size: content.size, mtimeMs: content.mtimeMs } }],
      { ...this.poolOptions(), interactive: true },
      (a) => (answer = a),
    );
    if (answer.error?.code === 'UNSUPPORTED_LANGUAGE') return undefined;
    if (answer.error) throw new LspgateError(answer.error.code as ErrorCode, answer.error.message, { file: relPath });
    return answer.entry;
  }
}
