/**
 * Which undo records `undo` may act on: only those provably this user's own, as recovery vets its
 * journals (journal-vetting.ts). An undo writes backups over files with the user's rights, so a
 * record is a list of writes someone asked for — and another local user who could write into the
 * cache (while it was writable, left behind after a `chmod 700`) could plant one whose "backup" is
 * their file and whose target is a git hook. A record is acted on only when:
 *   - it is a regular file (no link followed) of this user that no one else can write;
 *   - it is the record its name says, of this workspace's root, with this cache's backup directory;
 *   - every target is inside that root and outside VCS and tool internals, and every folder it
 *     names (made by a move) too;
 *   - every backup lies in that backup directory by real path, a regular file of this user that no
 *     one else can write, and every hash is a hash;
 *   - a removed file's mode has no execute bits (lspgate records none: they come from its own backup).
 * Anything else is set aside (moved to records-set-aside/ in the cache, never read again) with the
 * reason, which the answer gives.
 */
import { lstatSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';

import { ABSENT } from '../../link/journals.js';
import { isInside } from '../../util/paths.js';
import { vcsInternalsOf } from '../../util/vcs-internals.js';
import { type AppliedRecord, SUFFIX } from './applied-records.js';
import { moveAside, ownFileProblem } from './journal-vetting.js';

export interface RecordPlace {
  cacheDir: string;
  workspaceId: string;
  root: string;
}

export type Vetted = { rec: AppliedRecord } | { problem: string };

const HASH = /^[0-9a-f]{64}$/;

function real(p: string): string | undefined {
  try {
    return realpathSync(p);
  } catch {
    return undefined;
  }
}

/** The record in `file` when it may be acted on, else why not. */
export function vetRecord(file: string, place: RecordPlace): Vetted {
  const st = lstatSync(file, { throwIfNoEntry: false });
  if (!st) return { problem: 'it is gone' };
  const own = ownFileProblem(st, 'the record');
  if (own) return { problem: own };
  let rec: AppliedRecord;
  try {
    rec = JSON.parse(readFileSync(file, 'utf8')) as AppliedRecord;
  } catch {
    return { problem: 'it is not a record (not JSON)' };
  }
  const problem = recordProblem(rec, path.basename(file), place);
  return problem ? { problem } : { rec };
}

function recordProblem(rec: AppliedRecord, name: string, place: RecordPlace): string | undefined {
  if (typeof rec !== 'object' || rec === null || rec.v !== 1) return 'it is not a version 1 record';
  const { id, root, backup_dir: backupDir, files, dirs } = rec;
  if (typeof id !== 'string' || !/^[\w.-]+$/.test(id) || `${id}${SUFFIX}` !== name) return 'its id is not its file name';
  if (root !== place.root) return `its root ${String(root)} is not this workspace's (${place.root})`;
  if (typeof rec.operation !== 'string' || typeof rec.time !== 'string') return 'its operation or time is missing';
  const caches = [path.resolve(place.cacheDir), real(place.cacheDir)].filter((c): c is string => c !== undefined);
  if (!caches.some((c) => path.join(c, 'backups', place.workspaceId, id) === backupDir))
    return `its backup directory ${String(backupDir)} is not this cache's backups/${place.workspaceId}/${id}`;
  if (!Array.isArray(files) || !files.length) return 'it lists no file';
  const realBackups = caches.map((c) => path.join(c, 'backups', place.workspaceId, id));
  for (const f of files) {
    const problem = fileProblem(f, root, backupDir, realBackups);
    if (problem) return `${typeof f?.file === 'string' ? f.file : 'a file'}: ${problem}`;
  }
  if (dirs !== undefined && (!Array.isArray(dirs) || dirs.some((d) => dirProblem(d, root))))
    return `a folder it names is not a plain folder inside the root outside VCS internals (${JSON.stringify(dirs).slice(0, 200)})`;
  return undefined;
}

function fileProblem(f: AppliedRecord['files'][number], root: string, backupDir: string, realBackups: string[]): string | undefined {
  if (typeof f?.file !== 'string' || typeof f.abs !== 'string' || typeof f.backup !== 'string') return 'a path is missing';
  if (path.join(root, f.file) !== f.abs || !isInside(root, f.abs) || f.abs === root) return `the target ${f.abs} is not inside the root ${root}`;
  const internals = vcsInternalsOf(root, f.abs);
  if (internals !== undefined) return `the target ${f.abs} is inside ${internals} (VCS or tool internals), where lspgate never writes`;
  const hashes = [f.before, f.after];
  if (hashes.some((h) => h !== ABSENT && !(typeof h === 'string' && HASH.test(h))) || hashes.every((h) => h === ABSENT)) return 'its hashes are not hashes';
  if (f.mode !== undefined && (!Number.isInteger(f.mode) || f.mode & ~0o666))
    return `its mode ${typeof f.mode === 'number' ? f.mode.toString(8) : String(f.mode)} has bits lspgate never records (execute, setuid): a mode is restored only from lspgate's own backup`;
  if (f.backup !== path.join(backupDir, f.file) || !isInside(backupDir, f.backup)) return `its backup ${f.backup} is not in the record's backup directory`;
  if (f.before === ABSENT) return undefined;
  const st = lstatSync(f.backup, { throwIfNoEntry: false });
  if (!st) return `its backup ${f.backup} is gone`;
  const own = ownFileProblem(st, 'its backup');
  if (own) return own;
  const at = real(f.backup);
  if (at === undefined || !realBackups.some((b) => isInside(b, at))) return `its backup ${f.backup} lies outside the cache by real path (${String(at)})`;
  return undefined;
}

function dirProblem(d: unknown, root: string): boolean {
  if (typeof d !== 'string' || !d || path.isAbsolute(d) || path.normalize(d) !== d) return true;
  const abs = path.join(root, d);
  return !isInside(root, abs) || abs === root || vcsInternalsOf(root, abs) !== undefined;
}

/** Where set-aside undo records go: out of the records' folder, kept for the user to look at. */
export function recordsAsideDir(cacheDir: string): string {
  return path.join(cacheDir, 'records-set-aside');
}

/** Moves a record out of the records' folder so it is never read again; answers where it went (undefined: it could not be moved). */
export function setRecordAside(cacheDir: string, file: string): string | undefined {
  return moveAside(recordsAsideDir(cacheDir), file, `${path.basename(path.dirname(file))}-${path.basename(file)}`);
}
