// One root with TypeScript, Go (nested go.mod), Python and PHP projects (fixtures/polyglot/README.md).
import { describe, expect, it } from 'vitest';

import { openFixture } from '../helpers/gateway.js';
import { goAvailable } from '../helpers/go.js';
import { positionOf } from '../helpers/positions.js';
import type { CallNode, ExportedSymbol, ReferenceEntry, WorkspaceInfo } from '../helpers/results.js';

describe('a polyglot workspace', async () => {
  const fx = await openFixture('polyglot');
  const servers = async () => {
    const ws = await fx.run('list_workspaces', {});
    return ws.workspaces[0].servers.map((s: WorkspaceInfo['servers'][number]) => `${s.id}@${s.root.slice(fx.root.length + 1) || '.'}:${s.state}`).sort();
  };

  it('starts only the server a request needs, one per workspace (rootStrategy workspace), not at the nested project root', async () => {
    const at = positionOf(fx.root, 'tools/pytool/pytool/cli.py', 'run(args');
    const callers = await fx.run('find_callers', { file: 'tools/pytool/pytool/cli.py', line: at.line, column: at.column });
    expect(callers.root.calls.map((c: CallNode) => `${c.name}@${c.file}:${c.call_sites![0]!.line}`)).toEqual(['main@tools/pytool/pytool/cli.py:10']);
    expect(await servers()).toEqual(['pyright@.:ready']);
  });

  it('routes each language to its own server at the workspace root; nested projects (go.mod without go.work, tsconfig, pyproject, composer.json) still answer; list_workspaces shows them all', async () => {
    const php = await fx.run('find_callers', { symbol: 'Clock::now' });
    expect(php.root.calls.map((c: CallNode) => c.name)).toEqual(['stamp']);
    const ts = await fx.run('find_references', { symbol: 'add', language: 'typescript' });
    expect(ts.references.map((r: ReferenceEntry) => `${r.file}:${r.line}`)).toEqual(['web/src/index.ts:2', 'web/src/index.ts:6']);
    const expected = ['intelephense@.:ready', 'pyright@.:ready', 'typescript-language-server@.:ready'];
    if (goAvailable) {
      const go = await fx.run('find_callers', { symbol: 'Health' });
      expect(go.root.calls.map((c: CallNode) => `${c.name}@${c.file}`)).toEqual(['Status@services/api/api.go']);
      expect(go._meta.servers).toEqual([{ id: 'gopls', root: fx.root, state: 'ready' }]);
      expected.unshift('gopls@.:ready');
    }
    const ws = await fx.run('list_workspaces', {});
    expect(ws.workspaces[0].languages).toEqual(expect.arrayContaining(['go', 'php', 'python', 'typescript']));
    expect((await servers()).filter((s: string) => expected.includes(s)).sort()).toEqual(expected.sort());
    const pkg = await fx.run('list_package_exports', { package: 'pytool.cli' });
    expect(pkg.symbols.map((s: ExportedSymbol) => s.name)).toEqual(['run', 'main']);
  });
});
