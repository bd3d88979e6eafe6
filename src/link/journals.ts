/**
 * The journals of multi-file applies (rename, tag_elements, code actions), as a process that did not
 * write them reads them: the thin client whose daemon died mid-call says what the journal says was
 * written, and recovery finds the journals of a workspace. Node builtins only (the thin client loads
 * nothing else). A journal is `<cacheDir>/journals/<id>.journal`, one JSON record a line:
 *   begin   — the root, the operation, the owner process, and per file its path, temp file, backup,
 *             sha256 before and after (ABSENT for a file created or removed: a moved file is both,
 *             at its two paths), written and fsynced before any temp file;
 *   staged  — every new content is in its temp file and every backup is written, all fsynced: from
 *             here on the apply can be completed (with the modes of the files it removes);
 *   renamed — one per file moved into place (or removed);
 *   done    — the journal is then removed.
 * A torn last line (the process died while appending) is ignored.
 */
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export interface JournalFileStep {
  /** Workspace-relative path. */
  file: string;
  /** Real absolute path written. */
  abs: string;
  /** The temp file beside it that holds the new content. */
  tmp: string;
  /** The copy of the old content. */
  backup: string;
  /** sha256 (hex) of the old and the new bytes; ABSENT for a file the apply creates (before) or removes (after). */
  before: string;
  after: string;
  /** The mode of a file the apply removes: it is restored with it. */
  mode?: number;
}

/**
 * The "hash" of a file that does not exist: a file move_file creates has it before, the file it
 * moves away has it after. Not a hex digest, so no content can have it.
 */
export const ABSENT = 'absent';

export interface JournalBegin {
  t: 'begin';
  v: 1;
  id: string;
  root: string;
  workspace: string;
  operation: string;
  pid: number;
  /** The owner's start time (/proc/<pid>/stat field 22): a pid reused by another process is not the owner. */
  pid_start?: string;
  time: string;
  backup_dir: string;
  files: JournalFileStep[];
}

export interface JournalState {
  path: string;
  begin: JournalBegin;
  staged: boolean;
  renamed: Set<string>;
  done: boolean;
}

export function journalDir(cacheDir: string): string {
  return path.join(cacheDir, 'journals');
}

export function readJournal(file: string): JournalState | undefined {
  let text: string;
  try {
    // a link or another user's file is no journal of this user's (recovery sets those aside)
    const st = lstatSync(file);
    if (!st.isFile() || (process.getuid && st.uid !== process.getuid())) return undefined;
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  let state: JournalState | undefined;
  for (const line of text.split('\n')) {
    let rec: { t?: unknown; file?: unknown; modes?: unknown };
    try {
      rec = JSON.parse(line) as { t?: unknown; file?: unknown; modes?: unknown };
    } catch {
      continue; // a torn last line
    }
    if (rec.t === 'begin') state = { path: file, begin: rec as JournalBegin, staged: false, renamed: new Set(), done: false };
    else if (!state) return undefined;
    else if (rec.t === 'staged') {
      state.staged = true;
      const modes = rec.modes && typeof rec.modes === 'object' ? (rec.modes as Record<string, unknown>) : {};
      for (const f of state.begin.files ?? []) {
        const m = modes[f.file];
        if (typeof m === 'number' && Number.isInteger(m)) f.mode = m & 0o777;
      }
    } else if (rec.t === 'renamed' && typeof rec.file === 'string') state.renamed.add(rec.file);
    else if (rec.t === 'done') state.done = true;
  }
  return state;
}

/** The journal files under the cache dir, oldest name first; none when the folder does not exist. */
export function journalFiles(cacheDir: string): string[] {
  const dir = journalDir(cacheDir);
  try {
    return readdirSync(dir)
      .filter((n) => n.endsWith('.journal'))
      .sort()
      .map((n) => path.join(dir, n));
  } catch {
    return [];
  }
}

/** Every readable journal under the cache dir, or those of one root (real path). */
export function listJournals(cacheDir: string, root?: string): JournalState[] {
  const out: JournalState[] = [];
  for (const file of journalFiles(cacheDir)) {
    const j = readJournal(file);
    if (j && (root === undefined || j.begin.root === root)) out.push(j);
  }
  return out;
}

/**
 * The start time of a running process (/proc/<pid>/stat field 22); undefined when there is no such
 * process or it is a zombie (a SIGKILLed daemon stays one until its parent — init, or a container's
 * first process that may never reap it — collects it: it runs no more code).
 */
export function processStart(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // the command name is in parentheses and may hold spaces: fields count from after the last ')'
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[0] === 'Z' || fields[0] === 'X' ? undefined : fields[19];
  } catch {
    return undefined;
  }
}

/** Whether the process that wrote the journal still runs (then its apply is in progress, not crashed). */
export function ownerAlive(begin: JournalBegin): boolean {
  const start = processStart(begin.pid);
  return start !== undefined && (begin.pid_start === undefined || begin.pid_start === start);
}

export interface JournalSummary {
  journal: string;
  operation: string;
  root: string;
  /** writing: temp files only, nothing of the workspace changed; renaming: files were being moved into place. */
  state: 'writing' | 'renaming';
  files: number;
  /** Files the journal records as moved into place. */
  written: number;
  written_files: string[];
  backup_dir: string;
}

/** What each unfinished journal (of `root`, of process `pid`, when given) says was written, for an answer or a log. */
export function journalSummaries(cacheDir: string, only: { root?: string; pid?: number } = {}): JournalSummary[] {
  return listJournals(cacheDir, only.root)
    .filter((j) => !j.done && (only.pid === undefined || j.begin.pid === only.pid))
    .map((j) => ({
      journal: path.basename(j.path),
      operation: j.begin.operation,
      root: j.begin.root,
      state: j.staged ? 'renaming' : 'writing',
      files: j.begin.files.length,
      written: j.renamed.size,
      written_files: [...j.renamed].slice(0, 20),
      backup_dir: j.begin.backup_dir,
    }));
}

/** One sentence per summary: what a caller who lost the daemon mid-call needs to know. */
export function describeJournals(list: JournalSummary[]): string {
  if (!list.length) return 'no apply journal was left: no file was being written';
  return list
    .map((s) =>
      s.state === 'writing'
        ? `${s.operation} in ${s.root} was writing its temp files: none of its ${s.files} file(s) was changed`
        : `${s.operation} in ${s.root} had moved ${s.written} of ${s.files} file(s) into place; the next start of that workspace (or \`lspgate recover --root ${s.root}\`) completes it or rolls it back (backups: ${s.backup_dir})`,
    )
    .join('; ');
}
