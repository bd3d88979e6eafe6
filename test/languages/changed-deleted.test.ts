// changed_symbols names deleted declarations: a method removed from a class, a function removed
// between two others. Before, their removed lines were attached to the enclosing class (or to no
// symbol) and the deleted declaration was never named.
import fs from 'node:fs';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { gitCopy } from '../helpers/git-copy.js';
import { goAvailable } from '../helpers/go.js';
import type { ChangedSymbol, JsonResult } from '../helpers/results.js';

const listed = (r: JsonResult) => r.symbols.map((s: ChangedSymbol) => `${s.change} ${s.symbol_id} ${s.line}-${s.end_line} ${s.changed_lines}`);

describe('changed_symbols: deleted declarations, Python', async () => {
  const fx = await gitCopy('narrow-py');

  it('a method removed from a class is the deleted method, not a modified class', async () => {
    fx.edit('src/shop/cart.py', '    def hook(self):\n        return 1\n\n', '');
    const r = await fx.run();
    // Cart.hook was lines 25-26 at HEAD, plus the blank line after it
    expect(listed(r)).toEqual(['deleted src/shop/cart.py::Cart.hook#method 25-26 3']);
    expect(r.symbols[0].impact).toBeUndefined();
    expect(r.unattributed).toEqual([]);
  });

  it('a deleted module is each of its top-level declarations', async () => {
    fs.rmSync(path.join(fx.root, 'src/shop/report.py'));
    const r = await fx.run();
    expect(listed(r)).toEqual(['deleted src/shop/cart.py::Cart.hook#method 25-26 3', 'deleted src/shop/report.py::describe#function 6-7 2']);
    // the module docstring and imports of the deleted file are outside every declaration
    expect(r.unattributed).toEqual([{ file: 'src/shop/report.py', lines: [], removed_lines: 5, reason: 'outside symbols' }]);
  });
});

describe('changed_symbols: deleted declarations, TypeScript', async () => {
  const fx = await gitCopy('partial-ts');

  it('a method removed between two methods, and a function between two functions', async () => {
    fs.writeFileSync(
      path.join(fx.root, 'src/box.ts'),
      'export class Box {\n  a(): number {\n    return 1;\n  }\n\n  b(): number {\n    return 2;\n  }\n\n  c(): number {\n    return 3;\n  }\n}\n\nexport function first(): number {\n  return 1;\n}\n\nexport function second(): number {\n  return 2;\n}\n\nexport function third(): number {\n  return 3;\n}\n',
    );
    fx.git('add', '-A');
    fx.git('commit', '-q', '-m', 'box');
    fx.edit('src/box.ts', '  b(): number {\n    return 2;\n  }\n\n', '');
    fx.edit('src/box.ts', 'export function second(): number {\n  return 2;\n}\n\n', '');
    const r = await fx.run();
    expect(listed(r)).toEqual(['deleted src/box.ts::Box.b#method 6-8 4', 'deleted src/box.ts::second#function 19-21 4']);
    expect(r.unattributed).toEqual([]);
  });
});

describe.runIf(goAvailable)('changed_symbols: deleted declarations, Go', async () => {
  const fx = await gitCopy('partial-go');

  it('a function removed after another is named, its callers are not modified', async () => {
    fx.edit('chain/c/other.go', '\treturn leaf() + 1\n', '\treturn 2\n');
    fx.edit('chain/c/c.go', '\treturn leaf()\n', '\treturn 1\n');
    fx.edit('chain/c/c.go', '\nfunc leaf() int {\n\treturn 1\n}\n', '');
    const r = await fx.run();
    expect(listed(r)).toEqual([
      'modified chain/c/c.go::Bottom#function 5-7 1',
      'deleted chain/c/c.go::leaf#function 9-11 4',
      'modified chain/c/other.go::Other#function 4-6 1',
    ]);
    expect(r.unattributed).toEqual([]);
  });
});

describe('changed_symbols: a deleted declaration inside a top-level condition', async () => {
  const fx = await gitCopy('narrow-py');

  it('is named like any other (pyright lists it at module level)', async () => {
    fs.writeFileSync(
      path.join(fx.root, 'src/shop/compat.py'),
      'import sys\n\nif sys.version_info >= (3, 8):\n    def modern():\n        return 1\n\n    def kept():\n        return 2\n',
    );
    fx.git('add', '-A');
    fx.git('commit', '-q', '-m', 'compat');
    fx.edit('src/shop/compat.py', '    def modern():\n        return 1\n\n', '');
    const r = await fx.run();
    expect(listed(r)).toEqual(['deleted src/shop/compat.py::modern#function 4-5 3']);
  });
});
