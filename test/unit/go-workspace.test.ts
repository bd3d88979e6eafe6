// The go.work lspgate writes for Go modules side by side or nested in a root module
// (adapters/servers/go/workspace.ts): which directories are modules, the `go` line, quoting, vendored modules.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { compareGoVersions, findModules, goDirective, goWorkText, vendoredModules } from '../../src/adapters/servers/go/workspace.js';

describe('go.work for nested modules', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-gowork-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('finds the modules below the root, skipping what the go command skips and symlinks', async () => {
    for (const d of ['a', 'b/c', 'testdata/t', '_old/x', '.hidden/y', 'vendor/v', 'node_modules/n', 'plain'])
      fs.mkdirSync(path.join(dir, d), { recursive: true });
    for (const d of ['a', 'b/c', 'testdata/t', '_old/x', '.hidden/y', 'vendor/v', 'node_modules/n'])
      fs.writeFileSync(path.join(dir, d, 'go.mod'), 'module x\n');
    fs.symlinkSync(path.join(dir, 'a'), path.join(dir, 'link'));
    expect(await findModules(dir)).toEqual({ modules: [path.join(dir, 'a'), path.join(dir, 'b/c')], truncated: false });
  });

  it('reads the go directive and orders versions as the go command does', () => {
    expect(goDirective('module x\n\n// go 9.9\ngo 1.22.3 // pinned\n\nrequire y v1.0.0\n')).toBe('1.22.3');
    expect(goDirective('module x\n')).toBeUndefined();
    expect(['1.22', '1.21.3', '1.22rc1', '1.9', '1.21'].sort(compareGoVersions)).toEqual(['1.9', '1.21', '1.21.3', '1.22rc1', '1.22']);
  });

  it('writes the highest go line and each module as a quoted path', () => {
    expect(goWorkText([{ dir: '/r/a', go: '1.21' }, { dir: '/r/b c', go: '1.22.1' }, { dir: '/r/d"\n' }])).toBe(
      'go 1.22.1\n\nuse (\n\t"/r/a"\n\t"/r/b c"\n\t"/r/d\\"\\n"\n)\n',
    );
  });

  it("lists the modules a root's vendor/modules.txt vendors, once each (what `go mod vendor` writes)", () => {
    const txt = [
      '# example.com/extern v1.0.0',
      '## explicit; go 1.26',
      'example.com/extern',
      'example.com/extern/sub',
      '# example.com/shapes v0.0.0 => ./shapes',
      '## explicit; go 1.26',
      'example.com/shapes',
      '# example.com/shapes => ./shapes',
    ].join('\n');
    expect(vendoredModules(txt)).toEqual(['example.com/extern', 'example.com/shapes']);
    expect(vendoredModules('')).toEqual([]);
  });
});
