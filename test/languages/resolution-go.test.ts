// The resolution policy (src/service/navigation/resolution-policy.ts) on fixtures/resolution-go through
// gopls: one name per rule, answered as a developer would pick it. gopls lists no symbols inside
// function bodies, so Go's scope rule is package-level before methods.
import { describe, expect, it } from 'vitest';

import { openFixture } from '../helpers/gateway.js';
import { goAvailable } from '../helpers/go.js';

type Alt = { kind: string; file: string; line: number; scope: string; role: string };

describe.runIf(goAvailable)('name resolution policy, Go', async () => {
  const fx = await openFixture('resolution-go');

  it('scope: the package-level function before the method of the same name', async () => {
    const r = await fx.run('find_definition', { symbol: 'Render' });
    expect(r.definitions.map((d: { file: string; line: number }) => `${d.file}:${d.line}`)).toEqual(['registry/registry.go:19']);
    expect(r._meta.alternatives.map((a: Alt) => `${a.kind} ${a.line} ${a.scope}`)).toEqual(['method 10 member']);
  });

  it('file role: the source type before a test double in a _test.go file', async () => {
    const r = await fx.run('find_type_definition', { type_name: 'Widget' });
    expect(r.location.file_path).toBe('widget/widget.go');
    expect(r._meta.alternatives).toEqual([expect.objectContaining({ file: 'widget/widget_test.go', role: 'test', scope: 'module' })]);
  });

  it('kind fit: find_callers takes the function; to find_definition the variable and the function tie, and both are answered', async () => {
    const r = await fx.run('find_callers', { symbol: 'Loader' });
    expect([r.root.file, r.root.calls.map((c: { name: string }) => c.name)]).toEqual(['loader/loader.go', ['LoadAll']]);
    expect(r._meta.alternatives).toEqual([expect.objectContaining({ file: 'limits/limits.go', kind: 'variable' })]);
    // a list answers a tie: both declarations, ranked, instead of AMBIGUOUS_SYMBOL
    const d = await fx.run('find_definition', { symbol: 'Loader' });
    expect([d.tied, d.total]).toEqual([true, 2]);
    expect(d.definitions.map((x: { file: string }) => x.file).sort()).toEqual(['limits/limits.go', 'loader/loader.go']);
  });

  it('a real tie (two package-level source types) stays AMBIGUOUS_SYMBOL with the candidates ranked', async () => {
    const err = await fx.runError('find_type_definition', { type_name: 'Config' });
    expect(err.code).toBe('AMBIGUOUS_SYMBOL');
    const c = (err.details as { candidates: Alt[] }).candidates;
    expect(c.map((x) => `${x.file} ${x.scope} ${x.role}`)).toEqual(['legacy/config.go module source', 'settings/config.go module source']);
  });

  it('strict: true never picks, even with a clear leader', async () => {
    const err = await fx.runError('find_definition', { symbol: 'Render', strict: true });
    expect(err.code).toBe('AMBIGUOUS_SYMBOL');
    expect((err.details as { candidates: Alt[] }).candidates.map((x) => `${x.line} ${x.scope}`)).toEqual(['19 module', '10 member']);
  });

  it('search_symbols: the exact-name source definition before a test double and partial matches', async () => {
    const w = await fx.run('search_symbols', { query: 'Widget' });
    expect(w.results.slice(0, 2).map((h: { file: string; name: string }) => `${h.name} ${h.file}`)).toEqual([
      'Widget widget/widget.go',
      'Widget widget/widget_test.go',
    ]);
    const c = await fx.run('search_symbols', { query: 'Config' });
    expect(c.results.map((h: { name: string }) => h.name).slice(0, 3)).toEqual(['Config', 'Config', 'Configure']);
  });
});
