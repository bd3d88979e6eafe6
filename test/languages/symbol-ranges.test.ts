// One range per id, one resolver per position: get_symbol reads what a symbol edit of the same id
// replaces (a TypeScript overload group — signatures and implementation — under any of its ids),
// methods of the same name in different PHP classes and an interface stay apart, a declaration's
// line names the declaration (not its parameter) for reads and edits alike, and inserted text is
// separated as its neighbours are.
import { describe, expect, it } from 'vitest';

import { openScratch } from '../helpers/scratch.js';

const OVERLOADS = `/** Picks by key. */
export function pick(x: number): number;
export function pick(x: string): string;
export function pick(x: number | string): number | string {
  return x;
}

export class Box {
  size = 1;

  /** Gets by key. */
  get(x: number): number;
  get(x: string): string;
  get(x: number | string): number | string {
    return x;
  }

  put(a: number, b: number): number {
    return a + b;
  }
}

export const n: number = pick(1) + new Box().get(2);
export const s: string = pick('a') + new Box().get('b');
`;

const SPACED = `export function first(): number {
  return 1;
}

let calls = 0;

calls += first();

export function second(): number {
  return 2;
}
`;

describe('one range per id: TypeScript overloads and positions', async () => {
  const fx = await openScratch('edit-ts', { 'src/overloads.ts': OVERLOADS, 'src/spaced.ts': SPACED });

  it('every id of an overload group reads the whole group, and giving it back changes nothing', async () => {
    const before = fx.read('src/overloads.ts');
    for (const id of ['src/overloads.ts::pick#function', 'src/overloads.ts::pick#function~3', 'src/overloads.ts::Box.get#method~3']) {
      const got = await fx.run('get_symbol', { symbol_id: id });
      expect(got.source).toMatch(/^(export function pick\(x: number\): number;|get\(x: number\): number;)\n/);
      expect(got.source).toMatch(/return x;\n\s*}$/);
      expect([got.symbol.end_line - got.symbol.line]).toEqual([id.includes('pick') ? 4 : 4]);
      const r = await fx.run('replace_symbol_body', { symbol_id: id, body: got.source, apply: true });
      // the same text: nothing written, no undo slot taken
      expect([r.applied, r.introduced, r.note, fx.read('src/overloads.ts')]).toEqual([false, [], expect.stringContaining('nothing to write'), before]);
    }
  });

  it('a comment added to an overloaded method is applied: nothing it did not write is refused', async () => {
    const got = await fx.run('get_symbol', { symbol_id: 'src/overloads.ts::Box.get#method~3' });
    const body = got.source.replace('    return x;', '    // the key as given\n    return x;');
    const r = await fx.run('replace_symbol_body', { symbol_id: 'src/overloads.ts::Box.get#method~3', body, apply: true });
    expect([r.applied, r.introduced]).toEqual([true, []]);
    expect(fx.read('src/overloads.ts')).toContain(
      '  get(x: number): number;\n  get(x: string): string;\n  get(x: number | string): number | string {\n    // the key as given\n',
    );
  });

  it('a method line resolves to the method for get_symbol and for an edit', async () => {
    const line = fx.read('src/overloads.ts').split('\n').indexOf('  put(a: number, b: number): number {') + 1;
    const got = await fx.run('get_symbol', { file: 'src/overloads.ts', line });
    const edit = await fx.run('insert_before_symbol', { file: 'src/overloads.ts', line, body: 'twice(a: number): number {\n  return 2 * a;\n}' });
    expect([got.symbol.symbol_id, edit.symbol_id]).toEqual(['src/overloads.ts::Box.put#method', 'src/overloads.ts::Box.put#method']);
  });

  it('an insert is separated as its neighbours are: one blank line between methods, on both sides', async () => {
    const r = await fx.run('insert_after_symbol', { symbol: 'Box.put', body: 'twice(a: number): number {\n  return 2 * a;\n}', apply: true });
    expect(r.applied).toBe(true);
    expect(fx.read('src/overloads.ts')).toContain('    return a + b;\n  }\n\n  twice(a: number): number {\n    return 2 * a;\n  }\n}\n');
    await fx.run('insert_before_symbol', { symbol: 'Box.put', body: 'half(a: number): number {\n  return a / 2;\n}', apply: true });
    expect(fx.read('src/overloads.ts')).toContain(
      '    return x;\n  }\n\n  half(a: number): number {\n    return a / 2;\n  }\n\n  put(a: number, b: number): number {',
    );
  });

  it('an insert beside a function with statements above it takes the one blank line around it, not the lines up to the previous function', async () => {
    await fx.run('insert_before_symbol', { symbol: 'second', body: 'export function mid(): number {\n  return 3;\n}', apply: true });
    await fx.run('insert_after_symbol', { symbol: 'second', body: 'export function last(): number {\n  return 4;\n}', apply: true });
    expect(fx.read('src/spaced.ts')).toBe(
      SPACED.replace('export function second', 'export function mid(): number {\n  return 3;\n}\n\nexport function second') +
        '\nexport function last(): number {\n  return 4;\n}\n',
    );
  });
});

const SHAPES = `<?php

namespace App;

interface Runner
{
    public function run(int $times): int;
}

class Fast implements Runner
{
    public function run(int $times): int
    {
        return $times * 2;
    }
}

class Slow implements Runner
{
    public function run(int $times): int
    {
        return $times;
    }
}
`;

describe('one range per id: PHP methods of one name in several classes', async () => {
  const fx = await openScratch('edit-php', { 'src/Runners.php': SHAPES });

  it('each class and the interface keep their own id and range; each given back changes nothing', async () => {
    const before = fx.read('src/Runners.php');
    const ids = ['src/Runners.php::Runner.run#method', 'src/Runners.php::Fast.run#method', 'src/Runners.php::Slow.run#method'];
    const sources: string[] = [];
    for (const id of ids) {
      const got = await fx.run('get_symbol', { symbol_id: id });
      sources.push(got.source);
      const r = await fx.run('replace_symbol_body', { symbol_id: id, body: got.source, apply: true });
      expect([r.applied, r.note, fx.read('src/Runners.php')]).toEqual([false, expect.stringContaining('nothing to write'), before]);
    }
    expect(sources).toEqual([
      'public function run(int $times): int;',
      'public function run(int $times): int\n    {\n        return $times * 2;\n    }',
      'public function run(int $times): int\n    {\n        return $times;\n    }',
    ]);
  });

  it('a method line (with or without kind) names the method for get_symbol and for an edit; kind variable names the parameter', async () => {
    const line = fx.read('src/Runners.php').split('\n').indexOf('    public function run(int $times): int', 10) + 1;
    const ids: string[] = [];
    for (const kind of [undefined, 'method']) {
      ids.push((await fx.run('get_symbol', { file: 'src/Runners.php', line, ...(kind ? { kind } : {}) })).symbol.symbol_id);
      ids.push(
        (await fx.run('replace_symbol_body', { file: 'src/Runners.php', line, body: 'public function run(int $times): int\n{\n    return 3;\n}' })).symbol_id,
      );
    }
    expect(ids).toEqual(Array(4).fill('src/Runners.php::Fast.run#method'));
    const param = await fx.run('get_symbol', { file: 'src/Runners.php', line, kind: 'variable' });
    expect(param.symbol.kind).toBe('variable');
    expect(param.symbol.name).toContain('times');
  });
});
