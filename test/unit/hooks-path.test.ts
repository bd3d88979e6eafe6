// A hooks folder a repository's git config names (`core.hooksPath`, as husky sets `.husky/_`, whose
// hooks run the scripts of `.husky/`) is written by no apply, as `.git/hooks` is not: git runs what it
// holds on the next commit. Nested repositories' configs count for their own work trees; a config
// without the key, a subsection's key, and absolute or home paths (outside the work tree) add nothing.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { LspgateError } from '../../src/errors/errors.js';
import { newFileTarget } from '../../src/service/editing/new-file.js';
import { editTargetOfPath } from '../../src/service/editing/workspace-edit.js';
import { configuredHooksOf, hooksPathSetting } from '../../src/util/vcs-internals.js';

let tmp: string;
let root: string;

const put = (rel: string, text = '') => {
  fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  fs.writeFileSync(path.join(root, rel), text);
};

beforeEach(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-hookspath-')));
  root = path.join(tmp, 'root');
  put('.git/config', '[core]\n\tbare = false\n[core]\n\thooksPath = ".husky/_"\n');
  put('.husky/_/h', '');
  put('.husky/pre-commit', 'npm test\n');
  put('src/a.ts', 'export const a = 1;\n');
  put('vendor/lib/.git/config', '[remote "origin"]\n\thooksPath = nope\n[core]\n\thookspath = tools/hooks\n');
  put('vendor/lib/tools/hooks/pre-push', '');
  put('vendor/lib/nope/x', '');
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

function outcome(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    const err = e as LspgateError;
    return `${err.code}:${String(err.details?.reason)}:${String(err.details?.internals)}`;
  }
  return 'written';
}

describe('configured hook folders', () => {
  it('reads core.hooksPath as git does: the core section, any case, quotes, the last one', () => {
    expect(hooksPathSetting('[core]\n\thooksPath = a\n[core]\n\tHOOKSPATH = "b c"\n')).toBe('b c');
    expect(hooksPathSetting('[remote "x"]\n\thooksPath = a\n')).toBeUndefined();
    expect(hooksPathSetting('[core]\n\tbare = false\n')).toBeUndefined();
  });

  it("refuses a write into husky's hooks and the scripts they run, and a nested repository's hooks", () => {
    expect(outcome(() => newFileTarget(root, '.husky/pre-push'))).toBe('PATH_OUTSIDE_WORKSPACE:vcs_internals:.husky');
    expect(outcome(() => editTargetOfPath(root, path.join(root, '.husky/pre-commit')))).toBe('PATH_OUTSIDE_WORKSPACE:vcs_internals:.husky');
    expect(outcome(() => newFileTarget(root, '.husky/_/post-commit'))).toBe('PATH_OUTSIDE_WORKSPACE:vcs_internals:.husky/_');
    expect(outcome(() => editTargetOfPath(root, path.join(root, 'vendor/lib/tools/hooks/pre-push')))).toBe(
      'PATH_OUTSIDE_WORKSPACE:vcs_internals:vendor/lib/tools/hooks',
    );
    expect(outcome(() => editTargetOfPath(root, path.join(root, 'src/a.ts')))).toBe('written');
    expect(outcome(() => editTargetOfPath(root, path.join(root, 'vendor/lib/nope/x')))).toBe('written');
  });

  it('without the key, or with a path outside the work tree, nothing more is refused', () => {
    put('.git/config', '[core]\n\thooksPath = /etc/hooks\n');
    expect(configuredHooksOf(root, path.join(root, '.husky/pre-commit'))).toBeUndefined();
    put('.git/config', '[core]\n');
    expect(outcome(() => newFileTarget(root, '.husky/pre-push'))).toBe('written');
  });
});
