// The diagnostics delta of symbol edits answers the overlay, fails closed and is bound by its hash:
// a Go function three packages call (every caller named, as `go build` names them); a
// PHP test file full of errors from an absent dependency (none counted as introduced, the broken
// calls named); a TypeScript delta past its bound (unchecked: apply refused unless
// accept_unchecked); previews of two bodies with two hashes; an identical body writing nothing.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { FIXTURES } from '../helpers/gateway.js';
import { goAvailable, goEnv } from '../helpers/go.js';
import { openScratch } from '../helpers/scratch.js';

type Entry = { file: string; line: number; severity: string; message: string };
const errorFiles = (list: Entry[]) => [...new Set(list.filter((d) => d.severity === 'error').map((d) => d.file))].sort();

describe.runIf(goAvailable)('delta: a Go function called from three other packages', async () => {
  const fx = await openScratch('delta-go');

  it('a parameter added: the three caller files are introduced, as go build says; apply refused', async () => {
    const body = 'func Area(w, h, d int) int {\n\treturn w * h * d\n}';
    const before = fx.read('geom/geom.go');
    const r = await fx.run('replace_symbol_body', { symbol: 'Area', body });
    expect(r.referencing.files).toEqual(['a/a.go', 'b/b.go', 'c/c.go']);
    expect(errorFiles(r.introduced)).toEqual(['a/a.go', 'b/b.go', 'c/c.go']);
    expect([r.diagnostics, r.unchecked]).toEqual(['checked', []]);
    // the preview's errors are not left behind: a caller's diagnostics right after it are the disk's
    expect((await fx.run('get_diagnostics', { file: 'a/a.go', severity: 'error' })).counts.error).toBe(0);
    // the compiler agrees once the text is on disk (a copy: the fixture is never built broken)
    fx.write('geom/geom.go', before.replace(/func Area[\s\S]*$/, body + '\n'));
    let out = '';
    try {
      execFileSync('go', ['build', './...'], { cwd: fx.root, env: { ...process.env, ...goEnv, GOFLAGS: '-mod=mod', GOPROXY: 'off' }, stdio: 'pipe' });
    } catch (e) {
      out = String((e as { stderr: Buffer }).stderr);
    }
    fx.write('geom/geom.go', before);
    for (const f of ['a/a.go', 'b/b.go', 'c/c.go']) expect(out).toContain(f);
    const err = await fx.runError('replace_symbol_body', { symbol: 'Area', body, apply: true, expected_hash: r.edit_hash });
    expect(err.code).toBe('INVALID_INPUT');
    expect(fx.read('geom/geom.go')).toBe(before);
  });
});
describe.runIf(goAvailable)('delta: a Go method whose type satisfies an interface', async () => {
  const fx = await openScratch('delta-go');

  it('a parameter added: the file naming the type in a type switch over the interface is checked and introduced', async () => {
    const body = 'func (q Square) Area(d int) int {\n\treturn q.S * q.S * d\n}';
    const r = await fx.run('replace_symbol_body', { symbol: 'Square.Area', body });
    // kinds.go never calls Area: it is found through the references of Square
    expect(r.referencing.files).toContain('kinds/kinds.go');
    expect(r.introduced).toEqual(expect.arrayContaining([expect.objectContaining({ file: 'kinds/kinds.go', line: 9, severity: 'error' })]));
    const err = await fx.runError('replace_symbol_body', { symbol: 'Square.Area', body, apply: true, expected_hash: r.edit_hash });
    expect(err.code).toBe('INVALID_INPUT');
  });
});
if (!goAvailable) describe('delta: Go', () => it.skip('GO TESTS SKIPPED: needs Go and gopls (test/helpers/go.ts)', () => {}));

describe('delta: a PHP method whose test file already has errors from an absent dependency', async () => {
  const fx = await openScratch('delta-php');

  it('a required parameter added: the pre-existing errors are not introduced (one with the same message), the two broken calls are', async () => {
    // the test file asked first, as a client would: its errors are there before any edit
    const pre = await fx.run('get_diagnostics', { file: 'tests/CalcTest.php', severity: 'error' });
    expect(pre.counts.error).toBeGreaterThan(0);
    const body = 'public function add(int $a, int $b, int $c): int\n{\n    return $a + $b + $c;\n}';
    const r = await fx.run('replace_symbol_body', { symbol: 'Calc.add', body });
    expect(r.referencing.files).toEqual(['tests/CalcTest.php']);
    const lines = r.introduced.filter((d: Entry) => d.severity === 'error' && d.file === 'tests/CalcTest.php').map((d: Entry) => d.line);
    expect(lines.sort()).toEqual([16, 17]);
    expect(r.introduced.every((d: Entry) => d.line === 16 || d.line === 17)).toBe(true);
    expect([r.diagnostics, r.unchecked]).toEqual(['checked', []]);
    expect((await fx.runError('replace_symbol_body', { symbol: 'Calc.add', body, apply: true, expected_hash: r.edit_hash })).code).toBe('INVALID_INPUT');
  });
});

describe('delta: a TypeScript check past its bound fails closed', async () => {
  // limits.deltaFileMs lowered by the workspace (a lower limit needs no trust): no answer comes in time
  const fx = await openScratch('edit-ts', { '.lspgate/config.json': JSON.stringify({ limits: { deltaFileMs: 1 } }) });

  it('the file is unchecked with its reason; apply refused without accept_unchecked (accept_errors does not cover it), written with it', async () => {
    const args = { symbol: 'report', body: 'export function report(): string {\n  return "r";\n}' };
    const before = fx.read('src/main.ts');
    const r = await fx.run('replace_symbol_body', args);
    expect(r.diagnostics).toBe('not_checked');
    expect(r.unchecked).toEqual([{ file: 'src/main.ts', reason: expect.stringContaining('TIMEOUT') }]);
    const err = await fx.runError('replace_symbol_body', { ...args, apply: true, expected_hash: r.edit_hash, accept_errors: true });
    expect([err.code, err.details?.unchecked]).toEqual(['INVALID_INPUT', r.unchecked]);
    expect(fx.read('src/main.ts')).toBe(before);
    const ok = await fx.run('replace_symbol_body', { ...args, apply: true, expected_hash: r.edit_hash, accept_unchecked: true });
    expect(ok.applied).toBe(true);
    expect(fx.read('src/main.ts')).toContain('return "r";');
  });
});

/**
 * The shipped TypeScript server behind fixtures/fault-server/slow-diagnostics.mjs, which holds the
 * diagnostics of files naming `slow` (publishes and tsserver's diagnostics requests) for two minutes.
 */
function slowTsServers(slow: string): string {
  const repo = path.resolve(FIXTURES, '..');
  const shipped = (JSON.parse(fs.readFileSync(path.join(repo, 'servers.json'), 'utf8')) as { servers: Record<string, unknown>[] }).servers;
  const ts = shipped.find((s) => s.id === 'typescript-language-server')!;
  const { package: _p, binPath: _b, ...rest } = ts;
  const tls = path.join(repo, 'node_modules/typescript-language-server/lib/cli.mjs');
  const proxy = path.join(FIXTURES, 'fault-server/slow-diagnostics.mjs');
  const entry = { ...rest, id: 'slow-ts', node: false, priority: 100, command: process.execPath };
  Object.assign(entry, { args: [proxy, `--slow=${slow}`, '--delay-ms=120000', '--', process.execPath, tls, '--stdio'] });
  return JSON.stringify({ servers: [entry, { id: 'typescript-language-server', enabled: false }] });
}

describe('delta: a TypeScript server too slow to diagnose a caller fails closed', async () => {
  // the server answers src/use.ts's diagnostics two minutes late; the workspace bounds a file at 4 s
  const fx = await openScratch(
    'delta-ts',
    { '.lspgate/config.json': JSON.stringify({ limits: { deltaFileMs: 4000 } }), '.slow/servers.json': slowTsServers('src/use.ts') },
    { serversFiles: ['.slow/servers.json'] },
  );

  it('the slow caller is unchecked (TIMEOUT), the other checked; apply refused without accept_unchecked, written with it', async () => {
    // an optional parameter: a changed signature (callers searched) that breaks no caller
    const args = { symbol: 'area', body: 'export function area(w: number, h: number, d = 1): number {\n  return w * h * d;\n}' };
    const before = fx.read('src/geom.ts');
    const r = await fx.run('replace_symbol_body', args);
    expect(r.server).toBe('slow-ts');
    expect(r.referencing.files).toEqual(['src/plan.ts', 'src/use.ts']);
    expect(r.unchecked).toEqual([{ file: 'src/use.ts', reason: expect.stringMatching(/^TIMEOUT: .*src\/use\.ts within 4000 ms/) }]);
    expect([r.diagnostics, r.introduced]).toEqual(['partial', []]);
    const err = await fx.runError('replace_symbol_body', { ...args, apply: true, expected_hash: r.edit_hash });
    expect([err.code, err.details?.unchecked]).toEqual(['INVALID_INPUT', r.unchecked]);
    expect(fx.read('src/geom.ts')).toBe(before);
    const ok = await fx.run('replace_symbol_body', { ...args, apply: true, expected_hash: r.edit_hash, accept_unchecked: true });
    expect(ok.applied).toBe(true);
    expect(fx.read('src/geom.ts')).toContain('return w * h * d;');
  }, 120_000);
});

describe('symbol edits: the hash binds the edit; an identical body writes nothing; ids and wait_ms', async () => {
  const fx = await openScratch('edit-ts');

  it('previews of two bodies answer two edit hashes; an apply of another body with the first one is CONTENT_MODIFIED', async () => {
    const one = { symbol: 'report', body: 'export function report(): string {\n  return "one";\n}' };
    const two = { symbol: 'report', body: 'export function report(): string {\n  return "two";\n}' };
    const p1 = await fx.run('replace_symbol_body', one);
    const p2 = await fx.run('replace_symbol_body', two);
    expect(p1.content_hash).toBe(p2.content_hash);
    expect(p1.edit_hash).not.toBe(p2.edit_hash);
    const before = fx.read('src/main.ts');
    const err = await fx.runError('replace_symbol_body', { ...two, apply: true, expected_hash: p1.edit_hash });
    expect(err.code).toBe('CONTENT_MODIFIED');
    // the file's own hash is not the edit's
    expect((await fx.runError('replace_symbol_body', { ...one, apply: true, expected_hash: p1.content_hash })).code).toBe('CONTENT_MODIFIED');
    expect(fx.read('src/main.ts')).toBe(before);
  });

  it('an identical body: applied false with a note, nothing written, no undo slot taken', async () => {
    const got = await fx.run('get_symbol', { symbol: 'unused' });
    const before = fx.read('src/shapes.ts');
    const r = await fx.run('replace_symbol_body', { symbol_id: got.symbol.symbol_id, body: got.source, apply: true });
    expect([r.applied, r.note]).toEqual([false, expect.stringContaining('nothing to write')]);
    expect(fx.read('src/shapes.ts')).toBe(before);
    // no edit was applied in this workspace: undo has nothing to restore
    const err = await fx.runError('undo');
    expect([err.code, err.message]).toEqual(['INVALID_INPUT', expect.stringContaining('no applied edit')]);
  });

  it('an id given as `symbol` resolves as the id; wait_ms is accepted', async () => {
    const r = await fx.run('replace_symbol_body', {
      symbol: 'src/main.ts::report#function',
      body: 'export function report(): string {\n  return "x";\n}',
      wait_ms: 30_000,
    });
    expect([r.symbol_id, r.diagnostics]).toEqual(['src/main.ts::report#function', 'checked']);
  });
});
