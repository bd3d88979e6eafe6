/**
 * Undo of the last applied edit of a workspace. Every apply that completes leaves a record beside
 * its backups (`<cache>/backups/<workspace id>/<journal id>.applied.json`: each file's path and the
 * hashes of its content before and after). `undo` takes the newest record not yet undone (an undo's
 * own record is never undone by the next undo: that one goes one edit further back) and restores
 * the backups only when every file still has exactly what the edit wrote; otherwise it names the
 * files changed since and restores nothing. The restore is itself an apply through the one edit
 * path (journal, containment, re-sync of servers and catalog).
 */
import { readdirSync, readFileSync, renameSync } from 'node:fs';
import path from 'node:path';
import { LspgateError } from '../../errors/errors.js';
import { ABSENT } from '../../link/journals.js';
import { sha256 } from '../../util/hash.js';
import type { ServiceCall } from '../call.js';
import { recordsDir, SUFFIX, type AppliedRecord } from './applied-records.js';
import { stateHash } from './apply-journal.js';
import { applyFileEdits } from './edit-apply.js';
import { newFileTarget } from './new-file.js';
import { editTargetOfPath, unifiedDiff, type FileEdit } from './workspace-edit.js';

export interface UndoResult {
  undone: string;
  operation: string;
  applied_at: string;
  files: { file: string; diff: string }[];
  backup_dir: string;
}

export async function undoLastEdit(call: ServiceCall): Promise<UndoResult> {
  const dir = recordsDir(call.env.cacheDir, call.workspace.id);
  const rec = newest(dir);
  if (!rec) throw new LspgateError('INVALID_INPUT', `no applied edit of ${call.root} to undo`, { root: call.root });
  const changed = rec.files.filter((f) => stateHash(f.abs) !== f.after).map((f) => f.file);
  if (changed.length) {
    throw new LspgateError(
      'CONTENT_MODIFIED',
      `${rec.operation} of ${rec.time} cannot be undone: ${changed.join(', ')} changed since it was applied; nothing was restored`,
      { files: changed, operation: rec.operation },
    );
  }
  const edits: FileEdit[] = rec.files.map((f) => {
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
    if (f.after === ABSENT) edit.created = { mode: f.mode ?? 0o644 };
    if (f.before === ABSENT) edit.deleted = true;
    return edit;
  });
  const applied = await applyFileEdits(call, edits, undefined, 'undo');
  renameSync(path.join(dir, `${rec.id}${SUFFIX}`), path.join(dir, `${rec.id}.undone.json`));
  return {
    undone: rec.id,
    operation: rec.operation,
    applied_at: rec.time,
    files: edits.map((e) => ({ file: e.file, diff: e.diff })),
    backup_dir: applied.backup_dir,
  };
}

function newest(dir: string): AppliedRecord | undefined {
  let names: string[];
  try {
    names = readdirSync(dir)
      .filter((n) => n.endsWith(SUFFIX))
      .sort()
      .reverse();
  } catch {
    return undefined;
  }
  for (const n of names) {
    let rec: AppliedRecord;
    try {
      rec = JSON.parse(readFileSync(path.join(dir, n), 'utf8')) as AppliedRecord;
    } catch {
      continue;
    }
    if (rec.v === 1 && rec.operation !== 'undo' && Array.isArray(rec.files)) return rec;
  }
  return undefined;
}
