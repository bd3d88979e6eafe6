// move_file never writes into VCS or tool internals and never makes a file executable, on a copy of
// fixtures/move-ts (typescript-language-server's willRenameFiles). A polyglot — valid JavaScript and
// valid shell, mode 0755 — moved to .git/hooks/post-commit (git would run it at the next commit),
// through a symlinked folder into .git/hooks, through `..`, in another case, into a nested
// repository's .git, into .hg and .lspgate: each refused with PATH_OUTSIDE_WORKSPACE (reason
// vcs_internals), preview and apply alike, nothing written. A hook moved out of .git is refused
// too (it removes a file there). Moved inside the workspace, the polyglot loses its execute bits
// (said in the warnings); undo brings it back executable (from lspgate's own backup) and removes the
// folder the move made.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { POLYGLOT } from '../helpers/planted-records.js';
import { openScratch } from '../helpers/scratch.js';

describe('move_file: VCS internals and execute bits', async () => {
  const fx = await openScratch('move-ts', { 'src/tool.js': POLYGLOT, 'vendor/lib/src/x.ts': 'export const x = 1;\n' });
  execFileSync('git', ['init', '-q'], { cwd: fx.root });
  execFileSync('git', ['init', '-q'], { cwd: path.join(fx.root, 'vendor/lib') });
  fs.chmodSync(path.join(fx.root, 'src/tool.js'), 0o755);
  fs.symlinkSync('../.git/hooks', path.join(fx.root, 'src/hooks'));
  const hooks = () => fs.readdirSync(path.join(fx.root, '.git/hooks')).filter((n) => !n.endsWith('.sample'));

  it('the polyglot into .git/hooks, however spelled, and into .hg or .lspgate: refused, nothing written', async () => {
    const tos = [
      '.git/hooks/post-commit',
      'src/hooks/post-commit',
      'src/../.git/hooks/post-commit',
      '.GIT/hooks/post-commit',
      'vendor/lib/.git/hooks/pre-push',
      '.hg/hgrc',
      '.lspgate/config.json',
    ];
    for (const to of tos) {
      for (const apply of [false, true]) {
        const err = await fx.runError('move_file', { file: 'src/tool.js', to, apply, accept_errors: true });
        expect([to, apply, err.code, err.details?.reason]).toEqual([to, apply, 'PATH_OUTSIDE_WORKSPACE', 'vcs_internals']);
      }
    }
    expect(hooks()).toEqual([]);
    expect(fx.read('src/tool.js')).toBe(POLYGLOT);
    for (const d of ['.GIT', '.hg', '.lspgate']) expect(fs.existsSync(path.join(fx.root, d))).toBe(false);
  });

  it('a file moved out of .git: refused (it removes a file there)', async () => {
    const sample = fs.readdirSync(path.join(fx.root, '.git/hooks')).find((n) => n.endsWith('.sample'))!;
    const err = await fx.runError('move_file', { file: `.git/hooks/${sample}`, to: 'src/sample.js', apply: true });
    expect([err.code, err.details?.reason]).toEqual(['PATH_OUTSIDE_WORKSPACE', 'vcs_internals']);
    expect(fs.existsSync(path.join(fx.root, 'src/sample.js'))).toBe(false);
  });

  it('moved inside the workspace it loses its execute bits; undo restores them and removes the folder the move made', async () => {
    const r = await fx.run('move_file', { file: 'src/tool.js', to: 'src/bin/deep/tool.js', apply: true, accept_errors: true });
    expect(r.applied).toBe(true);
    expect(((r._meta as { warnings?: string[] }).warnings ?? []).join('\n')).toMatch(/src\/tool\.js is executable \(mode 755\).*without execute bits/);
    expect(fs.statSync(path.join(fx.root, 'src/bin/deep/tool.js')).mode & 0o777).toBe(0o644);
    const u = await fx.run('undo');
    expect(u.operation).toBe('move_file');
    expect(fx.read('src/tool.js')).toBe(POLYGLOT);
    expect(fs.statSync(path.join(fx.root, 'src/tool.js')).mode & 0o777).toBe(0o755);
    expect(fs.existsSync(path.join(fx.root, 'src/bin'))).toBe(false);
  });
});
