// No write lands in VCS or tool internals (.git, .hg, .svn, .lspgate at any depth), judged where it
// lands: the targets of every writer (editTargetOfPath for a file that exists, newFileTarget for one
// a move creates), the apply journal every writer goes through, and recovery's vetting of a journal.
// Spellings: direct, `..`, case, a trailing dot, HFS-ignored code points, a nested repository, a
// symlinked folder into .git, a link to a file inside .git. Also: a restored file's execute bits come
// only from lspgate's own backup; a full disk leaves no empty journal or catalog temp file, and
// recovery removes an empty journal; the partial warning names the files.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { LspgateError } from '../../src/errors/errors.js';
import { ABSENT, journalDir } from '../../src/link/journals.js';
import { ApplyJournal, restoredMode } from '../../src/service/editing/apply-journal.js';
import { journalPathsProblem } from '../../src/service/editing/journal-vetting.js';
import { newFileTarget } from '../../src/service/editing/new-file.js';
import { recoverJournals } from '../../src/service/editing/recovery.js';
import { editTargetOfPath, type FileEdit } from '../../src/service/editing/workspace-edit.js';
import { partialWarning } from '../../src/service/workspace/repository.js';
import { vcsInternalsOf } from '../../src/util/vcs-internals.js';

let tmp: string;
let root: string;
let cache: string;

beforeEach(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-internals-')));
  root = path.join(tmp, 'root');
  cache = path.join(tmp, 'cache');
  for (const d of ['.git/hooks', 'src', 'vendor/lib/.git/hooks', '.hg', '.svn', '.lspgate']) fs.mkdirSync(path.join(root, d), { recursive: true });
  fs.writeFileSync(path.join(root, '.git/config'), '[core]\n');
  fs.writeFileSync(path.join(root, 'src/a.ts'), 'export const a = 1;\n');
  fs.symlinkSync('.git/hooks', path.join(root, 'hooks'));
  fs.symlinkSync('../.git/config', path.join(root, 'src/config.ts'));
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

function refusal(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    const err = e as LspgateError;
    return `${err.code}:${String(err.details?.reason)}`;
  }
  return 'written';
}

describe('VCS and tool internals', () => {
  it('names: case, trailing dots, HFS-ignored code points, the NTFS short name, nested; not look-alikes', () => {
    const at = (rel: string) => vcsInternalsOf(root, path.join(root, rel));
    expect(['.git/hooks/x', '.GIT/x', '.Git./x', '.g\u200cit/x', 'git~1/x', 'a/b/.hg/hgrc', '.svn/wc.db', '.lspgate/config.json', '.git'].map(at)).toEqual([
      '.git',
      '.GIT',
      '.Git.',
      '.g\u200cit',
      'git~1',
      'a/b/.hg',
      '.svn',
      '.lspgate',
      '.git',
    ]);
    expect(['.github/workflows/x.yml', 'src/git.ts', '.gitignore', 'x.git/y', '..git', 'src/a.ts'].map(at)).toEqual(Array(6).fill(undefined));
  });

  it('a new file (move_file, undo) is refused in internals however its path is spelled', () => {
    const tos = [
      '.git/hooks/post-commit',
      'src/../.git/hooks/post-commit',
      '.GIT/hooks/post-commit',
      'hooks/post-commit',
      'vendor/lib/.git/hooks/pre-push',
      '.hg/hgrc',
      '.svn/x',
      '.lspgate/config.json',
    ];
    expect(tos.map((to) => refusal(() => newFileTarget(root, to)))).toEqual(Array(tos.length).fill('PATH_OUTSIDE_WORKSPACE:vcs_internals'));
    expect(newFileTarget(root, 'src/b.ts').file).toBe('src/b.ts');
  });

  it('an existing file in internals, or a link to one, is refused as an edit target', () => {
    expect(refusal(() => editTargetOfPath(root, path.join(root, '.git/config')))).toBe('PATH_OUTSIDE_WORKSPACE:vcs_internals');
    expect(refusal(() => editTargetOfPath(root, path.join(root, 'src/config.ts')))).toBe('PATH_OUTSIDE_WORKSPACE:vcs_internals');
    expect(editTargetOfPath(root, path.join(root, 'src/a.ts')).file).toBe('src/a.ts');
  });

  it('the apply journal (every writer) refuses a file edit into internals before anything is written', () => {
    const edit: FileEdit = {
      absPath: path.join(root, '.git/hooks/post-commit'),
      file: '.git/hooks/post-commit',
      before: '',
      content_hash: ABSENT,
      after: '#!/bin/sh\n',
      edits: 1,
      diff: '',
      created: { mode: 0o644 },
    };
    expect(refusal(() => ApplyJournal.open(cache, { root, id: 'ws' }, 'move_file', [edit]))).toBe('PATH_OUTSIDE_WORKSPACE:vcs_internals');
    expect(fs.readdirSync(path.join(root, '.git/hooks'))).toEqual([]);
    expect(fs.existsSync(journalDir(cache)) ? fs.readdirSync(journalDir(cache)) : []).toEqual([]);
  });

  it("recovery's vetting refuses a journal whose new file is a git hook", () => {
    const id = 'j1';
    const abs = path.join(root, '.git/hooks/post-commit');
    const begin = {
      t: 'begin' as const,
      v: 1 as const,
      id,
      root,
      workspace: 'ws',
      operation: 'move_file',
      pid: 1,
      time: '',
      backup_dir: path.join(cache, 'backups/ws', id),
      files: [
        {
          file: '.git/hooks/post-commit',
          abs,
          tmp: path.join(root, '.git/hooks', `.post-commit.lspgate-${id}.tmp`),
          backup: path.join(cache, 'backups/ws', id, '.git/hooks/post-commit'),
          before: ABSENT,
          after: 'f'.repeat(64),
        },
      ],
    };
    const problem = journalPathsProblem({ path: path.join(journalDir(cache), `${id}.journal`), begin, staged: true, renamed: new Set(), done: false }, cache);
    expect(problem).toMatch(/inside \.git \(VCS or tool internals\)/);
  });
});

describe('modes, empty journals and temp files', () => {
  it("a restored file's execute bits come from lspgate's own backup only, never from the recorded mode", () => {
    const backup = path.join(tmp, 'backup');
    fs.writeFileSync(backup, 'x', { mode: 0o600 });
    expect(restoredMode(0o755, backup).toString(8)).toBe('644');
    fs.chmodSync(backup, 0o700);
    expect(restoredMode(0o644, backup).toString(8)).toBe('755');
    expect(restoredMode(0o640, backup).toString(8)).toBe('750');
    // a backup others could have written is no backup of lspgate's
    fs.chmodSync(backup, 0o722);
    expect(restoredMode(0o644, backup).toString(8)).toBe('644');
  });

  it('recover removes an empty journal (a full disk took its first line) and says so', () => {
    fs.mkdirSync(journalDir(cache), { recursive: true, mode: 0o700 });
    fs.chmodSync(cache, 0o700);
    const empty = path.join(journalDir(cache), `2026-12-02T00-00-00-000Z-999999999-abcdef.journal`);
    fs.writeFileSync(empty, '', { mode: 0o600 });
    const out = recoverJournals(cache, root);
    expect(out.map((o) => o.action)).toEqual(['removed_empty']);
    expect(out[0]!.message).toMatch(/empty apply journal .* removed/);
    expect(fs.existsSync(empty)).toBe(false);
  });

  it('the partial warning names the files, not only their count', () => {
    const w = partialWarning([{ file: 'Aaa.java', code: 'LIMIT_EXCEEDED', message: 'parseHeapMb' }]);
    expect(w).toContain('1 file(s) could not be cataloged (LIMIT_EXCEEDED 1): Aaa.java (LIMIT_EXCEEDED)');
  });
});
