/**
 * Which apply journals recovery may carry out: only those provably this user's own. Recovery runs
 * with the user's rights and moves files over files, so a journal is a list of writes someone asked
 * for — and another local user who could write into the cache (a cache dir they owned or could
 * write, or one the user later chmod'ed to 0700 with their files still inside) could plant one naming
 * ~/.bashrc as its target and their own file as its temp. A journal is acted on only when:
 *   - the journal is a regular file (no link followed) of this user that no one else can write;
 *   - its root is a real directory path, and every target is a regular file inside that root by real
 *     path and outside VCS and tool internals — the same gate an edit's target passes
 *     (editTargetOfPath: no symlink, no secret, no `.git`);
 *   - every temp file is the one lspgate names beside its target, and every backup lies in this
 *     cache's backups/<workspace>/<journal id>/ — each, where it exists, a regular file of this user
 *     (a temp may also have the target's owner: lspgate running as root gives the temp the owner of
 *     the file it replaces).
 * Anything else is set aside (moved to journals-set-aside/ in the cache, never read again) with the
 * reason; nothing of it is applied.
 */
import { lstatSync, realpathSync, renameSync, type Stats } from 'node:fs';
import path from 'node:path';

import { journalDir, type JournalFileStep, type JournalState } from '../../link/journals.js';
import { isInside } from '../../util/paths.js';
import { mkdirPrivate } from '../../util/private-files.js';
import { vcsInternalsOf } from '../../util/vcs-internals.js';
import { tempPathFor } from './apply-journal.js';
import { editTargetOfPath } from './workspace-edit.js';

const uid = (): number | undefined => process.getuid?.();

/** Why the journal file itself is not this user's private file; undefined when it is. */
export function journalFileProblem(file: string): string | undefined {
  const st = lstatSync(file, { throwIfNoEntry: false });
  if (!st) return 'it is gone';
  return ownFileProblem(st, 'the journal');
}

/** Why a file is not a regular file of this user (or of `alsoUid`) that no one else can write; undefined when it is. */
export function ownFileProblem(st: Stats, what: string, alsoUid?: number): string | undefined {
  if (!st.isFile()) return `${what} is not a regular file (a symlink or special file)`;
  const me = uid();
  if (me !== undefined && st.uid !== me && st.uid !== alsoUid) return `${what} belongs to uid ${st.uid}, not to this user (uid ${me})`;
  if (st.mode & 0o022) return `${what} is writable by group or others (mode ${(st.mode & 0o777).toString(8).padStart(4, '0')})`;
  return undefined;
}

function realOrUndefined(p: string): string | undefined {
  try {
    return realpathSync(p);
  } catch {
    return undefined;
  }
}

/** Why the journal's paths are not all inside its root and this cache, owned by this user; undefined when they are. */
export function journalPathsProblem(j: JournalState, cacheDir: string): string | undefined {
  const { id, root, workspace, backup_dir: backupDir, files } = j.begin;
  if (typeof id !== 'string' || `${id}.journal` !== path.basename(j.path) || !/^[\w.-]+$/.test(id)) return 'its id is not its file name';
  if (typeof root !== 'string' || !path.isAbsolute(root) || realOrUndefined(root) !== root) return `its root ${String(root)} is not a real directory path`;
  if (typeof workspace !== 'string' || !/^[^/\\]+$/.test(workspace) || workspace === '..' || workspace === '.') return 'its workspace id is not a plain name';
  const caches = new Set([path.resolve(cacheDir), realOrUndefined(cacheDir) ?? path.resolve(cacheDir)]);
  if (![...caches].some((c) => path.join(c, 'backups', workspace, id) === backupDir))
    return `its backup directory ${String(backupDir)} is not this cache's backups/${workspace}/${id}`;
  if (!Array.isArray(files) || !files.length) return 'it lists no file';
  for (const step of files) {
    const problem = stepProblem(step, root, id, backupDir);
    if (problem) return `${typeof step?.file === 'string' ? step.file : 'a file'}: ${problem}`;
  }
  return undefined;
}

function stepProblem(step: JournalFileStep, root: string, id: string, backupDir: string): string | undefined {
  if (typeof step?.file !== 'string' || typeof step.abs !== 'string' || typeof step.tmp !== 'string' || typeof step.backup !== 'string')
    return 'a path is missing';
  if (path.join(root, step.file) !== step.abs || !isInside(root, step.abs) || step.abs === root) return `the target ${step.abs} is not inside the root ${root}`;
  const internals = vcsInternalsOf(root, step.abs);
  if (internals !== undefined) return `the target ${step.abs} is inside ${internals} (VCS or tool internals), where lspgate never writes`;
  const target = lstatSync(step.abs, { throwIfNoEntry: false });
  if (target) {
    // the edit path's own gate: a regular file inside the root by real path, no secret
    let real: string;
    try {
      real = editTargetOfPath(root, step.abs).abs;
    } catch (e) {
      return `the target is refused: ${(e as Error).message}`;
    }
    if (real !== step.abs) return `the target ${step.abs} is reached through a symlink (its real path is ${real})`;
  } else if (realOrUndefined(path.dirname(step.abs)) !== path.dirname(step.abs)) {
    return `the target's folder ${path.dirname(step.abs)} is not a real path inside the root`;
  }
  if (step.tmp !== tempPathFor(step.abs, id)) return `its temp file ${step.tmp} is not the one lspgate puts beside the target`;
  if (step.backup !== path.join(backupDir, step.file) || !isInside(backupDir, step.backup))
    return `its backup ${step.backup} is not in the journal's backup directory`;
  const tmp = lstatSync(step.tmp, { throwIfNoEntry: false });
  const tmpProblem = tmp && ownFileProblem(tmp, 'the temp file', target?.uid);
  if (tmpProblem) return tmpProblem;
  const backup = lstatSync(step.backup, { throwIfNoEntry: false });
  return backup ? ownFileProblem(backup, 'the backup') : undefined;
}

/**
 * Checked again right before a temp file is moved over its target (or a backup restored): the
 * folder is still the real one and the source still this user's regular file — a symlink planted
 * after the first check is not followed. Throws when not.
 */
export function recheckStep(step: JournalFileStep, source: 'tmp' | 'backup'): void {
  const dir = path.dirname(step.abs);
  if (realOrUndefined(dir) !== dir) throw new Error(`${dir} changed into a symlink during recovery`);
  const target = lstatSync(step.abs, { throwIfNoEntry: false });
  if (target && !target.isFile()) throw new Error(`${step.abs} changed into a non-regular file during recovery`);
  const st = lstatSync(step[source], { throwIfNoEntry: false });
  const problem = st
    ? ownFileProblem(st, source === 'tmp' ? 'the temp file' : 'the backup', source === 'tmp' ? target?.uid : undefined)
    : `the ${source} file is gone`;
  if (problem) throw new Error(`${step.file}: ${problem} (changed during recovery)`);
}

/** Where set-aside journals go: out of journals/, kept for the user to look at. */
export function setAsideDir(cacheDir: string): string {
  return path.join(cacheDir, 'journals-set-aside');
}

/** Moves a journal out of journals/ so it is never read again; answers where it went (undefined: it could not be moved). */
export function setAside(cacheDir: string, file: string): string | undefined {
  if (path.dirname(file) !== journalDir(cacheDir)) return undefined;
  return moveAside(setAsideDir(cacheDir), file, path.basename(file));
}

/** Moves a file the vetting refused into the private folder `dir` as `name` plus the time; where it went, or undefined. */
export function moveAside(dir: string, file: string, name: string): string | undefined {
  try {
    mkdirPrivate(dir);
    const to = path.join(dir, `${name}.${Date.now()}`);
    renameSync(file, to);
    return to;
  } catch {
    return undefined;
  }
}
