// The resolution policy (src/service/navigation/resolution-policy.ts) on fixtures/resolution-py through
// pyright: one name per rule, answered as a developer would pick it.
import { describe, expect, it } from 'vitest';

import { openFixture } from '../helpers/gateway.js';

type Alt = { kind: string; file: string; line: number; scope: string; role: string };

describe('name resolution policy, Python', async () => {
  const fx = await openFixture('resolution-py');

  it('scope: the module-level class before a class declared in a function body', async () => {
    const r = await fx.run('find_definition', { symbol: 'Registry' });
    expect(r.definitions.map((d: { file: string; line: number }) => `${d.file}:${d.line}`)).toEqual(['app/registry.py:4']);
    expect(r._meta.alternatives.map((a: Alt) => `${a.kind} ${a.file}:${a.line} ${a.scope}`)).toEqual(['class app/registry.py:22 local']);
  });

  it('scope: the module-level function before a method and a local variable', async () => {
    const r = await fx.run('find_definition', { symbol: 'render' });
    expect(r.definitions.map((d: { file: string; line: number }) => `${d.file}:${d.line}`)).toEqual(['app/registry.py:15']);
    expect(r._meta.alternatives.map((a: Alt) => `${a.line} ${a.scope}`)).toEqual(['7 member', '25 local']);
  });

  it('file role: the source class before a test double in tests/test_*.py', async () => {
    const r = await fx.run('find_type_definition', { type_name: 'Widget' });
    expect(r.location.file_path).toBe('app/widget.py');
    expect(r._meta.alternatives).toEqual([expect.objectContaining({ file: 'tests/test_widget.py', role: 'test', scope: 'module', kind: 'class' })]);
  });

  it('kind fit: find_callers takes the function; to find_definition the variable and the function tie, and both are answered', async () => {
    const r = await fx.run('find_callers', { symbol: 'loader' });
    expect([r.root.file, r.root.calls.map((c: { name: string }) => c.name)]).toEqual(['app/loader.py', ['load_all']]);
    expect(r._meta.alternatives).toEqual([expect.objectContaining({ file: 'app/limits.py', scope: 'module' })]);
    // a list answers a tie: both declarations, ranked, instead of AMBIGUOUS_SYMBOL
    const d = await fx.run('find_definition', { symbol: 'loader' });
    expect([d.tied, d.total]).toEqual([true, 2]);
    expect(d.definitions.map((x: { file: string }) => x.file).sort()).toEqual(['app/limits.py', 'app/loader.py']);
  });

  it('a real tie (two module-level source classes) stays AMBIGUOUS_SYMBOL with the candidates ranked', async () => {
    const err = await fx.runError('find_type_definition', { type_name: 'Config' });
    expect(err.code).toBe('AMBIGUOUS_SYMBOL');
    const c = (err.details as { candidates: Alt[] }).candidates;
    expect(c.map((x) => `${x.file} ${x.scope} ${x.role}`)).toEqual(['app/legacy/config.py module source', 'app/settings/config.py module source']);
  });

  it('strict: true never picks, even with a clear leader', async () => {
    const err = await fx.runError('find_definition', { symbol: 'Registry', strict: true });
    expect(err.code).toBe('AMBIGUOUS_SYMBOL');
    expect((err.details as { candidates: Alt[] }).candidates.map((x) => `${x.line} ${x.scope}`)).toEqual(['4 module', '22 local']);
  });

  it('search_symbols: the exact-name source definition before a test double and partial matches', async () => {
    const w = await fx.run('search_symbols', { query: 'Widget' });
    expect(w.results.slice(0, 2).map((h: { file: string; name: string }) => `${h.name} ${h.file}`)).toEqual([
      'Widget app/widget.py',
      'Widget tests/test_widget.py',
    ]);
    const c = await fx.run('search_symbols', { query: 'Config' });
    // pyright also lists the parameter `config` of a function: a parameter is no symbol, so it is not cataloged
    expect(c.results.map((h: { name: string; kind: string }) => `${h.kind} ${h.name}`).slice(0, 3)).toEqual([
      'class Config',
      'class Config',
      'function configure',
    ]);
    expect(c.results.map((h: { name: string }) => h.name)).not.toContain('config');
  });
});
