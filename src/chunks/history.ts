/**
 * The history corpus (seed 004's `commit_message`, `pr_background`, `pr_solution` kinds and
 * `recent_prs`), read from the repository's own history with `git log` through util/git.ts (the
 * reader's safe flags; never a network call), bounded: the last MAX_COMMITS commits and the last
 * MAX_MERGES first-parent merges, each message cut at MAX_MESSAGE characters.
 * A pull request is a merge commit titled `Merge pull request #N from …` (its title is the body's
 * first line, its description the rest) or a squashed commit whose subject ends `(#N)`: its
 * `pr_background` chunk holds the title and description (why), its `pr_solution` chunk the title and
 * the files it changed (what). Each PR is a PRRef on every file it touched (recent_prs, newest
 * first). History chunks cite their commit (commit_hash) at the pseudo-path `:git-log`: they quote
 * no file's lines, and a commit's message never goes stale.
 */
import { runGit } from '../util/git.js';
import { chunkId, contentSha256 } from './ids.js';
import type { Chunk, PRRef } from './types.js';

export const HISTORY_FILE = ':git-log';
export const MAX_COMMITS = 500;
const MAX_MERGES = 200;
const MAX_MESSAGE = 8_000;
const MAX_FILES_SHOWN = 50;
/** PRs kept per file on recent_prs (newest first). */
export const MAX_RECENT_PRS = 5;

export interface Commit {
  hash: string;
  parents: string[];
  /** ISO 8601 UTC. */
  committed_at_utc: string;
  subject: string;
  body: string;
  files: string[];
}

export interface PullRequest extends PRRef {
  commit: Commit;
  description: string;
}

export interface History {
  chunks: Chunk[];
  /** File → the PRs that touched it, newest first. */
  recentPrs: Map<string, PRRef[]>;
  commits: number;
  prs: number;
}

const FORMAT = '--format=%x1e%H%x1f%P%x1f%cI%x1f%B%x1f';

/** `git log -z --name-only` with FORMAT, parsed. */
export function parseLog(out: string): Commit[] {
  const commits: Commit[] = [];
  for (const rec of out.split('\x1e')) {
    const parts = rec.split('\x1f');
    if (parts.length < 5 || !/^[0-9a-f]{40,64}$/.test(parts[0]!)) continue;
    const [hash, parents, date, message] = parts as [string, string, string, string];
    const files = parts
      .slice(4)
      .join('')
      .split('\0')
      .map((f) => f.replace(/^\n/, ''))
      .filter((f) => f !== '');
    const text = message.slice(0, MAX_MESSAGE).trim();
    const nl = text.indexOf('\n');
    const when = new Date(date);
    commits.push({
      hash,
      parents: parents.split(' ').filter(Boolean),
      committed_at_utc: Number.isNaN(when.getTime()) ? '' : when.toISOString(),
      subject: nl < 0 ? text : text.slice(0, nl),
      body: nl < 0 ? '' : text.slice(nl + 1).trim(),
      files,
    });
  }
  return commits;
}

/** The pull request a commit records, if it is a PR merge or a squashed PR. */
export function pullRequestOf(c: Commit): PullRequest | undefined {
  const merge = /^Merge pull request #(\d+)\b/.exec(c.subject);
  if (merge && c.parents.length > 1) {
    const [title = '', ...rest] = c.body.split('\n');
    return { number: Number(merge[1]), title: title.trim() || c.subject, merged_at_utc: c.committed_at_utc, commit: c, description: rest.join('\n').trim() };
  }
  const squash = /^(.*\S)\s+\(#(\d+)\)$/.exec(c.subject);
  if (squash && c.parents.length === 1)
    return { number: Number(squash[2]), title: squash[1]!, merged_at_utc: c.committed_at_utc, commit: c, description: c.body };
  return undefined;
}

function historyChunk(kind: Chunk['chunk_kind'], c: Commit, text: string, name: string): Chunk {
  const sha = contentSha256(text);
  return {
    id: chunkId(HISTORY_FILE, 1, 1, contentSha256(`${kind}\n${c.hash}\n${sha}`)),
    file: HISTORY_FILE,
    start_line: 1,
    end_line: 1,
    language: 'git',
    is_test: false,
    symbol_name: name,
    chunk_kind: kind,
    commit_hash: c.hash,
    content_sha256: sha,
    text,
    committed_at_utc: c.committed_at_utc,
  };
}

function filesLine(files: readonly string[]): string {
  const shown = files.slice(0, MAX_FILES_SHOWN).join(', ');
  return files.length > MAX_FILES_SHOWN ? `${shown} and ${files.length - MAX_FILES_SHOWN} more` : shown;
}

/** The chunks and recent_prs of the commits (newest first) and first-parent merges (with the files each changed). */
export function historyOf(commits: readonly Commit[], merges: readonly Commit[]): History {
  const chunks: Chunk[] = [];
  for (const c of commits) {
    const text = [c.subject, c.body, c.files.length ? `Files: ${filesLine(c.files)}` : ''].filter(Boolean).join('\n\n');
    chunks.push(historyChunk('commit_message', c, text, c.subject.slice(0, 200)));
  }
  const mergeFiles = new Map(merges.map((m) => [m.hash, m.files]));
  const recentPrs = new Map<string, PRRef[]>();
  const seen = new Set<number>();
  let prs = 0;
  for (const c of [...commits, ...merges.filter((m) => !commits.some((x) => x.hash === m.hash))]) {
    const pr = pullRequestOf(c);
    if (!pr || seen.has(pr.number)) continue;
    seen.add(pr.number);
    prs++;
    const files = mergeFiles.get(c.hash) ?? c.files;
    const name = `PR #${pr.number}: ${pr.title}`.slice(0, 200);
    chunks.push(historyChunk('pr_background', c, [name, pr.description].filter(Boolean).join('\n\n'), name));
    chunks.push(historyChunk('pr_solution', c, `${name}\n\nChanged: ${filesLine(files) || '(no files listed)'}`, name));
    const ref: PRRef = { number: pr.number, title: pr.title, merged_at_utc: pr.merged_at_utc };
    for (const f of files) {
      const list = recentPrs.get(f) ?? [];
      if (list.length < MAX_RECENT_PRS) list.push(ref);
      recentPrs.set(f, list);
    }
  }
  return { chunks, recentPrs, commits: commits.length, prs };
}

/** The repository's recent history at `root`; a message naming why when git could not read it. */
export async function readHistory(root: string): Promise<History | { problem: string }> {
  const opts = { cwd: root, timeout: 30_000, maxBuffer: 32 * 1024 * 1024 };
  // `--relative` and `-- .`: the workspace's own history with its paths, when it is a folder of a larger repository;
  // `--full-history`: a --no-ff merge is the same tree as its branch, and the pathspec would hide it
  const log = await runGit(
    ['log', `-n${MAX_COMMITS}`, '-z', '--full-history', '--name-only', '--relative', '--no-color', '--no-renames', FORMAT, '--', '.'],
    opts,
  );
  if (log.exitCode !== 0) return { problem: `git log failed (${log.shortMessage}): no history chunks` };
  const merges = await runGit(
    ['log', `-n${MAX_MERGES}`, '-z', '--merges', '--first-parent', '-m', '--name-only', '--relative', '--no-color', '--no-renames', FORMAT, '--', '.'],
    opts,
  );
  if (merges.exitCode !== 0) return { problem: `git log --merges failed (${merges.shortMessage}): no history chunks` };
  return historyOf(
    parseLog(log.stdout),
    parseLog(merges.stdout).filter((m) => m.files.length > 0),
  );
}
