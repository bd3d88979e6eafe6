// render_diagram on rel-ts: the edges are query_relationships' edges, and every format parses with
// the real parsers (mermaid, Graphviz WASM).
import { describe, expect, it } from 'vitest';

import { layoutDot, parseMermaid } from '../helpers/diagram-parsers.js';
import { openFixture } from '../helpers/gateway.js';
import type { GraphNode, JsonResult } from '../helpers/results.js';

/** `from -label-> to` by node labels. */
function edges(d: { nodes: { id: string; label: string }[]; edges: { from: string; to: string; label?: string }[] }): string[] {
  const label = new Map(d.nodes.map((n) => [n.id, n.label]));
  return d.edges.map((e) => `${label.get(e.from)} -${e.label}-> ${label.get(e.to)}`);
}

describe('render_diagram: TypeScript', async () => {
  const fx = await openFixture('rel-ts');

  it('json GraphData of the whole workspace: file dependencies made of imports and calls', async () => {
    const r = await fx.run('render_diagram', { format: 'json' });
    expect(r).toMatchObject({ success: true, diagram_type: 'dependencies', format: 'json', nodes: 6, edges: 7, omitted_nodes: 0 });
    expect(edges(r.diagram)).toEqual([
      'src/app/report.ts -call+import-> src/lib/format.ts',
      'src/app/report.ts -call+import-> src/lib/math.ts',
      'src/lib/format.ts -call+import-> src/lib/math.ts',
      'src/main.ts -call+import-> src/app/report.ts',
      'src/main.ts -import-> src/lib/format.ts',
      'src/main.ts -call+import-> src/app/lazy.ts',
      'test/math.test.ts -call+import-> src/lib/math.ts',
    ]);
    expect(r.diagram.nodes.every((n: GraphNode) => n.type === 'module')).toBe(true);
  });

  it('mermaid text parses with mermaid and names every node', async () => {
    const r = await fx.run('render_diagram', {});
    await expect(parseMermaid(r.text)).resolves.toMatchObject({ diagramType: 'flowchart-v2' });
    for (const f of ['src/app/report.ts', 'src/lib/format.ts', 'src/lib/math.ts', 'src/main.ts', 'src/app/lazy.ts', 'test/math.test.ts'])
      expect(r.text).toContain(`"${f}"`);
  });

  it('a call diagram around a function: callees and callers to depth, as dot that Graphviz lays out', async () => {
    const json = await fx.run('render_diagram', { diagram_type: 'calls', target: 'report', depth: 1, format: 'json' });
    expect(edges(json.diagram)).toEqual(['report -call-> total', 'report -call-> square', 'main -call-> report']);
    const dot = await fx.run('render_diagram', { diagram_type: 'calls', target: 'report', depth: 1, format: 'dot' });
    const svg = await layoutDot(dot.text);
    expect(svg.match(/class="edge"/g)).toHaveLength(3);
    const own = await fx.run('render_diagram', { diagram_type: 'calls', target: 'report', depth: 1, format: 'svg' });
    expect(own.text).toContain('<svg');
    expect(own.text.match(/class="edge"/g)).toHaveLength(3);
  });

  it('the node budget keeps the first nodes found and says it cut', async () => {
    const r = await fx.gateway.run('render_diagram', { diagram_type: 'imports', max_nodes: 4, format: 'json', output_format: 'json' });
    expect(r.result.nodes).toBe(4);
    expect(r.result.omitted_nodes).toBeGreaterThan(0);
    expect(r.result._meta.truncated).toBe(true);
    expect((r.result as JsonResult).diagram.nodes.map((n: GraphNode) => n.label)).toEqual([
      'src/app/report.ts',
      'src/lib/format.ts',
      'src/lib/math.ts',
      'src/main.ts',
    ]);
  });

  it('a file target for a call diagram is INVALID_INPUT', async () => {
    expect((await fx.runError('render_diagram', { diagram_type: 'calls', target: 'src/main.ts' })).code).toBe('INVALID_INPUT');
  });
});
