/**
 * Undo of the last applied edit of a workspace. Every apply that completes leaves a record beside
 * its backups (`<cache>/backups/<workspace id>/<journal id>.applied.json`: each file's path and the
 * hashes of its content before and after). `undo` takes the newest record not yet undone (an undo's
 * own record is never undone by the next undo: that one goes one edit further back) that is provably
 * this user's (record-vetting.ts: any other is set aside, never acted on, and the answer says why),
 * and restores the backups only when every file still has exactly what the edit wrote; otherwise it
 * names the files changed since and restores nothing. The restore is itself an apply through the one
 * edit path (journal, containment, VCS internals, re-sync of servers and catalog). A file the edit
 * removed comes back with its mode's execute bits only from lspgate's own backup (restoredMode); the
 * folders a move made are removed again when empty.
 */
import { readdirSync, readFileSync, renameSync } from 'node:fs';
import path from 'node:path';

import { LspgateError } from '../../errors/errors.js';
import { ABSENT } from '../../link/journals.js';
import { checkCacheDir } from '../../link/paths.js';
import { sha256 } from '../../util/hash.js';
import type { ServiceCall } from '../call.js';
import { type AppliedRecord, recordsDir, SUFFIX } from './applied-records.js';
import { removeEmptyDirs, restoredMode, stateHash } from './apply-journal.js';
import { applyFileEdits } from './edit-apply.js';
import { newFileTarget } from './new-file.js';
import { type RecordPlace, setRecordAside, vetRecord } from './record-vetting.js';
import { editTargetOfPath, type FileEdit, unifiedDiff } from './workspace-edit.js';

export interface UndoResult {
  undone: string;
  operation: string;
  applied_at: string;
  files: { file: string; diff: string }[];
  backup_dir: string;
}

export async function undoLastEdit(call: ServiceCall): Promise<UndoResult> {
  const dir = recordsDir(call.env.cacheDir, call.workspace.id);
  const place = { cacheDir: call.env.cacheDir, workspaceId: call.workspace.id, root: call.root };
  const { rec, setAside } = newest(dir, place);
  for (const s of setAside) call.meta.warn(s);
  if (!rec) {
    const why = setAside.length ? `; ${setAside.length} record(s) were set aside: ${setAside.join('; ')}` : '';
    throw new LspgateError('INVALID_INPUT', `no applied edit of ${call.root} to undo${why}`, {
      root: call.root,
      ...(setAside.length ? { set_aside: setAside } : {}),
    });
  }
  const changed = rec.files.filter((f) => stateHash(f.abs) !== f.after).map((f) => f.file);
  if (changed.length) {
    throw new LspgateError(
      'CONTENT_MODIFIED',
      `${rec.operation} of ${rec.time} cannot be undone: ${changed.join(', ')} changed since it was applied; nothing was restored`,
      { files: changed, operation: rec.operation },
    );
  }
  const edits = rec.files.map((f) => restoreEdit(call, f));
  const applied = await applyFileEdits(call, edits, undefined, 'undo');
  renameSync(path.join(dir, `${rec.id}${SUFFIX}`), path.join(dir, `${rec.id}.undone.json`));
  // the folders a move made for its new file, now that the file is gone (vetted: inside the root, outside VCS internals)
  removeEmptyDirs((rec.dirs ?? []).map((d) => path.join(call.root, d)));
  return {
    undone: rec.id,
    operation: rec.operation,
    applied_at: rec.time,
    files: edits.map((e) => ({ file: e.file, diff: e.diff })),
    backup_dir: applied.backup_dir,
  };
}

/** The edit that puts one file of the record back: its backup's bytes, or the file removed again. */
function restoreEdit(call: ServiceCall, f: AppliedRecord['files'][number]): FileEdit {
  // a file the edit created is removed again; one it removed (a move's old path) is created again
  const target = f.after === ABSENT ? newFileTarget(call.root, f.file) : editTargetOfPath(call.root, f.abs);
  const before = f.after === ABSENT ? '' : readFileSync(target.abs, 'utf8');
  let after = '';
  if (f.before !== ABSENT) {
    const old = readFileSync(f.backup);
    if (sha256(old) !== f.before)
      throw new LspgateError('CONTENT_MODIFIED', `the backup of ${f.file} is not what the edit replaced; nothing was restored`, { file: f.file });
    after = old.toString('utf8');
  }
  const edit: FileEdit = {
    absPath: target.abs,
    file: target.file,
    before,
    content_hash: f.after === ABSENT ? ABSENT : sha256(before),
    after,
    edits: 1,
    diff: unifiedDiff(target.file, before, after, 3),
  };
  if (f.after === ABSENT) edit.created = { mode: restoredMode(f.mode, f.backup) };
  if (f.before === ABSENT) edit.deleted = true;
  return edit;
}

/**
 * The newest record an undo may act on; every record on the way that is not provably this user's
 * is set aside, each with a sentence saying why and where it went. The folder itself must be this
 * user's and writable by no one else (UNSAFE_DIRECTORY).
 */
function newest(dir: string, place: RecordPlace): { rec?: AppliedRecord; setAside: string[] } {
  checkCacheDir(dir);
  const setAside: string[] = [];
  let names: string[];
  try {
    names = readdirSync(dir)
      .filter((n) => n.endsWith(SUFFIX))
      .sort()
      .reverse();
  } catch {
    return { setAside };
  }
  for (const n of names) {
    const file = path.join(dir, n);
    const v = vetRecord(file, place);
    if ('problem' in v) {
      const to = setRecordAside(place.cacheDir, file);
      setAside.push(
        `undo record ${n} set aside, nothing of it restored: ${v.problem}; ${to ? `moved to ${to}` : 'left where it is (it could not be moved)'} — if you did not make this edit, another user may have planted it`,
      );
      continue;
    }
    if (v.rec.operation !== 'undo') return { rec: v.rec, setAside };
  }
  return { setAside };
}
