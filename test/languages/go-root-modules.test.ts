// A root Go module with two modules nested in it (fixtures/nested-root-go): the root requires
// `shapes` through a `replace => ./shapes` and vendors it (vendor/example.com/shapes), `tool` requires
// shapes and is required by no one. gopls alone makes one view per module, so references of
// shapes.Square asked in shapes found only shapes' own uses and definitions from the root landed in
// its vendored copy; lspgate serves the three as one workspace (a go.work in its cache).
import fs from 'node:fs';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { type FixtureGateway, openFixture } from '../helpers/gateway.js';
import { goAtLeast } from '../helpers/go.js';
import { positionOf } from '../helpers/positions.js';
import { openScratch } from '../helpers/scratch.js';

type Located = { file: string; line: number };

function places(r: { definitions?: Located[]; references?: Located[] }): string[] {
  return (r.definitions ?? r.references ?? []).map((l) => `${l.file}:${l.line}`).sort();
}

function at(fx: FixtureGateway, file: string, needle: string): { file: string; line: number; column: number } {
  return { file, ...positionOf(fx.root, file, needle) };
}

function line(fx: FixtureGateway, file: string, needle: string): string {
  return `${file}:${positionOf(fx.root, file, needle).line}`;
}

// the fixture's go lines are 1.26, the newest the installed toolchain (scripts/install-go.sh) supports
describe.runIf(goAtLeast('1.26', 'fixtures/nested-root-go'))('a root Go module with nested modules, one vendored', async () => {
  const fx = await openFixture('nested-root-go');

  it('references of a nested type reach the files of all three modules, not the vendored copy', async () => {
    const expected = [
      line(fx, 'shapes/shapes.go', 'type Square'),
      line(fx, 'shapes/shapes.go', 'func Area(s Square)'),
      line(fx, 'main.go', 'shapes.Square{'),
      line(fx, 'report/report.go', 'func Describe(s shapes.Square)'),
      line(fx, 'tool/tool.go', 'func Double'),
    ].sort();
    const byPosition = places(await fx.run('find_references', at(fx, 'shapes/shapes.go', 'Square struct')));
    expect([...new Set(byPosition)]).toEqual(expected);
    const byName = places(await fx.run('find_references', { symbol: 'Square' }));
    expect([...new Set(byName)]).toEqual(expected);
  });

  it("a definition asked in the root lands in the nested module's own file", async () => {
    expect(places(await fx.run('find_definition', at(fx, 'main.go', 'Square{Side')))).toEqual([line(fx, 'shapes/shapes.go', 'type Square')]);
    expect(places(await fx.run('find_definition', at(fx, 'report/report.go', 'Area(s)')))).toEqual([line(fx, 'shapes/shapes.go', 'func Area')]);
  });

  it('one gopls session at the root, and nothing written into the repository', async () => {
    const sessions = fx.gateway.context.broker.info().filter((i) => i.serverId === 'gopls');
    expect(sessions.map((s) => [s.root, s.state])).toEqual([[fx.root, 'ready']]);
    expect(fs.existsSync(path.join(fx.root, 'go.work'))).toBe(false);
  });
});

describe.runIf(goAtLeast('1.26', 'fixtures/nested-root-go'))('the same root vendoring a module the module cache does not hold', async () => {
  // workspace mode never reads a module's vendor/: with a go.work, example.com/extern (vendored
  // only, GOPROXY=off) could not be found and the root's own packages would stop loading
  const fx = await openScratch('nested-root-go', {
    'go.mod':
      'module example.com/app\n\ngo 1.26\n\nrequire (\n\texample.com/extern v1.0.0\n\texample.com/shapes v0.0.0\n)\n\nreplace example.com/shapes => ./shapes\n',
    'vendor/modules.txt':
      '# example.com/extern v1.0.0\n## explicit; go 1.26\nexample.com/extern\n# example.com/shapes v0.0.0 => ./shapes\n## explicit; go 1.26\nexample.com/shapes\n# example.com/shapes => ./shapes\n',
    'vendor/example.com/extern/extern.go':
      '// Package extern is vendored only.\npackage extern\n\n// Greeting is a greeting.\nfunc Greeting() string { return "hello" }\n',
    'main.go':
      'package main\n\nimport (\n\t"fmt"\n\n\t"example.com/app/report"\n\t"example.com/extern"\n\t"example.com/shapes"\n)\n\nfunc main() {\n\tfmt.Println(extern.Greeting(), report.Describe(shapes.Square{Side: 2}))\n}\n',
  });

  it('keeps one view per module, so the root still answers from its vendor/', async () => {
    expect(places(await fx.run('find_definition', at(fx, 'main.go', 'Greeting()')))).toEqual(['vendor/example.com/extern/extern.go:5']);
    expect(places(await fx.run('find_definition', at(fx, 'main.go', 'Describe(')))).toEqual([line(fx, 'report/report.go', 'func Describe')]);
  });
});

describe.runIf(goAtLeast('1.26', 'fixtures/nested-root-go'))('the same root with a nested module requiring what the module cache lacks', async () => {
  // `go list -m all` fails for this workspace (GOPROXY=off), yet the go command loads packages
  // lazily and gopls answers for all three modules: such a module is no reason to give up the go.work
  const fx = await openScratch('nested-root-go', {
    'tool/go.mod':
      'module example.com/tool\n\ngo 1.26\n\nrequire (\n\texample.com/missing v1.0.0\n\texample.com/shapes v0.0.0\n)\n\nreplace example.com/shapes => ../shapes\n',
  });

  it('still serves the modules as one workspace', async () => {
    const refs = places(await fx.run('find_references', at(fx, 'shapes/shapes.go', 'Square struct')));
    expect(refs).toContain(line(fx, 'main.go', 'shapes.Square{'));
    expect(refs).toContain(line(fx, 'tool/tool.go', 'func Double'));
  });
});
