/**
 * The lines a working tree changed against a git ref: `git diff -U0` hunks (tracked files) plus
 * untracked files (wholly added). Only the new side is kept, as line sets per file, with the places
 * where lines were removed (a deletion sits between two new-side lines).
 */
import { LspgateError } from '../../errors/errors.js';
import { runGit } from '../../util/git.js';

export interface FileChange {
  /** Workspace-relative path (new side). */
  file: string;
  /** 1-based new-side lines added or rewritten. */
  added: Set<number>;
  /** New-side line after which lines were removed (0 = before the first line), with how many. */
  removed: Map<number, number>;
  /** The file did not exist at the ref (untracked, or added since). */
  new_file: boolean;
  /** The file exists at the ref and not in the working tree (`file` is its path at the ref). */
  deleted_file?: boolean;
  /** Old-side lines (at the ref) each hunk removed or rewrote: `old_start`, `old_count` (1-based). */
  hunks: { old_start: number; old_count: number; new_start: number; new_count: number }[];
}

/** A ref as git takes it, never an option (`--output=…`) or a path outside the repository. */
const REF = /^(?!-)[\w./~^@{}:+-]{1,200}$/;
const HUNK = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

async function git(root: string, args: string[]): Promise<string> {
  const r = await runGit(args, { cwd: root, timeout: 30_000, maxBuffer: 64 * 1024 * 1024 });
  if (r.exitCode !== 0) throw Object.assign(new Error(r.stderr || `git ${args[0]} failed`), { exitCode: r.exitCode });
  return r.stdout;
}

export async function changedLines(root: string, baseRef: string): Promise<FileChange[]> {
  if (!REF.test(baseRef)) throw new LspgateError('INVALID_INPUT', `not a git ref: ${baseRef.slice(0, 200)}`, { base_ref: baseRef });
  try {
    await git(root, ['rev-parse', '--show-toplevel']);
  } catch {
    throw new LspgateError('NOT_SUPPORTED', 'the workspace is not inside a git repository: changed symbols need git', { root });
  }
  try {
    await git(root, ['rev-parse', '--verify', '--quiet', `${baseRef}^{commit}`]);
  } catch {
    throw new LspgateError('INVALID_INPUT', `git knows no commit ${baseRef}`, { base_ref: baseRef });
  }
  const diff = await git(root, ['diff', '--no-color', '--no-renames', '-U0', '--relative', baseRef, '--', '.']);
  const out = parseDiff(diff);
  const untracked = await git(root, ['ls-files', '--others', '--exclude-standard', '-z', '--', '.']);
  for (const file of untracked.split('\0').filter(Boolean)) out.push({ file, added: new Set(), removed: new Map(), new_file: true, hunks: [] });
  return out.sort((a, b) => a.file.localeCompare(b.file));
}

/** The file's text at the ref, or undefined when git has no such file there. */
export async function textAtRef(root: string, baseRef: string, file: string): Promise<string | undefined> {
  if (!REF.test(baseRef)) throw new LspgateError('INVALID_INPUT', `not a git ref: ${baseRef.slice(0, 200)}`, { base_ref: baseRef });
  try {
    // `./` makes the path relative to the working directory (the workspace), as `--relative` did;
    // `cat-file blob`, not `show`: it never runs a textconv driver or filter the repository names
    return await git(root, ['cat-file', 'blob', `${baseRef}:./${file}`]);
  } catch {
    return undefined;
  }
}

/**
 * `git diff -U0` text → changes per file: new-side lines, and each hunk's old-side lines (a deleted
 * file is listed by its old path with `deleted_file`: its declarations are gone).
 */
export function parseDiff(diff: string): FileChange[] {
  const out: FileChange[] = [];
  let cur: FileChange | undefined;
  let oldName: string | undefined;
  for (const line of diff.split('\n')) {
    if (line.startsWith('diff --git ')) {
      cur = undefined;
      oldName = undefined;
      continue;
    }
    if (line.startsWith('--- ') && cur === undefined) {
      oldName = line.slice(4) === '/dev/null' ? undefined : line.slice(4).replace(/^a\//, '');
      continue;
    }
    if (line.startsWith('+++ ') && cur === undefined) {
      const name = line.slice(4);
      const gone = name === '/dev/null';
      if (gone && oldName === undefined) continue;
      cur = { file: gone ? oldName! : name.replace(/^b\//, ''), added: new Set(), removed: new Map(), new_file: false, hunks: [] };
      if (gone) cur.deleted_file = true;
      out.push(cur);
      continue;
    }
    const m = HUNK.exec(line);
    if (!m || !cur) continue;
    const oldCount = m[2] === undefined ? 1 : Number(m[2]);
    const newStart = Number(m[3]);
    const newCount = m[4] === undefined ? 1 : Number(m[4]);
    cur.hunks.push({ old_start: Number(m[1]), old_count: oldCount, new_start: newStart, new_count: newCount });
    if (cur.deleted_file) continue;
    if (oldCount === 0 && Number(m[1]) === 0 && newStart === 1) cur.new_file = true;
    for (let l = newStart; l < newStart + newCount; l++) cur.added.add(l);
    // With -U0 a pure deletion names the new-side line before it (`+12,0`); a rewrite's removed lines sit in its span.
    if (newCount === 0 && oldCount > 0) cur.removed.set(newStart, (cur.removed.get(newStart) ?? 0) + oldCount);
  }
  return out;
}
