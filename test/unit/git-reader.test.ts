/**
 * git as a reader: each function of lspgate that runs git, on a repository whose config, attributes,
 * include file, hooks and submodule name programs (test/helpers/hostile-git.ts), answers as before
 * and runs none of them. And no module of src spawns git except util/git.ts.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { changedLines, textAtRef } from '../../src/analysis/reports/git-diff.js';
import { fileAtCommit } from '../../src/chunks/git-head.js';
import { gitChangedFiles } from '../../src/service/diagnostics/changed-files.js';
import { cloneRepo } from '../../src/service/workspace/repo-clone.js';
import { driverOverrides, runGit } from '../../src/util/git.js';
import { buildHostileGit, type HostileGit } from '../helpers/hostile-git.js';

let tmp: string;
let h: HostileGit;

beforeAll(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-git-')));
  h = buildHostileGit(tmp);
}, 60_000);

afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

// each test names only the vectors its own calls ran
beforeEach(() => {
  if (h) for (const m of h.markers()) fs.rmSync(path.join(h.markersDir, m));
});

describe('git runs nothing a repository names', () => {
  it('the planted programs do run under plain git (the fixture is live)', async () => {
    const probe = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-git-probe-')));
    try {
      const p = buildHostileGit(probe);
      // exit codes ignored: the process filter that does not speak the protocol fails the command
      spawnSync('git', ['status', '--porcelain'], { cwd: p.root, stdio: 'pipe' });
      spawnSync('git', ['diff', 'HEAD'], { cwd: p.root, stdio: 'pipe' });
      expect(p.markers()).toEqual([
        'clean-filter',
        'diff-command',
        'diff-external',
        'fsmonitor',
        'hook',
        'include-filter',
        'submodule-filter',
        'submodule-fsmonitor',
      ]);
    } finally {
      fs.rmSync(probe, { recursive: true, force: true });
    }
  }, 60_000);

  it('get_diagnostics --changed: git status lists the changed files', async () => {
    const files = await gitChangedFiles(h.root);
    expect(files?.map((f) => path.relative(h.root, f)).sort()).toEqual(['README.md', 'notes.txt', 'src/a.ts', 'src/c.mjs', 'src/new.ts']);
    expect(h.markers()).toEqual([]);
  });

  it('changed_symbols: diff, ls-files and the text at the ref', async () => {
    const changes = await changedLines(h.root, 'HEAD');
    expect(changes.map((c) => c.file)).toEqual(expect.arrayContaining(['src/a.ts', 'src/new.ts']));
    expect(changes.find((c) => c.file === 'src/a.ts')!.added.has(2)).toBe(true);
    expect(await textAtRef(h.root, 'HEAD', 'src/a.ts')).toContain('return 1;');
    expect(h.markers()).toEqual([]);
  });

  it('a citation at a commit: the file text at that commit', async () => {
    expect(await fileAtCommit(h.root, h.cited.commit, h.cited.file)).toContain('return 2;');
    expect(await fileAtCommit(h.root, h.cited.commit, 'src/a.ts')).toContain('return 1;');
    expect(h.markers()).toEqual([]);
  });

  it('the review_change diff: git diff HEAD', async () => {
    const r = await runGit(['diff', 'HEAD', '--no-color'], { cwd: h.root });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toContain('+  return 10;');
    expect(h.markers()).toEqual([]);
  });

  it('index_repo: a clone neither runs hooks nor recurses into an ext:: submodule', async () => {
    const cache = path.join(tmp, 'cache');
    const { dir, head } = await cloneRepo(cache, h.cloneSource, undefined);
    expect(head).toMatch(/^[0-9a-f]{40}$/);
    expect(fs.readFileSync(path.join(dir, 'lib.ts'), 'utf8')).toContain('lib()');
    expect(h.markers()).toEqual([]);
  }, 60_000);
});

describe('a filter driver whose name holds "="', () => {
  it('is blanked too (a -c key could not carry it)', async () => {
    const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-git-eq-')));
    try {
      const marker = path.join(dir, 'ran');
      const git = (...args: string[]) =>
        spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t.invalid', '-c', 'commit.gpgsign=false', ...args], { cwd: dir, stdio: 'pipe' });
      git('init', '-q');
      fs.writeFileSync(path.join(dir, 'a.txt'), 'one\n');
      fs.writeFileSync(path.join(dir, '.gitattributes'), '*.txt filter=a=b\n');
      git('add', '-A');
      git('commit', '-q', '-m', 'x');
      git('config', 'filter.a=b.clean', `sh -c ': > ${marker}; cat'`);
      fs.writeFileSync(path.join(dir, 'a.txt'), 'two\n');
      const r = await runGit(['status', '--porcelain'], { cwd: dir });
      expect(r.stdout).toContain('a.txt');
      expect(fs.existsSync(marker)).toBe(false);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('driverOverrides', () => {
  it('blanks every local filter driver, included ones and names holding "=", and leaves global ones', () => {
    const list = [
      'global',
      'filter.lfs.process\ngit-lfs filter-process',
      'local',
      'filter.a=b.clean\nevil',
      'local',
      'filter.x.required',
      'worktree',
      'filter.w.smudge\nevil',
      '',
    ].join('\0');
    const keys = Object.fromEntries(driverOverrides(list));
    expect(keys['filter.a=b.clean']).toBe('');
    expect(keys['filter.x.process']).toBe('');
    expect(keys['filter.x.required']).toBe('false');
    expect(keys['filter.w.smudge']).toBe('');
    expect(Object.keys(keys).some((k) => k.startsWith('filter.lfs.'))).toBe(false);
  });
});

describe('no module spawns git but util/git.ts', () => {
  const SPAWN_GIT = /\b(runProgram|execa|execaSync|execFile|execFileSync|spawn|spawnSync|exec|execSync|wrapWithReaper)\s*\(\s*['"`]git\b/;
  const SHELL_GIT = /\b(exec|execSync)\s*\(\s*['"`][^'"`]*\bgit\s/;

  function* sources(dir: string): Generator<string> {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) yield* sources(p);
      else if (/\.(ts|mts|cts|js|mjs)$/.test(e.name)) yield p;
    }
  }

  it('finds no other spawn of git in src/', () => {
    const src = path.resolve(__dirname, '../../src');
    const offenders: string[] = [];
    for (const file of sources(src)) {
      if (path.relative(src, file) === path.join('util', 'git.ts')) continue;
      fs.readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (SPAWN_GIT.test(line) || SHELL_GIT.test(line)) offenders.push(`${path.relative(src, file)}:${i + 1}: ${line.trim()}`);
        });
    }
    expect(offenders).toEqual([]);
  });
});
