// changed_symbols on git copies of the rel-* fixtures: edits of known symbols, an added method, an
// untracked file, a deleted function, each mapped onto catalog ranges with its impact summary.
import fs from 'node:fs';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { LspgateError } from '../../src/errors/errors.js';
import { gitCopy } from '../helpers/git-copy.js';
import type { ChangedSymbol, JsonResult } from '../helpers/results.js';

/** A changed symbol as changed_symbols lists it: with its impact summary. */
type ListedChange = ChangedSymbol & { impact: { risk_level: string; affected_files: number; tests: string[] } };

function summary(r: JsonResult): string[] {
  return r.symbols.map(
    (s: ListedChange) =>
      `${s.change} ${s.symbol_id} ${s.impact.risk_level} ${s.impact.affected_files}${s.impact.tests.length ? ` tests=${s.impact.tests.join(',')}` : ''}`,
  );
}

describe('changed_symbols: TypeScript', async () => {
  const fx = await gitCopy('rel-ts');

  it('a clean tree has no changes', async () => {
    expect(await fx.run()).toMatchObject({ success: true, base_ref: 'HEAD', files_changed: 0, total: 0, symbols: [], unattributed: [] });
  });

  it('lists exactly the edited and added symbols with impact; untracked files are added; changes outside symbols are kept', async () => {
    fx.edit('src/lib/math.ts', 'return a + b;', 'return b + a;');
    fx.edit(
      'src/lib/math.ts',
      'export function unusedHelper(): number {\n  return 0;\n}\n',
      'export function unusedHelper(): number {\n  return 0;\n}\n\nexport function cube(x: number): number {\n  return x * x * x;\n}\n',
    );
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

  it('against an older ref after committing; a removed function is named as deleted, with its lines at the ref', async () => {
    fx.git('add', '-A');
    fx.git('commit', '-q', '-m', 'edits');
    expect((await fx.run()).total).toBe(0);
    fx.edit('src/app/lazy.ts', 'export function later(): number {\n  return 1;\n}\n', '');
    const r = await fx.run({ base_ref: 'HEAD~1' });
    expect(r.symbols.map((s: ListedChange) => `${s.change} ${s.symbol_id}`)).toEqual([
      'deleted src/app/lazy.ts::later#function',
      'added src/extra.ts::extra#function',
      'modified src/lib/math.ts::add#function',
      'added src/lib/math.ts::cube#function',
    ]);
    expect(r.symbols[0]).toMatchObject({ line: 1, end_line: 3, changed_lines: 3 });
    expect(r.symbols[0].impact).toBeUndefined();
    expect(r.unattributed.filter((u: { file: string }) => u.file === 'src/app/lazy.ts')).toEqual([]);
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
