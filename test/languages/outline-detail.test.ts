// get_file_outline `detail` and `depth` on fixtures/ts-app through typescript-language-server.
import { describe, expect, it } from 'vitest';

import { openFixture } from '../helpers/gateway.js';

type Node = { kind: string; name: string; signature?: string; lines?: [number, number]; symbol_id?: string; children?: Node[] };
const tree = (list: Node[]): unknown[] => list.map((s) => (s.children ? [s.kind, s.name, tree(s.children)] : [s.kind, s.name]));
const flat = (list: Node[]): Node[] => list.flatMap((s) => [s, ...flat(s.children ?? [])]);

describe('get_file_outline detail and depth', async () => {
  const fx = await openFixture('ts-app');
  const file = 'src/services/geometry.ts';

  it('signatures (the default): kind, name, signature and line range, nested, without ids', async () => {
    const r = await fx.run('get_file_outline', { file });
    const nodes = flat(r.symbols);
    expect(nodes.find((n) => n.name === 'circle')).toEqual({
      kind: 'function',
      name: 'circle',
      signature: 'function circle(r: number): Circle',
      lines: [expect.any(Number), expect.any(Number)],
    });
    expect(nodes.every((n) => n.symbol_id === undefined && n.lines![0] <= n.lines![1])).toBe(true);
    const full = await fx.run('get_file_outline', { file, detail: 'full' });
    expect(tree(r.symbols)).toEqual(tree(full.symbols));
    // the same lines as the full outline's locations
    const fullCircle = flat(full.symbols).find((n) => n.name === 'circle') as Node & { location: { start_line: number; end_line: number } };
    expect(nodes.find((n) => n.name === 'circle')!.lines).toEqual([fullCircle.location.start_line, fullCircle.location.end_line]);
    expect(JSON.stringify(r.symbols).length).toBeLessThan(JSON.stringify(full.symbols).length / 2);
    // A signature that is only the kind and the name (`namespace Geometry`) is left out of the default.
    const bare = flat(full.symbols).filter((n) => n.signature?.replace(/^export\s+/, '') === `${n.kind} ${n.name}`);
    expect(bare.map((n) => n.name)).toContain('Geometry');
    for (const b of bare) expect(nodes.find((n) => n.name === b.name && n.kind === b.kind)!.signature).toBeUndefined();
  });

  it('names: no signatures; depth 1: top-level symbols only', async () => {
    const names = await fx.run('get_file_outline', { file, detail: 'names' });
    expect(flat(names.symbols).some((n) => n.signature !== undefined)).toBe(false);
    expect(flat(names.symbols).map((n) => n.name)).toContain('square');
    const top = await fx.run('get_file_outline', { file, depth: 1 });
    expect(tree(top.symbols)).toEqual([['namespace', 'Geometry']]);
    const two = await fx.run('get_file_outline', { file, depth: 2, detail: 'full' });
    expect(flat(two.symbols).map((n) => n.name)).toEqual(['Geometry', 'UNIT', 'totalArea', 'Factory']);
    expect(two.symbols[0].symbol_id).toBe('src/services/geometry.ts::Geometry#namespace');
    const md = await fx.runText('get_file_outline', { file });
    expect(md).toMatch(/- function \*\*circle\*\* — lines \d+-\d+: `function circle\(r: number\): Circle`/);
  });
});
