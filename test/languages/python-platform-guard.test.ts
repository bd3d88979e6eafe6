// fixtures/py-platform-guard: pkg/winonly.py starts with `if sys.platform != "win32": raise
// ImportError`, so on Linux pyright reads the rest of it as unreachable, never binds its import of
// helper, and leaves its uses out of references and call hierarchy — with nothing in its answer
// saying so. lspgate finds them (a guard before a spelling, then pyright's own "unreachable" hint
// around it), says so in the answer, and counts them when a delete checks for remaining uses.
import { describe, expect, it } from 'vitest';

import { openScratch } from '../helpers/scratch.js';

const WINONLY = [
  { file: 'pkg/winonly.py', line: 8, column: 22 },
  { file: 'pkg/winonly.py', line: 12, column: 12 },
];

describe('uses of a Python function inside code pyright reads as unreachable here', async () => {
  const fx = await openScratch('py-platform-guard');

  it('find_references lists them apart, warns in _meta and in the text, and does not count them', async () => {
    const r = await fx.run('find_references', { symbol_id: 'pkg/util.py::helper#function' });
    const listed = r.references.map((x: { file: string; line: number }) => `${x.file}:${x.line}`);
    // a use in a branch pyright rules out is still reported (the import that binds it is reachable)
    expect(listed).toEqual(expect.arrayContaining(['pkg/main.py:3', 'pkg/main.py:8', 'pkg/main.py:13', 'pkg/util.py:4']));
    expect(listed.filter((l: string) => l.startsWith('pkg/winonly.py'))).toEqual([]);
    expect(r.unreachable).toEqual(WINONLY);
    expect(r.total).toBe(r.references.length);
    expect(r._meta.warnings.join('\n')).toMatch(
      /pyright reports no references inside code it reads as unreachable on this machine \(".*unreachable.*"\): helper is spelled there in pkg\/winonly\.py at 8:22, 12:12/,
    );
    const text = await fx.runText('find_references', { symbol_id: 'pkg/util.py::helper#function' });
    expect(text.split('\n')[0]).toMatch(/^> \*\*note\*\* — pyright reports no references inside code it reads as unreachable/);
  });

  it('a name no guarded file spells gets no such warning', async () => {
    const r = await fx.run('find_references', { symbol_id: 'pkg/util.py::plain#function' });
    expect(r.unreachable).toBeUndefined();
    expect((r._meta.warnings ?? []).join('\n')).not.toMatch(/unreachable/);
  });

  it('find_callers says the same', async () => {
    const r = await fx.run('find_callers', { symbol_id: 'pkg/util.py::helper#function' });
    expect(r._meta.warnings.join('\n')).toMatch(/helper is spelled there in pkg\/winonly\.py at 8:22, 12:12/);
  });

  it('delete_symbol counts them as the uses they are: the apply is refused, nothing written', async () => {
    const before = fx.read('pkg/util.py');
    const err = await fx.runError('delete_symbol', { symbol_id: 'pkg/util.py::helper#function', apply: true });
    expect(err.code).toBe('INVALID_INPUT');
    expect(err.message).toMatch(/still referenced .* \(pkg\/main\.py, pkg\/winonly\.py\)/);
    expect(fx.read('pkg/util.py')).toBe(before);
  });
});
