/**
 * Undo records planted in a workspace's records folder (`<cache>/backups/<workspace id>/`), as
 * lspgate writes them (`genuine`) and as another local user or a tampered cache would leave them:
 * writable by others, a backup outside the cache (through a symlinked backup folder), a target in
 * `.git/hooks` (the undo would create an executable hook), a removed file's mode with execute bits,
 * another root. Shared by test/unit/undo-records.test.ts, test/integration/undo-planted.test.ts and
 * `npm run redteam`. The polyglot is valid JavaScript and valid shell: git would run it as a hook.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

import { workspaceId } from '../../src/gateway/gateway.js';

export const POLYGLOT = '//bin/true; exec echo pwned-by-lspgate\nconsole.log("a tool");\n';

export const PLANTS = ['genuine', 'group-writable', 'backup-outside', 'target-in-git', 'mode-exec', 'other-root'] as const;
export type Plant = (typeof PLANTS)[number];

const sha = (t: string) => createHash('sha256').update(t).digest('hex');

export interface Planted {
  record: string;
  /** The file the record would (re)create or overwrite. */
  target: string;
  /** What a genuine undo writes there (the backup's bytes). */
  restored: string;
}

/** The records folder of `root` under `cache` (created 0700). */
export function recordsFolder(cache: string, root: string): string {
  const dir = path.join(cache, 'backups', workspaceId(root));
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.chmodSync(cache, 0o700);
  return dir;
}

/**
 * One record of `kind` for `root`: the record of a move that removed `rel` (mode 0644 recorded) —
 * so its undo creates `rel` again from the backup. `genuine` names `scripts/tool.js`; `target-in-git`
 * names `.git/hooks/post-commit`; the others break one rule each. `outside` is a folder outside the cache.
 */
export function plantRecord(cache: string, root: string, kind: Plant, outside: string, seq = 1): Planted {
  const dir = recordsFolder(cache, root);
  const id = `2026-12-02T00-00-0${seq}-000Z-1-${kind}`;
  const rel = kind === 'target-in-git' ? '.git/hooks/post-commit' : `scripts/${kind}.js`;
  const backupDir = path.join(dir, id);
  if (kind === 'backup-outside') {
    // the record's backup folder is a link out of the cache: the path is spelled right, its real place is not
    fs.mkdirSync(path.join(outside, id), { recursive: true, mode: 0o700 });
    fs.symlinkSync(path.join(outside, id), backupDir);
  }
  const backup = path.join(backupDir, rel);
  fs.mkdirSync(path.dirname(backup), { recursive: true, mode: 0o700 });
  // the hook's backup carries u+x as lspgate's own backup of an executable would: only the target check stands in the way
  fs.writeFileSync(backup, POLYGLOT, { mode: kind === 'target-in-git' ? 0o700 : 0o600 });
  const record = {
    v: 1,
    id,
    root: kind === 'other-root' ? path.join(path.dirname(root), 'elsewhere') : root,
    operation: 'move_file',
    time: `2026-12-02T00:00:0${seq}.000Z`,
    backup_dir: backupDir,
    files: [{ file: rel, abs: path.join(root, rel), backup, before: sha(POLYGLOT), after: 'absent', mode: kind === 'mode-exec' ? 0o755 : 0o644 }],
  };
  const file = path.join(dir, `${id}.applied.json`);
  fs.writeFileSync(file, JSON.stringify(record), { mode: 0o600 });
  if (kind === 'group-writable') fs.chmodSync(file, 0o666);
  return { record: file, target: path.join(root, rel), restored: POLYGLOT };
}
