// Which TypeScript files tsserver's projects take, read from the workspace's tsconfigs as tsserver reads
// them: `include` minus `exclude` and `files`, a relative `extends`, `references`, comments and trailing
// commas, defaults (everything under the config, minus node_modules and outDir), wildcards skipping
// dot-folders; no config at all says nothing.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { parseJsonc, tsconfigScope } from '../../src/adapters/typescript/tsconfig-scope.js';

const roots: string[] = [];
afterAll(() => roots.forEach((r) => fs.rmSync(r, { recursive: true, force: true })));

function tree(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-tsconfig-'));
  roots.push(root);
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
  return root;
}

const ts = (files: Record<string, string>) => Object.keys(files).filter((f) => f.endsWith('.ts'));
const unseen = (files: Record<string, string>) => {
  const scope = tsconfigScope(tree(files), ts(files));
  return scope ? ts(files).filter((f) => !scope.sees!(f)) : [];
};

describe('tsconfigScope', () => {
  it('include with comments and trailing commas; a folder name is its files', () => {
    expect(parseJsonc('{ // c\n "a": [1, 2,], /* x */ "b": "//not a comment", }')).toEqual({ a: [1, 2], b: '//not a comment' });
    const files = { 'tsconfig.json': '{ "include": ["src",], // only src\n }', 'src/a.ts': '', 'src/deep/b.ts': '', 'scripts/c.ts': '', 'tests/d.ts': '' };
    expect(unseen(files)).toEqual(['scripts/c.ts', 'tests/d.ts']);
  });

  it('defaults: everything under the config but node_modules, outDir and dot-folders', () => {
    const files = { 'tsconfig.json': '{ "compilerOptions": { "outDir": "out" } }', 'a.ts': '', 'x/b.ts': '', 'out/c.ts': '', '.cache/d.ts': '' };
    expect(unseen(files)).toEqual(['out/c.ts', '.cache/d.ts']);
  });

  it('files, exclude and globs; extends takes the base config include relative to the base', () => {
    const files = {
      'base/tsconfig.base.json': '{ "include": ["../lib/**/*.ts"], "exclude": ["../lib/**/*.spec.ts"] }',
      'tsconfig.json': '{ "extends": "./base/tsconfig.base.json", "files": ["tools/one.ts"] }',
      'lib/a.ts': '',
      'lib/a.spec.ts': '',
      'tools/one.ts': '',
      'tools/two.ts': '',
    };
    expect(unseen(files)).toEqual(['lib/a.spec.ts', 'tools/two.ts']);
  });

  it('a nested config and a referenced one take their own files; without any config nothing is said', () => {
    const files = {
      'tsconfig.json': '{ "files": [], "references": [{ "path": "./pkg/tsconfig.build.json" }] }',
      'pkg/tsconfig.build.json': '{ "include": ["src"] }',
      'pkg/src/a.ts': '',
      'app/tsconfig.json': '{}',
      'app/b.ts': '',
      'loose/c.ts': '',
    };
    expect(unseen(files)).toEqual(['loose/c.ts']);
    expect(tsconfigScope(tree({ 'a/b.ts': '' }), ['a/b.ts'])).toBeUndefined();
  });
});
