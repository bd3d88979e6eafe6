/**
 * A multi-file apply that a crash cannot leave half-done without saying so. The journal
 * (src/link/journals.ts has its format) is written and fsynced before anything else; then every old
 * content is copied to the backup directory and every new content is written to a temp file beside
 * its target, all fsynced, and the journal says `staged`; only then are the temp files renamed over
 * their targets, each rename recorded. A crash before `staged` changed nothing in the workspace (the
 * temp files are removed by recovery); a crash after it can always be completed from the temp files,
 * or rolled back from the backups (recovery.ts). Temp files carry the target's mode (and owner when
 * lspgate may set it); backups and the journal are private (0600 in 0700 directories).
 * A file the apply creates (move_file's target) has no backup and is linked into place, never over
 * a file that appeared meanwhile; a file it removes has its backup and no temp file.
 */
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  fchmodSync,
  fchownSync,
  fsyncSync,
  linkSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmdirSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';

import { diskError, LspgateError } from '../../errors/errors.js';
import { ABSENT, type JournalBegin, journalDir, type JournalFileStep, processStart } from '../../link/journals.js';
import { sha256 } from '../../util/hash.js';
import { isInside } from '../../util/paths.js';
import { createPrivateFile, mkdirPrivate } from '../../util/private-files.js';
import { refuseVcsInternals } from '../../util/vcs-internals.js';
import type { FileEdit } from './workspace-edit.js';

/** fsync of a directory: the renames and creations in it are on disk. */
export function syncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // a file system without directory fsync: the data itself was fsynced
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Writes `data` to a new file `file` with `mode` (and the owner of `like` when it is not ours), fsynced. */
export function writeDurably(file: string, data: Buffer, mode: number, like?: { uid: number; gid: number }): void {
  const fd = openSync(file, 'wx', 0o600);
  try {
    // fchmod is not narrowed by the umask: the file gets exactly the target's mode
    fchmodSync(fd, mode & 0o7777);
    if (like && typeof process.getuid === 'function' && like.uid !== process.getuid()) {
      try {
        fchownSync(fd, like.uid, like.gid);
      } catch {
        // not permitted: the file is ours, as any file we create
      }
    }
    let off = 0;
    while (off < data.length) off += writeSync(fd, data, off, data.length - off);
    fsyncSync(fd);
  } catch (e) {
    closeSync(fd);
    rmSync(file, { force: true });
    throw e;
  }
  closeSync(fd);
}

export function hashOf(file: string): string | undefined {
  try {
    return sha256(readFileSync(file));
  } catch {
    return undefined;
  }
}

/** The content hash of a journal step's target now: ABSENT when there is no file (nor link) there. */
export function stateHash(abs: string): string | undefined {
  return lstatSync(abs, { throwIfNoEntry: false }) ? hashOf(abs) : ABSENT;
}

/** The temp file of a step: beside its target (a rename never crosses file systems), named for the journal. */
export function tempPathFor(abs: string, journalId: string): string {
  return path.join(path.dirname(abs), `.${path.basename(abs)}.lspgate-${journalId}.tmp`);
}

export class ApplyJournal {
  private readonly fd: number;
  readonly path: string;
  private renamed = 0;
  /** Folders the apply made for the files it creates (deepest first): an undo or a rollback removes them again when empty. */
  readonly madeDirs: string[] = [];

  private constructor(
    readonly begin: JournalBegin,
    private readonly edits: FileEdit[],
    cacheDir: string,
  ) {
    const dir = journalDir(cacheDir);
    mkdirPrivate(dir);
    this.path = path.join(dir, `${begin.id}.journal`);
    this.fd = createPrivateFile(this.path);
    try {
      this.append(begin);
    } catch (e) {
      // a full disk takes the journal's first line: no empty journal is left for recovery to puzzle over
      closeSync(this.fd);
      rmSync(this.path, { force: true });
      throw e;
    }
    syncDir(dir);
  }

  /** The journal of one apply, durable before anything else is written. */
  static open(cacheDir: string, ws: { root: string; id: string }, operation: string, edits: FileEdit[]): ApplyJournal {
    const time = new Date().toISOString().replace(/[:.]/g, '-');
    const id = `${time}-${process.pid}-${randomBytes(3).toString('hex')}`;
    const backupDir = path.join(cacheDir, 'backups', ws.id, id);
    const files: JournalFileStep[] = edits.map((e) => {
      // every writer's last gate (their targets passed editTarget / newFileTarget, which say it first)
      refuseVcsInternals(ws.root, e.absPath, e.file);
      const backup = path.join(backupDir, e.file);
      if (!isInside(backupDir, backup)) throw new LspgateError('PATH_OUTSIDE_WORKSPACE', `${e.file} would be backed up outside ${backupDir}`, { file: e.file });
      const before = e.created ? ABSENT : sha256(Buffer.from(e.before, 'utf8'));
      const after = e.deleted ? ABSENT : sha256(Buffer.from(e.after, 'utf8'));
      return { file: e.file, abs: e.absPath, tmp: tempPathFor(e.absPath, id), backup, before, after };
    });
    const start = processStart(process.pid);
    const begin: JournalBegin = {
      t: 'begin',
      v: 1,
      id,
      root: ws.root,
      workspace: ws.id,
      operation,
      pid: process.pid,
      ...(start ? { pid_start: start } : {}),
      time: new Date().toISOString(),
      backup_dir: backupDir,
      files,
    };
    return new ApplyJournal(begin, edits, cacheDir);
  }

  private append(rec: object, sync = true): void {
    writeSync(this.fd, JSON.stringify(rec) + '\n');
    if (sync) fsyncSync(this.fd);
  }

  /** Backups and temp files written and fsynced, then `staged`: from here the apply can be completed. */
  stage(): void {
    const dirs = new Set<string>();
    for (const [i, step] of this.begin.files.entries()) {
      const edit = this.edits[i]!;
      if (edit.created) {
        this.stageCreated(step, edit.after, edit.created.mode);
        dirs.add(path.dirname(step.tmp));
        continue;
      }
      const st = statSync(step.abs);
      const old = readFileSync(step.abs);
      if (sha256(old) !== step.before) throw changedError(step.file, 0);
      mkdirPrivate(path.dirname(step.backup));
      // private, with the owner's execute bit of the original: the one place a restore takes it from (restoredMode)
      writeDurably(step.backup, old, 0o600 | (st.mode & 0o100));
      if (edit.deleted) step.mode = st.mode & 0o666;
      else writeDurably(step.tmp, Buffer.from(edit.after, 'utf8'), st.mode, st);
      dirs.add(path.dirname(step.tmp)).add(path.dirname(step.backup));
    }
    for (const d of dirs) syncDir(d);
    // the modes of the removed files, known only now, so that recovery restores them as they were
    this.append({ t: 'staged', modes: Object.fromEntries(this.begin.files.filter((f) => f.mode !== undefined).map((f) => [f.file, f.mode])) });
  }

  /** A new file: its folder made (inside the root by real path), nothing there yet, its content in the temp file. */
  private stageCreated(step: JournalFileStep, text: string, mode: number): void {
    const dir = path.dirname(step.abs);
    const first = mkdirSync(dir, { recursive: true });
    for (let d = dir; first !== undefined; d = path.dirname(d)) {
      if (!this.madeDirs.includes(d)) this.madeDirs.push(d);
      if (d === first || path.dirname(d) === d) break;
    }
    // a folder swapped for a symlink since the preview would put the file elsewhere
    if (realpathSync(dir) !== dir)
      throw new LspgateError('PATH_OUTSIDE_WORKSPACE', `the folder of ${step.file} is no longer the one the preview was made for: nothing was written`, {
        file: step.file,
      });
    if (lstatSync(step.abs, { throwIfNoEntry: false })) throw changedError(step.file, 0);
    writeDurably(step.tmp, Buffer.from(text, 'utf8'), mode);
  }

  /**
   * Moves every temp file over its target, each checked at the last moment (still the content the
   * edit was computed for, still a regular file): a file changed meanwhile rolls back what was
   * already moved and answers CONTENT_MODIFIED with nothing written.
   */
  commit(): void {
    const dirs = new Set<string>();
    for (const step of this.begin.files) {
      const st = lstatSync(step.abs, { throwIfNoEntry: false });
      const unchanged = step.before === ABSENT ? !st : st?.isFile() && hashOf(step.abs) === step.before;
      if (!unchanged) throw changedError(step.file, this.rollBack());
      try {
        moveIntoPlace(step);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'EEXIST') throw changedError(step.file, this.rollBack());
        // a rename the file system refuses (permissions, a read-only mount): undo, leave nothing behind
        const restored = this.rollBack();
        const kept = `nothing was written (${restored} file(s) restored)`;
        throw (
          diskError(e, `moving the new ${step.file} into place`, kept) ??
          new LspgateError('INTERNAL', `could not write ${step.file}: ${(e as Error).message}; ${kept}`, { file: step.file }, { cause: e })
        );
      }
      this.renamed++;
      // the page cache keeps what a killed process wrote: only the end of the renames is fsynced
      this.append({ t: 'renamed', file: step.file }, false);
      dirs.add(path.dirname(step.abs));
    }
    for (const d of dirs) syncDir(d);
    this.append({ t: 'done' });
    this.close();
  }

  /** Before `commit`: removes the temp files, the backups and the journal (nothing of the workspace was changed). */
  abandon(): void {
    for (const step of this.begin.files) removeTemp(step.tmp);
    removeEmptyDirs(this.madeDirs);
    this.dropBackups();
    this.close();
  }

  /** The files already moved get their backup back (through a temp file, then rename); returns how many. */
  private rollBack(): number {
    const moved = this.begin.files.slice(0, this.renamed);
    for (const step of moved) {
      if (step.before === ABSENT) rmSync(step.abs, { force: true });
      else restoreFromBackup(step, this.begin.id);
    }
    for (const step of this.begin.files.slice(this.renamed)) removeTemp(step.tmp);
    removeEmptyDirs(this.madeDirs);
    // every file is as before: the backups hold nothing the workspace lacks (a failed restore threw first)
    this.dropBackups();
    this.close();
    return moved.length;
  }

  /** The backup directory of an apply that changed nothing (staging may have written part of it). */
  private dropBackups(): void {
    try {
      rmSync(this.begin.backup_dir, { recursive: true, force: true });
    } catch {
      // left under the private cache; nothing of the workspace depends on it
    }
  }

  private close(): void {
    closeSync(this.fd);
    rmSync(this.path, { force: true });
    syncDir(path.dirname(this.path));
  }
}

/**
 * The step's new state in place: the temp file renamed over the target; a new file linked (link
 * fails with EEXIST where rename would replace a file that appeared since the check); a removed
 * file unlinked.
 */
export function moveIntoPlace(step: JournalFileStep): void {
  if (step.after === ABSENT) {
    rmSync(step.abs);
    return;
  }
  if (step.before !== ABSENT) {
    renameSync(step.tmp, step.abs);
    return;
  }
  try {
    linkSync(step.tmp, step.abs);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    // a file system without hard links: checked just before, renamed
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP') throw e;
    renameSync(step.tmp, step.abs);
    return;
  }
  rmSync(step.tmp, { force: true });
}

/**
 * The mode a file the apply removed gets back: the recorded bits without execute bits (a journal or
 * undo record is data that could have been planted), and execute bits only when lspgate's own backup
 * of the file has its owner's (stage() copies it there): then for each class that may read it.
 */
export function restoredMode(recorded: number | undefined, backup: string): number {
  const base = (recorded ?? 0o644) & 0o666;
  const st = lstatSync(backup, { throwIfNoEntry: false });
  if (!st?.isFile() || (process.getuid !== undefined && st.uid !== process.getuid()) || st.mode & 0o022) return base;
  return st.mode & 0o100 ? base | ((base & 0o444) >> 2) : base;
}

/** Folders (deepest first) removed where empty: what an apply made for a new file, once that file is gone. */
export function removeEmptyDirs(dirs: readonly string[]): void {
  for (const d of dirs) {
    try {
      rmdirSync(d);
    } catch {
      // not empty (someone put a file there), or gone: left as it is
    }
  }
}

/** The old content back in place, byte for byte, with the file's current mode (a removed file: restoredMode). */
export function restoreFromBackup(step: JournalFileStep, journalId: string): void {
  const st = statSync(step.abs, { throwIfNoEntry: false }) ?? { mode: restoredMode(step.mode, step.backup), uid: -1, gid: -1 };
  const tmp = tempPathFor(step.abs, `${journalId}-restore`);
  rmSync(tmp, { force: true });
  writeDurably(tmp, readFileSync(step.backup), st.mode, st.uid >= 0 ? st : undefined);
  renameSync(tmp, step.abs);
  syncDir(path.dirname(step.abs));
}

/**
 * Removes a temp file if there is one. Not rmSync's `force` alone: on a read-only mount unlink
 * answers EROFS even for a name that does not exist (the mount is checked before the name), and
 * that error would hide the one that made the apply stop.
 */
function removeTemp(file: string): void {
  if (lstatSync(file, { throwIfNoEntry: false })) rmSync(file, { force: true });
}

function changedError(file: string, restored: number): LspgateError {
  const undone = restored ? ` (${restored} file(s) already written were restored from their backups)` : '';
  return new LspgateError('CONTENT_MODIFIED', `${file} changed while the edit was being written: nothing was written${undone}; preview again`, { file });
}
