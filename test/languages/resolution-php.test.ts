// The resolution policy (src/service/navigation/resolution-policy.ts) on fixtures/resolution-php through
// intelephense: one name per rule, answered as a developer would pick it. intelephense lists no
// symbols inside function bodies, so PHP's scope rule is namespace-level before class members.
import { describe, expect, it } from 'vitest';

import { openFixture } from '../helpers/gateway.js';

type Alt = { kind: string; file: string; line: number; scope: string; role: string };

describe('name resolution policy, PHP', async () => {
  const fx = await openFixture('resolution-php');

  it('scope: the namespace-level function before the method of the same name', async () => {
    const r = await fx.run('find_definition', { symbol: 'render' });
    expect(r.definitions.map((d: { file: string; line: number }) => `${d.file}:${d.line}`)).toEqual(['app/functions.php:6']);
    expect(r._meta.alternatives.map((a: Alt) => `${a.kind} ${a.file}:${a.line} ${a.scope}`)).toEqual(['method app/Registry.php:11 member']);
  });

  it('file role: the source class before a test double under tests/', async () => {
    const r = await fx.run('find_type_definition', { type_name: 'Widget' });
    expect(r.location.file_path).toBe('app/Widget.php');
    expect(r._meta.alternatives).toEqual([expect.objectContaining({ file: 'tests/Fakes/Widget.php', role: 'test', scope: 'module' })]);
  });

  it('kind fit: find_callers takes the function; to find_definition the constant and the function tie, and both are answered', async () => {
    const r = await fx.run('find_callers', { symbol: 'loader' });
    expect([r.root.file, r.root.calls.map((c: { name: string }) => c.name)]).toEqual(['app/functions.php', ['loadAll']]);
    expect(r._meta.alternatives).toEqual([expect.objectContaining({ file: 'app/Limits.php', kind: 'constant' })]);
    // a list answers a tie: both declarations, ranked, instead of AMBIGUOUS_SYMBOL
    const d = await fx.run('find_definition', { symbol: 'loader' });
    expect([d.tied, d.total]).toEqual([true, 2]);
    expect(d.definitions.map((x: { file: string }) => x.file).sort()).toEqual(['app/Limits.php', 'app/functions.php']);
  });

  it('kind fit: find_type_definition takes the class before a namespace of the same name', async () => {
    const r = await fx.run('find_type_definition', { type_name: 'Shape' });
    expect([r.kind, r.location.file_path]).toEqual(['class', 'app/Models/Shape.php']);
    expect(r._meta.alternatives).toEqual([expect.objectContaining({ file: 'app/Shape/helpers.php', kind: 'namespace' })]);
  });

  it('a real tie (two namespace-level source classes) stays AMBIGUOUS_SYMBOL with the candidates ranked', async () => {
    const err = await fx.runError('find_type_definition', { type_name: 'Config' });
    expect(err.code).toBe('AMBIGUOUS_SYMBOL');
    const c = (err.details as { candidates: Alt[] }).candidates;
    expect(c.map((x) => `${x.file} ${x.scope} ${x.role}`)).toEqual(['app/Legacy/Config.php module source', 'app/Settings/Config.php module source']);
  });

  it('strict: true never picks, even with a clear leader', async () => {
    const err = await fx.runError('get_function_details', { function_name: 'render', strict: true });
    expect(err.code).toBe('AMBIGUOUS_SYMBOL');
    expect((err.details as { candidates: Alt[] }).candidates.map((x) => `${x.line} ${x.scope}`)).toEqual(['6 module', '11 member']);
  });

  it('search_symbols: the exact-name source definition before a test double and partial matches', async () => {
    const w = await fx.run('search_symbols', { query: 'Widget' });
    expect(w.results.slice(0, 2).map((h: { file: string; name: string }) => `${h.name} ${h.file}`)).toEqual([
      'Widget app/Widget.php',
      'Widget tests/Fakes/Widget.php',
    ]);
    const c = await fx.run('search_symbols', { query: 'Config' });
    expect(c.results.map((h: { name: string }) => h.name).slice(0, 3)).toEqual(['Config', 'Config', 'configure']);
  });
});
