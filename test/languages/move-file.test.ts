// move_file on a copy of fixtures/move-ts (typescript-language-server's willRenameFiles): the
// preview writes nothing and shows every importer's diff, the move and an empty delta; the apply
// updates every importer (and the moved file's own relative import) so the project still compiles
// (the fixture's tsc, run after the apply), the catalog forgets the old path; undo restores the moved
// file and its importers. Targets that exist, are outside the root, reached through a symlink out of
// it, or secret-named are refused with their codes. Files whose servers lack willRenameFiles
// (Python, Go, PHP — read from their capabilities) and a grammar-only language answer NOT_SUPPORTED.
// A changed signature that breaks a caller in another file shows that caller's error in the delta
// of replace_symbol_body or a member inserted into an interface, and the apply is refused; a forced delete shows
// its referencing files' errors.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { goAvailable } from '../helpers/go.js';
import { openScratch } from '../helpers/scratch.js';
import { sha } from '../helpers/symbol-edits.js';

const TSC = path.resolve('node_modules/typescript/bin/tsc');

/** The fixture's own type check: throws (with tsc's output) when the project does not compile. */
function compiles(root: string): true {
  execFileSync(process.execPath, [TSC, '-p', root], { encoding: 'utf8', stdio: 'pipe' });
  return true;
}

interface FileRow {
  file: string;
  change: string;
  content_hash: string;
  diff: string;
}

describe('move_file: TypeScript', async () => {
  const fx = await openScratch('move-ts');
  const IMPORTERS = ['src/app.ts', 'src/feature/report.ts', 'src/index.ts'];

  it('preview: every importer and the move, hashes, an empty delta; nothing written', async () => {
    const before = Object.fromEntries([...IMPORTERS, 'src/util/strings.ts'].map((f) => [f, fx.read(f)]));
    const r = await fx.run('move_file', { file: 'src/util/strings.ts', to: 'src/text/strings.ts' });
    expect(r.applied).toBe(false);
    expect([...r.importers].sort()).toEqual(IMPORTERS);
    const rows = r.files as FileRow[];
    expect(rows.find((f) => f.file === 'src/app.ts')!.diff).toContain("+import { shout } from './text/strings.js';");
    expect(rows.find((f) => f.file === 'src/feature/report.ts')!.diff).toContain("+import { describeArea, shout } from '../text/strings.js';");
    const created = rows.find((f) => f.change === 'created')!;
    expect([created.file, created.content_hash]).toEqual(['src/text/strings.ts', 'absent']);
    expect(created.diff).toContain('rename from src/util/strings.ts\nrename to src/text/strings.ts');
    expect(rows.find((f) => f.change === 'removed')!.content_hash).toBe(sha(before['src/util/strings.ts']!));
    expect([r.diagnostics, r.introduced]).toEqual(['checked', []]);
    // tsserver resolves modules on disk: the importers' imports of the not-yet-existing path are set apart
    expect([...new Set((r.pending_imports as { file: string }[]).map((d) => d.file))].sort()).toEqual(IMPORTERS);
    for (const [f, text] of Object.entries(before)) expect(fx.read(f)).toBe(text);
    expect(fs.existsSync(path.join(fx.root, 'src/text'))).toBe(false);
  });

  it('apply: the file moves, every importer and its own import follow, the project compiles; undo restores it all', async () => {
    const before = Object.fromEntries([...IMPORTERS, 'src/util/strings.ts'].map((f) => [f, fx.read(f)]));
    const preview = await fx.run('move_file', { file: 'src/util/strings.ts', to: 'src/text/deep/strings.ts' });
    const expected = Object.fromEntries((preview.files as FileRow[]).filter((f) => f.change !== 'created').map((f) => [f.file, f.content_hash]));
    const r = await fx.run('move_file', { file: 'src/util/strings.ts', to: 'src/text/deep/strings.ts', apply: true, expected_hashes: expected });
    expect(r.applied).toBe(true);
    expect(fs.existsSync(path.join(fx.root, 'src/util/strings.ts'))).toBe(false);
    const moved = fx.read('src/text/deep/strings.ts');
    // its own relative import follows it
    expect(moved).toContain("import { area } from '../../geometry/area.js';");
    expect(fx.read('src/app.ts')).toContain("from './text/deep/strings.js'");
    expect(compiles(fx.root)).toBe(true);
    // the catalog forgot the old path and knows the new one
    const hits = await fx.run('search_symbols', { query: 'shout' });
    const files = (hits.results as { file?: string; symbol_id?: string }[]).map((h) => h.file ?? h.symbol_id);
    expect(files.some((f) => f?.includes('src/text/deep/strings.ts'))).toBe(true);
    expect(files.some((f) => f?.includes('src/util/strings.ts'))).toBe(false);

    const u = await fx.run('undo');
    expect(u.operation).toBe('move_file');
    expect(fs.existsSync(path.join(fx.root, 'src/text/deep/strings.ts'))).toBe(false);
    for (const [f, text] of Object.entries(before)) expect(fx.read(f)).toBe(text);
    expect(compiles(fx.root)).toBe(true);
  });

  it('a target that exists, is outside the root, goes through a symlink out of it, or is secret-named: refused, nothing written', async () => {
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-move-out-'));
    fs.symlinkSync(outside, path.join(fx.root, 'src/out'));
    try {
      const cases: [string, string][] = [
        ['src/app.ts', 'INVALID_INPUT'],
        ['../elsewhere.ts', 'PATH_OUTSIDE_WORKSPACE'],
        ['src/out/strings.ts', 'PATH_OUTSIDE_WORKSPACE'],
        ['src/.env', 'SECRET_FILE'],
        ['src/server.key', 'SECRET_FILE'],
      ];
      const before = fx.read('src/util/strings.ts');
      for (const [to, code] of cases) {
        const err = await fx.runError('move_file', { file: 'src/util/strings.ts', to, apply: true });
        expect([to, err.code]).toEqual([to, code]);
      }
      expect(fx.read('src/util/strings.ts')).toBe(before);
      expect(fs.readdirSync(outside)).toEqual([]);
      expect(fs.existsSync(path.join(fx.root, 'src/.env'))).toBe(false);
    } finally {
      fs.unlinkSync(path.join(fx.root, 'src/out'));
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });

  it("a signature change that breaks a caller in another file: the caller's error is introduced, the apply refused", async () => {
    const before = fx.read('src/geometry/area.ts');
    const args = { symbol: 'area', body: 'export function area(r: number, scale: number): number {\n  return Math.PI * r * r * scale;\n}' };
    const r = await fx.run('replace_symbol_body', args);
    expect(r.referencing.files).toEqual(expect.arrayContaining(['src/app.ts', 'src/util/strings.ts']));
    const broken = (r.introduced as { file: string; severity: string }[]).filter((d) => d.severity === 'error').map((d) => d.file);
    expect(broken).toEqual(expect.arrayContaining(['src/app.ts', 'src/util/strings.ts']));
    const err = await fx.runError('replace_symbol_body', { ...args, apply: true });
    expect(err.code).toBe('INVALID_INPUT');
    expect((err.details?.introduced as { file: string }[]).map((d) => d.file)).toContain('src/app.ts');
    expect(fx.read('src/geometry/area.ts')).toBe(before);
    // a body-only change checks no other file
    const body = await fx.run('replace_symbol_body', { symbol: 'area', body: 'export function area(r: number): number {\n  return 3.14 * r * r;\n}' });
    expect([body.referencing, body.introduced]).toEqual([undefined, []]);
  });

  it('a member inserted into an interface: the code typed by it is checked, and the apply refused', async () => {
    const before = fx.read('src/geometry/shape.ts');
    const args = { symbol: 'Shape.size', body: 'perimeter(): number;' };
    const r = await fx.run('insert_after_symbol', args);
    expect(r.referencing.files).toContain('src/feature/unit-square.ts');
    const broken = (r.introduced as { file: string; severity: string }[]).filter((d) => d.severity === 'error').map((d) => d.file);
    expect(broken).toContain('src/feature/unit-square.ts');
    const err = await fx.runError('insert_after_symbol', { ...args, apply: true });
    expect(err.code).toBe('INVALID_INPUT');
    expect(fx.read('src/geometry/shape.ts')).toBe(before);
    // beside a top-level function nothing else is checked
    const top = await fx.run('insert_after_symbol', { symbol: 'area', body: 'export function perimeter(r: number): number {\n  return 2 * Math.PI * r;\n}' });
    expect([top.referencing, top.introduced]).toEqual([undefined, []]);
  });

  it('a forced delete: the files still referencing it show their new errors', async () => {
    const r = await fx.run('delete_symbol', { symbol: 'shout', force: true });
    expect(r.referencing.files).toEqual(expect.arrayContaining(['src/app.ts', 'src/feature/report.ts', 'src/index.ts']));
    const files = new Set((r.introduced as { file: string; severity: string }[]).filter((d) => d.severity === 'error').map((d) => d.file));
    expect([...files].sort()).toEqual(['src/app.ts', 'src/feature/report.ts', 'src/index.ts']);
    const err = await fx.runError('delete_symbol', { symbol: 'shout', force: true, apply: true });
    expect(err.code).toBe('INVALID_INPUT');
    expect(fx.read('src/util/strings.ts')).toContain('export function shout');
  });
});

describe('move_file: servers without willRenameFiles, and a language without a server', async () => {
  const fx = await openScratch('move-ts');
  const cases: [string, string, boolean][] = [
    ['py/helpers.py', 'py/helpers2.py', true],
    ['php/Helper.php', 'php/Helper2.php', true],
    ['go/helper.go', 'go/helper2.go', goAvailable],
    ['java/Helper.java', 'java/Helper2.java', true],
  ];
  for (const [file, to, can] of cases) {
    it.skipIf(!can)(`${file}: NOT_SUPPORTED naming the server (or the language), nothing moved`, async () => {
      const before = fx.read(file);
      const err = await fx.runError('move_file', { file, to, apply: true });
      expect(err.code).toBe('NOT_SUPPORTED');
      expect(err.message).toMatch(file.endsWith('.java') ? /language server of java/ : /willRenameFiles/);
      expect(fx.read(file)).toBe(before);
      expect(fs.existsSync(path.join(fx.root, to))).toBe(false);
    });
  }
});
