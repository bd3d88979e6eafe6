// Diagram text with hostile labels must still parse with mermaid's and Graphviz's own parsers, and
// the parsers must reject broken text (so the checks below can fail).
import { describe, expect, it } from 'vitest';
import { toDot, toMermaid, type GraphData } from '../../src/analysis/diagrams/diagram-format.js';
import { layoutDot, parseMermaid } from '../helpers/diagram-parsers.js';

const hostile: GraphData = {
  nodes: [
    { id: 'n0', label: 'App\\Models\\User::posts', type: 'class' },
    { id: 'n1', label: 'say "hi" <b>|x|</b> #1', type: 'function' },
    { id: 'n2', label: 'end', type: 'module' },
    { id: 'n3', label: 'a\nb {c} [d] (e)', type: 'component' },
  ],
  edges: [
    { from: 'n0', to: 'n1', label: 'call' },
    { from: 'n1', to: 'n2', label: 'import "x"' },
    { from: 'n2', to: 'n3' },
  ],
};

describe('diagram text', () => {
  it('mermaid: every node and edge, parsed by mermaid as a flowchart', async () => {
    const text = toMermaid(hostile);
    expect(text.split('\n').filter((l) => l.includes('-->'))).toHaveLength(3);
    await expect(parseMermaid(text)).resolves.toMatchObject({ diagramType: 'flowchart-v2' });
    await expect(parseMermaid('flowchart LR\n  n0["a" --> n1\n')).rejects.toThrow();
  }, 30_000);

  it('dot: labels escaped, laid out by Graphviz with every label intact', async () => {
    const svg = await layoutDot(toDot(hostile));
    expect(svg).toContain('App\\Models\\User::posts');
    expect(svg).toContain('say &quot;hi&quot; &lt;b&gt;|x|&lt;/b&gt; #1');
    expect(svg.match(/class="edge"/g)).toHaveLength(3);
    await expect(layoutDot('digraph G { "a" -> ; }')).rejects.toThrow();
  }, 30_000);
});
