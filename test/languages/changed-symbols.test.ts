// changed_symbols on git copies of the rel-* fixtures: edits of known symbols, an added method, an
// untracked file, a deleted function, each mapped onto catalog ranges with its impact summary.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Gateway } from '../../src/gateway/gateway.js';
import { LspgateError } from '../../src/errors/errors.js';
import { FIXTURES } from '../helpers/gateway.js';
import type { ChangedSymbol, JsonResult } from '../helpers/results.js';

/** A changed symbol as changed_symbols lists it: with its impact summary. */
type ListedChange = ChangedSymbol & { impact: { risk_level: string; affected_files: number; tests: string[] } };

const GIT_ID = ['-c', 'user.name=lspgate-test', '-c', 'user.email=test@lspgate.invalid', '-c', 'commit.gpgsign=false'];

/** A committed git copy of a fixture and a gateway on it, removed after the file. */
async function gitCopy(fixture: string) {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `lspgate-${fixture}-`)));
  fs.cpSync(path.join(FIXTURES, fixture), root, { recursive: true });
  const git = (...args: string[]) => execFileSync('git', [...GIT_ID, ...args], { cwd: root, stdio: 'pipe' }).toString();
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '-m', 'fixture');
  const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-'));
  const gateway = await Gateway.create({ root, cacheDir });
  afterAll(async () => {
    await gateway.close();
    fs.rmSync(root, { recursive: true, force: true });
    fs.rmSync(cacheDir, { recursive: true, force: true });
  });
  const edit = (rel: string, from: string, to: string) => {
    const file = path.join(root, rel);
    const text = fs.readFileSync(file, 'utf8');
    if (!text.includes(from)) throw new Error(`${rel} has no ${from}`);
    fs.writeFileSync(file, text.replace(from, to));
  };
  const run = async (input: Record<string, unknown> = {}): Promise<JsonResult> => (await gateway.run('changed_symbols', { ...input, output_format: 'json' })).result;
  return { root, git, edit, run, gateway };
}

function summary(r: JsonResult): string[] {
  return r.symbols.map((s: ListedChange) => `${s.change} ${s.symbol_id} ${s.impact.risk_level} ${s.impact.affected_files}${s.impact.tests.length ? ` tests=${s.impact.tests.join(',')}` : ''}`);
}

describe('changed_symbols: TypeScript', async () => {
  const fx = await gitCopy('rel-ts');

  it('a clean tree has no changes', async () => {
    expect(await fx.run()).toMatchObject({ success: true, base_ref: 'HEAD', files_changed: 0, total: 0, symbols: [], unattributed: [] });
  });

  it('lists exactly the edited and added symbols with impact; untracked files are added; changes outside symbols are kept', async () => {
    fx.edit('src/lib/math.ts', 'return a + b;', 'return b + a;');
    fx.edit('src/lib/math.ts', 'export function unusedHelper(): number {\n  return 0;\n}\n', 'export function unusedHelper(): number {\n  return 0;\n}\n\nexport function cube(x: number): number {\n  return x * x * x;\n}\n');
    fx.edit('src/app/report.ts', "import * as m from '../lib/math';", "import * as m from '../lib/math';\nimport { add } from '../lib/math';");
    fs.writeFileSync(path.join(fx.root, 'src/extra.ts'), 'export function extra(): number {\n  return 2;\n}\n');
    const r = await fx.run();
    expect(r.files_changed).toBe(3);
    // Files in path order, symbols in line order; a rewritten function would be `modified` (git sees changed lines).
    expect(summary(r)).toEqual([
      'added src/extra.ts::extra#function LOW 0',
      'modified src/lib/math.ts::add#function MEDIUM 3 tests=test/math.test.ts',
      'added src/lib/math.ts::cube#function LOW 0',
    ]);
    // The new import line and the blank line git adds after cube belong to no symbol.
    expect(r.unattributed).toEqual([
      { file: 'src/app/report.ts', lines: [3], removed_lines: 0, reason: 'outside symbols' },
      { file: 'src/lib/math.ts', lines: [20], removed_lines: 0, reason: 'outside symbols' },
    ]);
  });

  it('against an older ref after committing; a removed function is a removal outside symbols', async () => {
    fx.git('add', '-A');
    fx.git('commit', '-q', '-m', 'edits');
    expect((await fx.run()).total).toBe(0);
    fx.edit('src/app/lazy.ts', 'export function later(): number {\n  return 1;\n}\n', '');
    const r = await fx.run({ base_ref: 'HEAD~1' });
    expect(r.symbols.map((s: ListedChange) => s.symbol_id)).toEqual(['src/extra.ts::extra#function', 'src/lib/math.ts::add#function', 'src/lib/math.ts::cube#function']);
    expect(r.unattributed).toContainEqual({ file: 'src/app/lazy.ts', lines: [], removed_lines: 3, reason: 'outside symbols' });
  });

  it('refuses what is not a ref: an option, an unknown commit', async () => {
    for (const base_ref of ['--output=/tmp/x', 'no-such-branch']) {
      const err = await fx.gateway.run('changed_symbols', { base_ref }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(LspgateError);
      expect((err as LspgateError).code).toBe('INVALID_INPUT');
    }
  });
});

describe('changed_symbols: Python', async () => {
  const fx = await gitCopy('rel-py');

  it('an edited method body inside a class is the method, not the class', async () => {
    fx.edit('app/routes.py', '            return fn\n', '            return fn  # registered\n');
    fx.edit('pkg/format.py', '    return str(s)\n', '    return f"{s}"\n');
    const r = await fx.run();
    // register is referenced once (`return register`, same file): one affected file.
    expect(summary(r)).toEqual(['modified app/routes.py::App.route.register#function LOW 1', 'modified pkg/format.py::total#function MEDIUM 3']);
  });
});
