/**
 * Writing a previewed edit: every file must still have the content the preview was computed for
 * (and, when the caller passes them, the hashes its preview showed), else CONTENT_MODIFIED and
 * nothing is written. The files are written through an apply journal (apply-journal.ts): backups
 * and the new contents first, all fsynced, then the renames — so a crash leaves the workspace wholly
 * as before or completable, and recovery (recovery.ts) says which. Then the servers and the catalog
 * are re-synced, and a record of the apply is left beside its backups for `undo` (undo.ts).
 */
import { lstatSync, readFileSync } from 'node:fs';

import { diskError, LspgateError } from '../../errors/errors.js';
import { ABSENT } from '../../link/journals.js';
import { sha256 } from '../../lsp/documents.js';
import { isInside, toRelative } from '../../util/paths.js';
import type { ServiceCall } from '../call.js';
import { recordApplied } from './applied-records.js';
import { ApplyJournal } from './apply-journal.js';
import { newFileTarget } from './new-file.js';
import { editTargetOfPath, type FileEdit } from './workspace-edit.js';

/** ABSENT when nothing (not even a dangling link) is there. */
function currentHash(abs: string): string | undefined {
  if (!lstatSync(abs, { throwIfNoEntry: false })) return ABSENT;
  try {
    return sha256(readFileSync(abs, 'utf8'));
  } catch {
    return undefined;
  }
}

/** Throws CONTENT_MODIFIED (listing every changed file) unless all files match. */
export function checkHashes(call: ServiceCall, files: FileEdit[], expected: Record<string, string> | undefined): void {
  const changed: string[] = [];
  for (const f of files) {
    const now = currentHash(f.absPath);
    const want = expected?.[f.file] ?? f.content_hash;
    if (now !== want || now !== f.content_hash) changed.push(f.file);
  }
  if (expected) {
    for (const file of Object.keys(expected)) if (!files.some((f) => f.file === file)) changed.push(file);
  }
  if (changed.length) {
    throw new LspgateError(
      'CONTENT_MODIFIED',
      `${changed.join(', ')} no longer match${changed.length === 1 ? 'es' : ''} the preview: nothing was written; preview again`,
      { files: changed },
    );
  }
  // the write gate once more: a file swapped for a symlink (or a key written into it) since the preview is refused
  for (const f of files) {
    const target = f.created ? newFileTarget(call.root, f.file) : editTargetOfPath(call.root, f.absPath);
    if (target.abs !== f.absPath)
      throw new LspgateError('PATH_OUTSIDE_WORKSPACE', `${f.file} is no longer the file the preview was made for: nothing was written`, { file: f.file });
  }
}

export interface Applied {
  /** Where the old contents were copied (`<cacheDir>/backups/<workspace id>/<journal id>/<relative path>`). */
  backup_dir: string;
}

/** Checks, writes every file through a journal, re-syncs the servers that serve the workspace and the catalog. */
export async function applyFileEdits(call: ServiceCall, files: FileEdit[], expected: Record<string, string> | undefined, operation: string): Promise<Applied> {
  checkHashes(call, files, expected);
  let journal: ApplyJournal;
  try {
    journal = ApplyJournal.open(call.env.cacheDir, call.workspace, operation, files);
  } catch (e) {
    throw diskError(e, `writing the apply journal in the cache ${call.env.cacheDir}`, 'no file of the workspace was touched') ?? e;
  }
  try {
    journal.stage();
  } catch (e) {
    journal.abandon();
    throw (
      diskError(
        e,
        `writing the edit of ${files.length} file(s) (backups in the cache, new contents in temp files beside them)`,
        'the temp files were removed and every file of the workspace is as it was',
      ) ?? e
    );
  }
  // past this point a crash is completed or rolled back by recovery; an error here rolled back itself
  journal.commit();
  try {
    const b = journal.begin;
    recordApplied(call.env.cacheDir, call.workspace.id, {
      id: b.id,
      root: call.root,
      operation,
      time: b.time,
      backup_dir: b.backup_dir,
      files: b.files.map((f) => ({
        file: f.file,
        abs: f.abs,
        backup: f.backup,
        before: f.before,
        after: f.after,
        ...(f.mode !== undefined ? { mode: f.mode } : {}),
      })),
      ...(journal.madeDirs.length ? { dirs: journal.madeDirs.map((d) => toRelative(call.root, d)) } : {}),
    });
  } catch (e) {
    // the edit is written; only `undo` will not find it
    call.meta.warn(`the apply was written, but its undo record was not: ${(e as Error).message}`);
  }
  await resync(call, files);
  return { backup_dir: journal.begin.backup_dir };
}

async function resync(call: ServiceCall, files: FileEdit[]): Promise<void> {
  const broker = call.env.broker;
  const changes = files.map((f) => ({ path: f.absPath, type: f.created ? ('created' as const) : f.deleted ? ('deleted' as const) : ('changed' as const) }));
  for (const s of broker.existing()) {
    if (!isInside(call.root, s.root) && !isInside(s.root, call.root)) continue;
    // open documents get didChange with the new text (a removed one is closed); the others are announced as changed on disk
    for (const f of files) {
      if (!s.getDocument(f.absPath)) continue;
      if (f.deleted) await s.closeDocument(f.absPath);
      else await s.syncDocument(f.absPath);
    }
    s.notifyFilesChanged(changes);
  }
  const refreshed = await call.workspace.catalog.refresh(files.map((f) => f.file));
  for (const e of refreshed.errors) call.meta.warn(`catalog refresh of ${e.file}: ${e.code} ${e.message}`);
}
