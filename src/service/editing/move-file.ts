/**
 * move_file: a file renamed, and every import of it updated by its language server — where the
 * server offers `workspace/willRenameFiles` for that file (its `workspace.fileOperations.willRename`
 * filters; typescript-language-server answers it with tsserver's getEditsForFileRename); elsewhere
 * NOT_SUPPORTED naming the server. The server's WorkspaceEdit edits the importers and, addressed to
 * the old path, the moved file's own relative imports: those apply to the text the new path gets.
 * The preview is every importer's diff plus the move (a git-style rename with the moved text's own
 * diff), the content hashes, and the diagnostics delta over the moved file and its importers (the
 * moved text given to the server at its new path, unsaved; the importers' new text, unsaved; then
 * the disk state told again). Apply goes through the one edit path as one journaled multi-file
 * edit: the importers changed, the new path created, the old one removed — so recovery and `undo`
 * restore the move like any edit, and the catalog drops the old path and learns the new one. The
 * new file keeps the old one's mode without its execute bits (said in the warnings), and never lands
 * in VCS or tool internals (new-file.ts).
 */
import { statSync } from 'node:fs';
import path from 'node:path';

import { type FileOperationRegistrationOptions, WillRenameFilesRequest, type WorkspaceEdit } from 'vscode-languageserver-protocol';

import { profileOf } from '../../adapters/languages.js';
import { globMatcher } from '../../catalog/glob.js';
import { isLspgateError, LspgateError } from '../../errors/errors.js';
import { ABSENT } from '../../link/journals.js';
import { documentText, sha256 } from '../../lsp/documents.js';
import type { LspSession } from '../../lsp/types.js';
import { toRelative } from '../../util/paths.js';
import { fileUri } from '../../util/uri.js';
import type { ServiceCall } from '../call.js';
import { type DeltaEntry, filesDelta, refuseUnchecked, type Unchecked } from './diagnostics-delta.js';
import { applyFileEdits } from './edit-apply.js';
import { newFileTarget } from './new-file.js';
import { editTargetOfPath, type FileEdit, previewEdits, unifiedDiff } from './workspace-edit.js';

export interface MoveFileInput {
  file: string;
  to: string;
  apply?: boolean | undefined;
  /** content_hash of each file from the preview: apply only if they are still that. */
  expected_hashes?: Record<string, string> | undefined;
  accept_errors?: boolean | undefined;
  /** Apply although files of the delta are unchecked. */
  accept_unchecked?: boolean | undefined;
}

export interface MoveFileResult {
  file: string;
  to: string;
  applied: boolean;
  server: string;
  /** Every file the move writes: the importers (edited), the old path (removed), the new path (created). */
  files: { file: string; change: 'edited' | 'removed' | 'created'; content_hash: string; edits: number; diff: string; new_hash?: string }[];
  importers: string[];
  diagnostics: 'checked' | 'partial' | 'not_checked';
  diagnostics_reason?: string;
  /** Files of the delta not checked (no answer within the bound, no server), with the reason. */
  unchecked: Unchecked[];
  introduced: DeltaEntry[];
  removed: DeltaEntry[];
  /**
   * The importers' "cannot find" errors on their new import of the new path: a server resolves
   * modules on disk (tsserver's module resolution never sees an unsaved document at a path that does
   * not exist), so before the apply those imports cannot resolve; they are not counted as introduced.
   */
  pending_imports: DeltaEntry[];
  backup_dir?: string;
}

/** INVALID_INPUT when the move introduces errors (`accept_errors` moves anyway); nothing was written. */
function refuseNewErrors(out: MoveFileResult): void {
  const errors = out.introduced.filter((d) => d.severity === 'error');
  if (errors.length) {
    const first = errors[0]!;
    throw new LspgateError(
      'INVALID_INPUT',
      `moving ${out.file} to ${out.to} introduces ${errors.length} error(s) (first: ${first.file}:${first.line}: ${first.message}); nothing was written: apply with accept_errors: true to move anyway`,
      {
        introduced: errors.slice(0, 50),
      },
    );
  }
}

/** A moved file never gains (nor keeps) execute bits: a script moved where something runs it would run. */
function movedMode(call: ServiceCall, src: { abs: string; file: string }, to: string): number {
  const srcMode = statSync(src.abs).mode;
  const mode = srcMode & 0o666;
  if (srcMode & 0o111)
    call.meta.warn(
      `${src.file} is executable (mode ${(srcMode & 0o777).toString(8)}); ${to} is written without execute bits (mode ${mode.toString(8)}): chmod it if it must run`,
    );
  return mode;
}

export async function moveFile(call: ServiceCall, input: MoveFileInput): Promise<MoveFileResult> {
  const src = editTargetOfPath(call.root, call.resolvePath(input.file, { expect: 'file' }));
  const dst = newFileTarget(call.root, input.to);
  const session = await renamingSession(call, src.abs);
  const edits = await importEdits(call, session, src, dst.abs);
  const own = edits.find((f) => f.absPath === src.abs);
  const importers = edits.filter((f) => f !== own);
  const before = own?.before ?? documentText(src.abs, undefined, call.env.limits.maxFileBytes);
  const movedText = own?.after ?? before;
  const mode = movedMode(call, src, dst.file);
  const removedEdit: FileEdit = { absPath: src.abs, file: src.file, before, content_hash: sha256(before), after: '', edits: 0, diff: '', deleted: true };
  const createdEdit: FileEdit = {
    absPath: dst.abs,
    file: dst.file,
    before: '',
    content_hash: ABSENT,
    after: movedText,
    edits: own?.edits ?? 0,
    diff: moveDiff(src.file, dst.file, before, movedText),
    created: { mode },
  };
  const files = [...importers, removedEdit, createdEdit];
  for (const f of files) if (!f.created) call.meta.addSourceFile(f.absPath);

  const delta = await filesDelta(call, src.abs, [
    { abs: src.abs, before, after: movedText, newAbs: dst.abs },
    ...importers.map((f) => ({ abs: f.absPath, before: f.before, after: f.after })),
  ]);
  const pending = delta.introduced.filter((d) => importsNewPath(d, importers, dst.abs));
  const out: MoveFileResult = {
    file: src.file,
    to: dst.file,
    applied: false,
    server: session.serverId,
    files: files.map((f) => ({
      file: f.file,
      change: f.created ? 'created' : f.deleted ? 'removed' : 'edited',
      content_hash: f.content_hash,
      edits: f.edits,
      diff: f.diff,
    })),
    importers: importers.map((f) => f.file),
    diagnostics: delta.diagnostics,
    unchecked: delta.unchecked,
    introduced: delta.introduced.filter((d) => !pending.includes(d)),
    removed: delta.removed,
    pending_imports: pending,
  };
  if (delta.reason) out.diagnostics_reason = delta.reason;
  if (!input.apply) return out;
  if (!input.accept_errors) refuseNewErrors(out);
  refuseUnchecked(`moving ${src.file} to ${dst.file}`, delta, input.accept_unchecked);
  const applied = await applyFileEdits(call, files, input.expected_hashes, 'move_file');
  out.applied = true;
  out.backup_dir = applied.backup_dir;
  for (const [i, f] of files.entries()) if (!f.deleted) out.files[i]!.new_hash = sha256(f.after);
  return out;
}

/** The server's edits for the rename, per file, computed on the disk text (asked again once after syncing a stale open file). */
async function importEdits(call: ServiceCall, session: LspSession, src: { abs: string; file: string }, dst: string): Promise<FileEdit[]> {
  const ask = async (): Promise<FileEdit[]> => {
    let edit: WorkspaceEdit | null;
    try {
      edit = await session.request(WillRenameFilesRequest.type, { files: [{ oldUri: fileUri(src.abs), newUri: fileUri(dst) }] }, { signal: call.signal });
    } catch (e) {
      if (isLspgateError(e) && e.code === 'INTERNAL' && e.details?.lspCode !== undefined)
        throw new LspgateError('INVALID_INPUT', `${session.serverId} refused to move ${src.file}: ${String(e.details.lspMessage)}`, e.details);
      throw e;
    }
    return previewEdits(call.root, session, edit ?? {});
  };
  try {
    return await ask();
  } catch (e) {
    // an importer the server holds open changed on disk since it was synced: sync it, ask once more
    const stale = e instanceof LspgateError && e.code === 'CONTENT_MODIFIED' ? e.details?.stale : undefined;
    if (typeof stale !== 'string') throw e;
    await session.syncDocument(stale);
    return ask();
  }
}

/** The session of the file's server, when it offers willRenameFiles for this file; NOT_SUPPORTED naming it otherwise. */
async function renamingSession(call: ServiceCall, abs: string): Promise<LspSession> {
  let session: LspSession;
  try {
    session = await call.session(abs);
  } catch (e) {
    if (isLspgateError(e) && (e.code === 'SERVER_NOT_INSTALLED' || e.code === 'UNSUPPORTED_LANGUAGE')) {
      const language = profileOf(abs)?.name ?? 'this language';
      throw new LspgateError(
        'NOT_SUPPORTED',
        `move_file needs the language server of ${language} to update the imports, and none runs here (${e.message}); nothing is moved`,
        { language, cause: e.code },
      );
    }
    throw e;
  }
  const filters = session.capabilities?.workspace?.fileOperations?.willRename?.filters ?? [];
  const rel = toRelative(call.root, abs);
  if (!filters.some((f) => filterMatches(f, abs, rel))) {
    const why = filters.length ? `its willRenameFiles filters do not cover ${rel}` : 'it does not offer workspace/willRenameFiles';
    throw new LspgateError(
      'NOT_SUPPORTED',
      `move_file asks the file's server for the import updates, and ${session.serverId} cannot give them: ${why}; nothing is moved`,
      { server: session.serverId },
    );
  }
  return session;
}

/** LSP FileOperationFilter: a `file` scheme, a glob over the path (workspace-relative, or absolute when it starts with `/`), matching files. */
function filterMatches(f: FileOperationRegistrationOptions['filters'][number], abs: string, rel: string): boolean {
  if (f.scheme && f.scheme !== 'file') return false;
  if (f.pattern.matches === 'folder') return false;
  const fold = (s: string) => (f.pattern.options?.ignoreCase ? s.toLowerCase() : s);
  try {
    return globMatcher(fold(f.pattern.glob), { wholePath: true })(fold(f.pattern.glob.startsWith('/') ? abs : rel));
  } catch {
    // a glob lspgate cannot read covers nothing
    return false;
  }
}

/**
 * Whether a diagnostic is an importer's failure to resolve its new import of the moved file: on a
 * line the server's edit changed, naming a string of that line that, resolved from the importer's
 * folder, is the new path (with or without its extension: `./text/strings.js` for `strings.ts`).
 */
function importsNewPath(d: DeltaEntry, importers: FileEdit[], dst: string): boolean {
  const f = importers.find((i) => i.file === d.file);
  if (!f) return false;
  const old = new Set(f.before.split(/\r?\n/));
  const line = f.after.split(/\r?\n/)[d.line - 1];
  if (line === undefined || old.has(line)) return false;
  const stem = (p: string) => p.slice(0, p.length - path.extname(p).length);
  for (const m of line.matchAll(/(['"`])([^'"`]+)\1/g)) {
    const spec = m[2]!;
    if (!spec.startsWith('.') || !d.message.includes(spec)) continue;
    if (stem(path.resolve(path.dirname(f.absPath), spec)) === stem(dst)) return true;
  }
  return false;
}

/** The move as a git-style rename, with the moved text's own changes (its relative imports) as a diff. */
function moveDiff(from: string, to: string, before: string, after: string): string {
  const head = `diff --git a/${from} b/${to}\nrename from ${from}\nrename to ${to}\n`;
  return before === after ? head : head + unifiedDiff(from, before, after, 2).replace(`+++ b/${from}`, `+++ b/${to}`);
}
