/**
 * After a crash: the apply journals a dead process left (src/link/journals.ts) are finished, byte for
 * byte, one way or the other. Before `staged` nothing of the workspace had changed: the temp files
 * are removed (rolled back). After it, when every file is either already new or still old with its
 * new content intact in its temp file, the renames are completed; otherwise (someone changed a file
 * since, a temp file is gone) the files already moved get their backups back and the rest is left
 * as it is — rolled back, naming the files that were changed by someone else. A journal whose owner
 * still runs is an apply in progress and is left alone; one that is not provably this user's
 * (journal-vetting.ts) is set aside and reported. Run when a workspace opens and by
 * `lspgate recover`.
 */
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';

import { ABSENT, journalDir, journalFiles, type JournalFileStep, type JournalState, ownerAlive, processStart, readJournal } from '../../link/journals.js';
import { checkCacheDir } from '../../link/paths.js';
import { hashOf, moveIntoPlace, restoreFromBackup, stateHash, syncDir } from './apply-journal.js';
import { journalFileProblem, journalPathsProblem, recheckStep, setAside } from './journal-vetting.js';

export interface RecoveryOutcome {
  journal: string;
  operation: string;
  root: string;
  /** set_aside: not provably this user's (journal-vetting.ts); nothing of it was applied. removed_empty: a journal without its first line. */
  action: 'completed' | 'rolled_back' | 'in_progress' | 'set_aside' | 'removed_empty';
  files: number;
  /** Files someone changed after the crash: left as they are. */
  conflicts: string[];
  backup_dir: string;
  message: string;
  /** Why a journal was set aside, and where it was moved. */
  reason?: string;
  moved_to?: string;
}

/**
 * Recovers every journal of `root` (every journal when undefined) whose owner is gone. A journal of
 * this very process is an apply of its own still running (a workspace closed and opened again meanwhile),
 * unless `ownIsDead` (tests that play the crash in-process). A journal that is not provably this
 * user's — whatever root it names — is set aside and reported instead. The cache and journals
 * directories must be this user's and writable by no one else (UNSAFE_DIRECTORY otherwise).
 */
export function recoverJournals(cacheDir: string, root?: string, opts: { ownIsDead?: boolean } = {}): RecoveryOutcome[] {
  checkCacheDir(cacheDir);
  checkCacheDir(journalDir(cacheDir));
  const running = (j: JournalState) => (j.begin.pid === process.pid ? !opts.ownIsDead : ownerAlive(j.begin));
  const out: RecoveryOutcome[] = [];
  for (const file of journalFiles(cacheDir)) {
    const fileProblem = journalFileProblem(file);
    if (fileProblem) {
      out.push(setAsideOutcome(cacheDir, file, undefined, fileProblem));
      continue;
    }
    const j = readJournal(file);
    if (!j) {
      const emptied = removeIfEmpty(file);
      if (emptied) out.push(emptied);
      continue;
    }
    if (root !== undefined && j.begin.root !== root) continue;
    // an apply still running is left to it (nothing is done with it); any other is vetted before it is acted on
    const pathProblem = running(j) ? undefined : journalPathsProblem(j, cacheDir);
    if (pathProblem) out.push(setAsideOutcome(cacheDir, file, j, pathProblem));
    else out.push(running(j) ? inProgress(j) : recoverOne(j));
  }
  return out;
}

function outcome(j: JournalState, action: RecoveryOutcome['action'], conflicts: string[], message: string): RecoveryOutcome {
  return {
    journal: path.basename(j.path),
    operation: j.begin.operation,
    root: j.begin.root,
    action,
    files: j.begin.files.length,
    conflicts,
    backup_dir: j.begin.backup_dir,
    message,
  };
}

function setAsideOutcome(cacheDir: string, file: string, j: JournalState | undefined, reason: string): RecoveryOutcome {
  const movedTo = setAside(cacheDir, file);
  const where = movedTo ? `moved to ${movedTo}` : 'left where it is (it could not be moved)';
  const message = `apply journal ${file} set aside, nothing of it applied: ${reason}; ${where}. lspgate recovers only journals that are provably this user's — if you did not run this apply, another user may have planted it: look at it, then delete it`;
  const base = j
    ? outcome(j, 'set_aside', [], message)
    : { journal: path.basename(file), operation: '', root: '', action: 'set_aside' as const, files: 0, conflicts: [], backup_dir: '', message };
  return { ...base, reason, ...(movedTo ? { moved_to: movedTo } : {}) };
}

function inProgress(j: JournalState): RecoveryOutcome {
  return outcome(j, 'in_progress', [], `${j.begin.operation} in ${j.begin.root} is being applied by process ${j.begin.pid}: left to it`);
}

type FileState = 'new' | 'old' | 'other';

function stateOf(step: JournalFileStep): FileState {
  const h = stateHash(step.abs);
  return h === step.after ? 'new' : h === step.before ? 'old' : 'other';
}

function recoverOne(j: JournalState): RecoveryOutcome {
  const { files } = j.begin;
  const what = `${j.begin.operation} of ${files.length} file(s) in ${j.begin.root} (interrupted ${j.begin.time})`;
  if (!j.staged && !j.done) {
    // the new contents were still being written to temp files: the workspace never changed
    finish(j);
    return outcome(j, 'rolled_back', [], `${what}: rolled back — it had not written any file yet; every file is as before`);
  }
  const states = files.map(stateOf);
  // a file the apply removes has no temp file: it is completed by removing it
  const completable = files.every((f, i) => states[i] === 'new' || (states[i] === 'old' && (f.after === ABSENT || hashOf(f.tmp) === f.after)));
  if (completable) {
    for (const [i, f] of files.entries()) {
      if (states[i] !== 'old') continue;
      if (f.after !== ABSENT) recheckStep(f, 'tmp');
      moveIntoPlace(f);
    }
    for (const d of new Set(files.map((f) => path.dirname(f.abs)))) syncDir(d);
    finish(j);
    const moved = files.filter((_f, i) => states[i] === 'old').length;
    return outcome(j, 'completed', [], `${what}: completed — the last ${moved} file(s) were moved into place; every file has its new content`);
  }
  const conflicts: string[] = [];
  for (const [i, f] of files.entries()) {
    // a file the apply created goes again; one it changed or removed gets its backup back
    if (states[i] === 'new' && f.before === ABSENT) rmSync(f.abs, { force: true });
    else if (states[i] === 'new' && hashOf(f.backup) === f.before) {
      recheckStep(f, 'backup');
      restoreFromBackup(f, j.begin.id);
    } else if (states[i] !== 'old') conflicts.push(f.file);
  }
  finish(j);
  const left = conflicts.length ? `; ${conflicts.length} file(s) changed since were left as they are: ${conflicts.slice(0, 20).join(', ')}` : '';
  return outcome(j, 'rolled_back', conflicts, `${what}: rolled back — it could not be completed, so the files it had written got their backups back${left}`);
}

/**
 * A journal of this user without its `begin` line (a full disk took the first write, or its process
 * died writing it): nothing of the workspace was touched — temp files come only after `begin` is
 * fsynced — so it is removed once its process (named in the file name) is gone. Non-empty text
 * without a `begin` is left to be set aside by the caller's vetting: it is not a journal lspgate wrote.
 */
function removeIfEmpty(file: string): RecoveryOutcome | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  if (text.trim() !== '' && text.includes('\n')) return undefined;
  const pid = Number(/-(\d+)-[0-9a-f]+\.journal$/.exec(file)?.[1]);
  // this process runs its journal writes without yielding: one of its own without `begin` is not being written
  if (Number.isInteger(pid) && pid !== process.pid && processStart(pid) !== undefined) return undefined;
  rmSync(file, { force: true });
  syncDir(path.dirname(file));
  const name = path.basename(file);
  return {
    journal: name,
    operation: '',
    root: '',
    action: 'removed_empty',
    files: 0,
    conflicts: [],
    backup_dir: '',
    message: `empty apply journal ${name} removed: its process wrote nothing into it (a full disk or a crash before its first line), so no file was being written`,
  };
}

/** Removes the temp files and the journal. */
function finish(j: JournalState): void {
  for (const f of j.begin.files) rmSync(f.tmp, { force: true });
  rmSync(j.path, { force: true });
  syncDir(path.dirname(j.path));
}
