// Edits by symbol on copies of fixtures/edit-ts and fixtures/edit-py: replace_symbol_body,
// insert_before_symbol, insert_after_symbol and delete_symbol on methods in classes, top-level
// functions, decorated declarations, overloads, nested classes, a CRLF file and a tab-indented file.
// Every preview writes nothing; the diagnostics delta names a planted undefined name and is empty
// for a valid body; bytes outside the edited range are compared byte for byte after each apply; a
// method replaced by its own text as get_symbol answers it leaves the file as it was.
import fs from 'node:fs';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { openScratch } from '../helpers/scratch.js';
import { applyChecked } from '../helpers/symbol-edits.js';

describe('symbol edits: TypeScript', async () => {
  const fx = await openScratch('edit-ts');

  it('replace a method in a class: the delta is empty for a valid body, the doc comment kept, the new id answered', async () => {
    const { r, after } = await applyChecked(
      fx,
      'replace_symbol_body',
      { symbol: 'Circle.area', body: 'area(): number {\n  return Math.PI * this.radius ** 2;\n}' },
      'src/shapes.ts',
    );
    expect([r.diagnostics, r.introduced, r.parse]).toEqual(['checked', [], 'checked']);
    expect(after).toContain('  /** The area of the circle. */\n  area(): number {\n    return Math.PI * this.radius ** 2;\n  }\n');
    expect(r.new_symbols.map((s: { symbol_id: string }) => s.symbol_id)).toContain('src/shapes.ts::Circle.area#method');
    // the returned id edits the same symbol again without a search
    const again = await fx.run('replace_symbol_body', {
      symbol_id: 'src/shapes.ts::Circle.area#method',
      body: 'area(): number {\n  return 3 * this.radius ** 2;\n}',
    });
    expect(again.diff).toContain('+    return 3 * this.radius ** 2;');
  });

  it('a planted undefined name: introduced in the delta, nothing written; apply refused unless accept_errors', async () => {
    const before = fx.read('src/shapes.ts');
    const args = { symbol: 'unused', body: 'export function unused(): number {\n  return undefinedThing + 1;\n}' };
    const r = await fx.run('replace_symbol_body', args);
    expect(r.introduced.map((d: { severity: string; message: string }) => [d.severity, d.message.includes('undefinedThing')])).toEqual([['error', true]]);
    expect(fx.read('src/shapes.ts')).toBe(before);
    const err = await fx.runError('replace_symbol_body', { ...args, apply: true });
    expect([err.code, (err.details?.introduced as unknown[]).length]).toEqual(['INVALID_INPUT', 1]);
    expect(fx.read('src/shapes.ts')).toBe(before);
    // the server was told the disk text again: the file on disk has no error
    const diag = await fx.run('get_diagnostics', { file: 'src/shapes.ts', severity: 'error' });
    expect(diag.counts.error).toBe(0);
  });

  it('a decorated method: the decorator is part of the declaration', async () => {
    const { after } = await applyChecked(
      fx,
      'replace_symbol_body',
      { symbol: 'Circle.describe', body: '@logged\ndescribe(): string {\n  return `round ${this.radius}`;\n}' },
      'src/shapes.ts',
    );
    expect(after).toContain('  @logged\n  describe(): string {\n    return `round ${this.radius}`;\n  }');
    expect(after.match(/@logged/g)).toHaveLength(1);
  });

  it('overloads are replaced together', async () => {
    const { after, r } = await applyChecked(
      fx,
      'replace_symbol_body',
      { symbol: 'scale', body: 'export function scale(x: number): number {\n  return x * 3;\n}' },
      'src/shapes.ts',
    );
    expect(r.introduced).toEqual([]);
    expect(after).not.toContain('scale(x: string)');
    expect(after).toContain('/** Scales a number or a string. */\nexport function scale(x: number): number {\n  return x * 3;\n}\n');
  });

  it('a method of a nested class; insert after a method inside its class, separated as its neighbours', async () => {
    await applyChecked(fx, 'replace_symbol_body', { symbol: 'Circle.Unit.size', body: 'size(): number {\n  return 2;\n}' }, 'src/shapes.ts');
    const { after } = await applyChecked(
      fx,
      'insert_after_symbol',
      { symbol: 'Circle.describe', body: 'diameter(): number {\n  return 2 * this.radius;\n}' },
      'src/shapes.ts',
    );
    expect(after).toContain('    return `round ${this.radius}`;\n  }\n\n  diameter(): number {\n    return 2 * this.radius;\n  }\n\n  static Unit');
    expect(after).toContain('    size(): number {\n      return 2;\n    }');
  });

  it('insert before the first symbol of a file, and before a function with its doc comment', async () => {
    const { after } = await applyChecked(fx, 'insert_before_symbol', { symbol: 'report', body: 'export const VERSION = 1;' }, 'src/main.ts');
    expect(after).toContain("import { Circle, scale } from './shapes.js';\n\nexport const VERSION = 1;\n\nexport function report()");
    const { after: s } = await applyChecked(
      fx,
      'insert_before_symbol',
      { symbol: 'scale', body: 'export function half(x: number): number {\n  return x / 2;\n}' },
      'src/shapes.ts',
    );
    expect(s).toContain('export function half(x: number): number {\n  return x / 2;\n}\n\n/** Scales a number or a string. */\nexport function scale');
  });

  it('a CRLF file keeps CRLF; a tab-indented file gets tabs', async () => {
    const { after } = await applyChecked(
      fx,
      'insert_after_symbol',
      { symbol: 'crlfOne', body: 'export function crlfMid(): number {\n    return 3;\n}\n' },
      'src/crlf.ts',
    );
    expect(after).toBe(
      'export function crlfOne(): number {\r\n  return 1;\r\n}\r\n\r\nexport function crlfMid(): number {\r\n  return 3;\r\n}\r\n\r\nexport function crlfTwo(): number {\r\n  return 2;\r\n}\r\n',
    );
    const { after: t } = await applyChecked(
      fx,
      'replace_symbol_body',
      { symbol: 'tabbed', body: 'export function tabbed(a: number): number {\n    if (a > 2) {\n        return a;\n    }\n    return 0;\n}' },
      'src/tabs.ts',
    );
    expect(t).toContain('export function tabbed(a: number): number {\n\tif (a > 2) {\n\t\treturn a;\n\t}\n\treturn 0;\n}\n');
  });

  it('delete: refused while references remain, with them; an unreferenced function goes with its blank line', async () => {
    const before = fx.read('src/shapes.ts');
    const err = await fx.runError('delete_symbol', { symbol: 'Circle', apply: true });
    expect(err.code).toBe('INVALID_INPUT');
    expect((err.details?.references as { file: string }[]).map((r) => r.file)).toContain('src/main.ts');
    expect(fx.read('src/shapes.ts')).toBe(before);
    const { after } = await applyChecked(fx, 'delete_symbol', { symbol: 'unused' }, 'src/shapes.ts');
    expect(after).not.toContain('unused');
    expect(after.endsWith('}\n')).toBe(true);
    expect(after).not.toMatch(/\n\n\n/);
  });

  it('text that closes the class early and opens another: INVALID_INPUT from the parse check, nothing written', async () => {
    const before = fx.read('src/shapes.ts');
    const err = await fx.runError('replace_symbol_body', {
      symbol: 'Circle.Unit.size',
      body: 'size(): number { return 1; }\n};\n}\nexport class Evil {\n  x = 1;',
    });
    expect(err.code).toBe('INVALID_INPUT');
    expect(err.details?.line).toEqual(expect.any(Number));
    const syntax = await fx.runError('insert_after_symbol', { symbol: 'Circle.area', body: 'broken(: number {' });
    expect(syntax.code).toBe('INVALID_INPUT');
    expect(fx.read('src/shapes.ts')).toBe(before);
  });

  it('a file changed between preview and apply: CONTENT_MODIFIED, nothing written', async () => {
    const preview = await fx.run('replace_symbol_body', { symbol: 'report', body: 'export function report(): string {\n  return "";\n}' });
    const changed = fx.read('src/main.ts') + '\n// edited meanwhile\n';
    fx.write('src/main.ts', changed);
    const err = await fx.runError('replace_symbol_body', {
      symbol: 'report',
      body: 'export function report(): string {\n  return "";\n}',
      apply: true,
      expected_hash: preview.edit_hash,
    });
    expect(err.code).toBe('CONTENT_MODIFIED');
    expect(fx.read('src/main.ts')).toBe(changed);
    expect(fs.existsSync(path.join(fx.root, 'src/main.ts'))).toBe(true);
  });

  it('undo: restores the last applied edit; refused, restoring nothing, when its file changed since', async () => {
    const before = fx.read('src/main.ts');
    await fx.run('insert_after_symbol', { symbol: 'report', body: 'export const ONE = 1;', apply: true });
    expect(fx.read('src/main.ts')).toContain('export const ONE = 1;');
    const u = await fx.run('undo');
    expect([u.operation, u.files.map((f: { file: string }) => f.file)]).toEqual(['insert_after_symbol', ['src/main.ts']]);
    expect(fx.read('src/main.ts')).toBe(before);
    await fx.run('insert_after_symbol', { symbol: 'report', body: 'export const TWO = 2;', apply: true });
    const edited = fx.read('src/main.ts') + '// changed by someone else\n';
    fx.write('src/main.ts', edited);
    const err = await fx.runError('undo');
    expect([err.code, err.details?.files]).toEqual(['CONTENT_MODIFIED', ['src/main.ts']]);
    expect(fx.read('src/main.ts')).toBe(edited);
  });

  it('a method replaced by its own text as get_symbol answers it (first line bare, the rest indented): the file is unchanged', async () => {
    const before = fx.read('src/shapes.ts');
    for (const symbol of ['Circle.area', 'Circle.Unit.size']) {
      const got = await fx.run('get_symbol', { symbol });
      const r = await fx.run('replace_symbol_body', { symbol_id: got.symbol.symbol_id, body: got.source, apply: true });
      // the same text: nothing to write (symbol-edit-delta.test.ts checks it takes no undo slot)
      expect([r.applied, r.note, fx.read('src/shapes.ts')]).toEqual([false, expect.stringContaining('nothing to write'), before]);
    }
  });
});
