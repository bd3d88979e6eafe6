/**
 * Files changed since HEAD (git: modified, added, renamed, untracked; deleted ones have nothing to
 * diagnose), and files changed since the last get_diagnostics answers of a workspace (by content hash).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

import type { Derived, DerivedKey } from '../../core/catalog.js';
import type { Workspace } from '../../core/workspace.js';
import { sha256 } from '../../lsp/documents.js';
import { ENTRY_OVERHEAD, stringBytes } from '../../util/bounded-memo.js';
import { runGit } from '../../util/git.js';

/** Absolute paths, or undefined when the root is not in a git work tree. */
export async function gitChangedFiles(root: string, signal?: AbortSignal): Promise<string[] | undefined> {
  // -z: paths verbatim (no quoting of unusual names); -uall: untracked files one by one, not their directory.
  const r = await runGit(['status', '--porcelain=v1', '-z', '-uall', '--', '.'], { cwd: root, timeout: 10_000, signal });
  if (r.exitCode !== 0) return undefined;
  const top = await runGit(['rev-parse', '--show-toplevel'], { cwd: root, timeout: 5000 });
  if (top.exitCode !== 0) return undefined;
  const base = top.stdout.trim();
  const out: string[] = [];
  const fields = r.stdout.split('\0');
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i]!;
    if (f.length < 4) continue;
    const status = f.slice(0, 2);
    // A rename or copy is followed by its source path in the next field.
    if (status[0] === 'R' || status[0] === 'C') i++;
    if (status.includes('D')) continue;
    out.push(path.join(base, f.slice(3)));
  }
  return out;
}

/**
 * Content hashes of the files a workspace's get_diagnostics answers covered: derived state of the
 * workspace (its catalog's DerivedState, dropped with it), one hash per file the answers named.
 */
class Answered implements Derived {
  readonly hashes = new Map<string, string>();

  bytes(): number {
    let n = 0;
    for (const [abs, hash] of this.hashes) n += stringBytes(abs) + stringBytes(hash) + ENTRY_OVERHEAD;
    return n;
  }
}

const ANSWERED: DerivedKey<Answered> = { name: 'diagnostics_answered' };

export function rememberAnswered(ws: Workspace, files: { absPath: string; hash: string }[]): void {
  const m = ws.catalog.derived.get(ANSWERED, () => new Answered()).hashes;
  for (const f of files) m.set(f.absPath, f.hash);
}

/** Files answered before whose content differs now (or that are gone: left out). */
export function changedSinceAnswered(ws: Workspace): string[] {
  const m = ws.catalog.derived.peek(ANSWERED)?.hashes;
  if (!m) return [];
  const out: string[] = [];
  for (const [abs, hash] of m) {
    let text: string;
    try {
      text = readFileSync(abs, 'utf8');
    } catch {
      m.delete(abs);
      continue;
    }
    if (sha256(text) !== hash) out.push(abs);
  }
  return out;
}
