// Nested projects under a root the server is started at: three Go modules side by side with no
// go.work (beta uses alpha through a `replace`, gamma uses neither), two TypeScript packages with
// their own tsconfig and none at the root (b imports a by relative path), two Python projects
// with their own pyproject.toml (one flat, one in a src layout). Definitions, references and hover
// are asked in each project, by position and by name.
import { describe, expect, it } from 'vitest';

import { type FixtureGateway, openFixture } from '../helpers/gateway.js';
import { goAvailable } from '../helpers/go.js';
import { positionOf } from '../helpers/positions.js';
import { openScratch } from '../helpers/scratch.js';

type Located = { file: string; line: number };

/** `file:line` of each definition or reference, sorted. */
function places(r: { definitions?: Located[]; references?: Located[] }): string[] {
  return (r.definitions ?? r.references ?? []).map((l) => `${l.file}:${l.line}`).sort();
}

function at(fx: FixtureGateway, file: string, needle: string): { file: string; line: number; column: number } {
  return { file, ...positionOf(fx.root, file, needle) };
}

function line(fx: FixtureGateway, file: string, needle: string): string {
  return `${file}:${positionOf(fx.root, file, needle).line}`;
}

describe.runIf(goAvailable)('Go modules side by side without a go.work', async () => {
  const fx = await openFixture('nested-go');

  it('definitions by position in each module', async () => {
    expect(places(await fx.run('find_definition', at(fx, 'alpha/use.go', 'Greet(name)')))).toEqual([line(fx, 'alpha/greet.go', 'func (g Greeter) Greet')]);
    expect(places(await fx.run('find_definition', at(fx, 'beta/report.go', 'NewTally()')))).toEqual([line(fx, 'beta/count.go', 'func NewTally')]);
    expect(places(await fx.run('find_definition', at(fx, 'gamma/main.go', 'Put("answer"')))).toEqual([line(fx, 'gamma/store/store.go', 'func (s *Store) Put')]);
    // across modules: beta's use of alpha lands in alpha
    expect(places(await fx.run('find_definition', at(fx, 'beta/hello.go', 'Shout(word)')))).toEqual([line(fx, 'alpha/greet.go', 'func Shout')]);
  });

  it('definitions by name in each module', async () => {
    expect(places(await fx.run('find_definition', { symbol: 'Greeter' }))).toEqual([line(fx, 'alpha/greet.go', 'type Greeter')]);
    expect(places(await fx.run('find_definition', { symbol: 'Tally' }))).toEqual([line(fx, 'beta/count.go', 'type Tally')]);
    expect(places(await fx.run('find_definition', { symbol: 'Store' }))).toEqual([line(fx, 'gamma/store/store.go', 'type Store')]);
  });

  it('references to a function of one module include its callers in the module that uses it, asked by position and by name', async () => {
    // gopls's zero-config views stop at the module of the file asked about: beta's call was missing
    const expected = [
      line(fx, 'alpha/greet.go', 'Shout(name)'),
      line(fx, 'alpha/greet.go', 'func Shout'),
      line(fx, 'beta/hello.go', 'alpha.Shout(word)'),
    ].sort();
    expect(places(await fx.run('find_references', at(fx, 'alpha/greet.go', 'Shout(name string')))).toEqual(expected);
    expect(places(await fx.run('find_references', { symbol: 'Shout' }))).toEqual(expected);
    expect(places(await fx.run('find_references', { symbol: 'NewTally' }))).toEqual(
      [line(fx, 'beta/count.go', 'func NewTally'), line(fx, 'beta/report.go', 'NewTally()')].sort(),
    );
    expect(places(await fx.run('find_references', { symbol: 'Store.Put' }))).toEqual(
      [line(fx, 'gamma/main.go', 'Put('), line(fx, 'gamma/store/store.go', 'func (s *Store) Put')].sort(),
    );
  });

  it('hover in a nested module, and one gopls session at the root', async () => {
    const h = await fx.run('get_hover', at(fx, 'beta/report.go', 'NewTally()'));
    expect([h.found, h.code]).toEqual([true, ['func NewTally() *Tally']]);
    const sessions = fx.gateway.context.broker.info().filter((i) => i.serverId === 'gopls');
    expect(sessions.map((s) => [s.root, s.state])).toEqual([[fx.root, 'ready']]);
  });
});

describe.runIf(goAvailable)('Go modules side by side, one of them needing a newer Go than the local one', async () => {
  // Go 1.99 is beyond any toolchain a machine running these tests has: with GOTOOLCHAIN=local the
  // go command refuses that module, and gopls answered "no package metadata for file" for it
  const fx = await openScratch('nested-go', { 'gamma/go.mod': 'module example.com/gamma\n\ngo 1.99\n' });

  it('the other modules are still served together', async () => {
    expect(places(await fx.run('find_references', { symbol: 'Shout' }))).toContain(line(fx, 'beta/hello.go', 'alpha.Shout(word)'));
  });

  it('a question in that module says which Go it needs', async () => {
    const err = await fx.runError('find_definition', at(fx, 'gamma/main.go', 'Put("answer"'));
    expect(err.code).toBe('SERVER_FAILED');
    expect(err.message).toContain('needs Go 1.99');
    expect(err.details).toMatchObject({ module: 'gamma', requires: '1.99', local: expect.stringMatching(/^1\.\d+/) });
  });
});

describe('TypeScript packages with their own tsconfig and none at the root', async () => {
  const fx = await openFixture('nested-ts');

  it('definitions by position and by name in each package, across packages', async () => {
    expect(places(await fx.run('find_definition', at(fx, 'packages/b/src/report.ts', 'totalArea(radii')))).toEqual([
      line(fx, 'packages/a/src/shapes.ts', 'export function totalArea'),
    ]);
    expect(places(await fx.run('find_definition', at(fx, 'packages/a/src/index.ts', 'totalArea([')))).toEqual([
      line(fx, 'packages/a/src/shapes.ts', 'export function totalArea'),
    ]);
    expect(places(await fx.run('find_definition', { symbol: 'describeAreas' }))).toEqual([
      line(fx, 'packages/b/src/report.ts', 'export function describeAreas'),
    ]);
    expect(places(await fx.run('find_definition', { symbol: 'Circle' }))).toEqual([line(fx, 'packages/a/src/shapes.ts', 'export class Circle')]);
  });

  it('references from one package include the other package, by position and by name', async () => {
    const r = places(await fx.run('find_references', at(fx, 'packages/a/src/shapes.ts', 'totalArea(circles')));
    expect(r).toEqual(expect.arrayContaining([line(fx, 'packages/a/src/index.ts', 'totalArea(['), line(fx, 'packages/b/src/report.ts', 'totalArea(radii')]));
    const byName = places(await fx.run('find_references', { symbol: 'Circle' }));
    expect(byName).toEqual(expect.arrayContaining([line(fx, 'packages/a/src/index.ts', 'new Circle'), line(fx, 'packages/b/src/report.ts', 'new Circle')]));
  });

  it('hover in the package that imports the other', async () => {
    const h = await fx.run('get_hover', at(fx, 'packages/b/src/report.ts', 'totalArea(radii'));
    expect(h.found).toBe(true);
    expect(h.documentation).toContain('The total area of some circles.');
  });
});

describe('Python projects with their own pyproject.toml', async () => {
  const fx = await openFixture('nested-py');

  it('definitions by position and by name in each project (flat and src layout)', async () => {
    expect(places(await fx.run('find_definition', at(fx, 'services/api/api/handlers.py', 'User(name)')))).toEqual([
      line(fx, 'services/api/api/models.py', 'class User'),
    ]);
    expect(places(await fx.run('find_definition', at(fx, 'services/api/api/handlers.py', 'greeting()')))).toEqual([
      line(fx, 'services/api/api/models.py', 'def greeting'),
    ]);
    expect(places(await fx.run('find_definition', at(fx, 'services/worker/src/worker/cli.py', 'run_job(1)')))).toEqual([
      line(fx, 'services/worker/src/worker/jobs.py', 'def run_job'),
    ]);
    expect(places(await fx.run('find_definition', { symbol: 'handle' }))).toEqual([line(fx, 'services/api/api/handlers.py', 'def handle')]);
  });

  it('references by position and by name resolve the projects own imports', async () => {
    expect(places(await fx.run('find_references', at(fx, 'services/api/api/models.py', 'User:')))).toEqual(
      [
        line(fx, 'services/api/api/handlers.py', 'import User'),
        line(fx, 'services/api/api/handlers.py', 'User(name)'),
        line(fx, 'services/api/api/models.py', 'class User'),
      ].sort(),
    );
    expect(places(await fx.run('find_references', { symbol: 'run_job' }))).toEqual(
      [
        line(fx, 'services/worker/src/worker/cli.py', 'import run_job'),
        line(fx, 'services/worker/src/worker/cli.py', 'run_job(1)'),
        line(fx, 'services/worker/src/worker/jobs.py', 'def run_job'),
      ].sort(),
    );
  });

  it('hover through an import of the project', async () => {
    const h = await fx.run('get_hover', at(fx, 'services/api/api/handlers.py', 'User(name)'));
    expect(h.found).toBe(true);
    expect(h.documentation).toContain('A user of the api.');
  });
});
