// The resolution policy (src/service/navigation/resolution-policy.ts) on fixtures/resolution-ts through
// typescript-language-server: one name per rule, answered as a developer would pick it.
import { describe, expect, it } from 'vitest';

import { openFixture } from '../helpers/gateway.js';

describe('name resolution policy, TypeScript', async () => {
  const fx = await openFixture('resolution-ts');

  it('scope: the module-level class before a local class of the same name, the others in _meta.alternatives', async () => {
    const r = await fx.run('find_definition', { symbol: 'Registry' });
    expect(r.definitions.map((d: { file: string; line: number }) => `${d.file}:${d.line}`)).toEqual(['src/registry.ts:2']);
    expect(r._meta.alternatives.map((a: { file: string; line: number; scope: string; kind: string }) => `${a.kind} ${a.file}:${a.line} ${a.scope}`)).toEqual([
      'class src/registry.ts:18 local',
    ]);
  });

  it('scope: the module-level function before a method and a local variable', async () => {
    const r = await fx.run('find_definition', { symbol: 'render' });
    expect(r.definitions.map((d: { file: string; line: number }) => `${d.file}:${d.line}`)).toEqual(['src/registry.ts:12']);
    expect(r._meta.alternatives.map((a: { line: number; scope: string }) => `${a.line} ${a.scope}`)).toEqual(['6 member', '22 local']);
  });

  it('file role: the source class before a test double', async () => {
    const r = await fx.run('find_type_definition', { type_name: 'Widget' });
    expect(r.location.file_path).toBe('src/widget.ts');
    expect(r._meta.alternatives).toEqual([expect.objectContaining({ file: 'spec/widget.spec.ts', role: 'test', scope: 'module', kind: 'class' })]);
  });

  it('kind fit: find_callers takes the function; to find_definition the constant and the function tie, and both are answered', async () => {
    const r = await fx.run('find_callers', { symbol: 'loader' });
    expect([r.root.file, r.root.calls.map((c: { name: string }) => c.name)]).toEqual(['src/loader.ts', ['loadAll']]);
    expect(r._meta.alternatives).toEqual([expect.objectContaining({ file: 'src/limits.ts', kind: 'constant' })]);
    // a list answers a tie: both declarations, ranked, instead of AMBIGUOUS_SYMBOL
    const d = await fx.run('find_definition', { symbol: 'loader' });
    expect([d.tied, d.total]).toEqual([true, 2]);
    expect(d.definitions.map((x: { file: string }) => x.file).sort()).toEqual(['src/limits.ts', 'src/loader.ts']);
  });

  it('kind fit: find_type_definition takes the class before a namespace', async () => {
    const r = await fx.run('find_type_definition', { type_name: 'Shape' });
    expect([r.kind, r.location.file_path]).toEqual(['class', 'src/shape.ts']);
    expect(r._meta.alternatives).toEqual([expect.objectContaining({ file: 'src/geometry.ts', kind: 'namespace' })]);
  });

  it('a real tie (two module-level source classes) stays AMBIGUOUS_SYMBOL with the candidates ranked', async () => {
    const err = await fx.runError('find_type_definition', { type_name: 'Config' });
    expect(err.code).toBe('AMBIGUOUS_SYMBOL');
    const c = (err.details as { candidates: { file: string; scope: string; role: string }[] }).candidates;
    expect(c.map((x) => `${x.file} ${x.scope} ${x.role}`)).toEqual(['src/legacy/config.ts module source', 'src/settings/config.ts module source']);
  });

  it('declaration merging: an interface and a const of one module are one symbol, answered at the first declaration', async () => {
    const r = await fx.run('find_definition', { symbol: 'Point' });
    expect(r.definitions.map((d: { file: string; line: number }) => `${d.file}:${d.line}`)).toContain('src/point.ts:2');
    expect(r._meta.alternatives).toEqual([expect.objectContaining({ file: 'src/point.ts', line: 7, kind: 'constant', scope: 'module' })]);
  });

  it('strict: true never picks, even with a clear leader', async () => {
    const err = await fx.runError('find_definition', { symbol: 'Registry', strict: true });
    expect(err.code).toBe('AMBIGUOUS_SYMBOL');
    const c = (err.details as { candidates: { line: number; scope: string }[] }).candidates;
    expect(c.map((x) => `${x.line} ${x.scope}`)).toEqual(['2 module', '18 local']);
    const fn = await fx.runError('get_function_details', { function_name: 'render', strict: true });
    expect(fn.code).toBe('AMBIGUOUS_SYMBOL');
  });

  it('search_symbols: the exact-name source definition before a test double and partial matches', async () => {
    const w = await fx.run('search_symbols', { query: 'Widget' });
    expect(w.results.slice(0, 2).map((h: { file: string; name: string }) => `${h.name} ${h.file}`)).toEqual([
      'Widget src/widget.ts',
      'Widget spec/widget.spec.ts',
    ]);
    const c = await fx.run('search_symbols', { query: 'config' });
    expect(c.results.map((h: { name: string }) => h.name).slice(0, 3)).toEqual(['Config', 'Config', 'configure']);
  });
});
