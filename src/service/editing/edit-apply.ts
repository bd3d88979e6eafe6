/**
 * Writing a previewed edit: every file must still have the content the preview was computed for
 * (and, when the caller passes them, the hashes its preview showed), else CONTENT_MODIFIED and
 * nothing is written. Each file is written atomically (a temp file in the same directory, then
 * rename over the original, keeping its mode); then the servers and the catalog are re-synced.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { LspgateError } from '../../errors/errors.js';
import { sha256 } from '../../lsp/documents.js';
import { isInside } from '../../util/paths.js';
import type { ServiceCall } from '../call.js';
import type { FileEdit } from './workspace-edit.js';

function currentHash(abs: string): string | undefined {
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
    throw new LspgateError('CONTENT_MODIFIED', `${changed.join(', ')} no longer match${changed.length === 1 ? 'es' : ''} the preview: nothing was written; preview again`, { files: changed });
  }
  for (const f of files) if (!isInside(call.root, f.absPath)) throw new LspgateError('PATH_OUTSIDE_WORKSPACE', `${f.absPath} is outside the workspace`, { path: f.absPath });
}

function writeAtomically(abs: string, text: string): void {
  const mode = statSync(abs).mode;
  const tmp = path.join(path.dirname(abs), `.${path.basename(abs)}.lspgate-${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
  try {
    writeFileSync(tmp, text, { mode });
    renameSync(tmp, abs);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw new LspgateError('INTERNAL', `could not write ${abs}: ${(e as Error).message}`, { path: abs }, { cause: e });
  }
}

/** Checks, writes every file, re-syncs the servers that serve the workspace and the catalog. */
export async function applyFileEdits(call: ServiceCall, files: FileEdit[], expected: Record<string, string> | undefined): Promise<void> {
  checkHashes(call, files, expected);
  for (const f of files) {
    // the last moment a concurrent edit can be noticed without losing it
    if (currentHash(f.absPath) !== f.content_hash) {
      throw new LspgateError('CONTENT_MODIFIED', `${f.file} changed while the edit was being written; files written so far: ${files.slice(0, files.indexOf(f)).map((x) => x.file).join(', ') || 'none'}`, { file: f.file });
    }
    writeAtomically(f.absPath, f.after);
  }
  await resync(call, files);
}

async function resync(call: ServiceCall, files: FileEdit[]): Promise<void> {
  const broker = call.env.broker;
  const changes = files.map((f) => ({ path: f.absPath, type: 'changed' as const }));
  for (const s of broker.existing()) {
    if (!isInside(call.root, s.root) && !isInside(s.root, call.root)) continue;
    // open documents get didChange with the new text; the others are announced as changed on disk
    for (const f of files) if (s.getDocument(f.absPath)) await s.syncDocument(f.absPath);
    s.notifyFilesChanged(changes);
  }
  const refreshed = await call.workspace.catalog.refresh(files.map((f) => f.file));
  for (const e of refreshed.errors) call.meta.warn(`catalog refresh of ${e.file}: ${e.code} ${e.message}`);
}
