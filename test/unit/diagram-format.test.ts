// Diagram text with hostile labels must still parse with mermaid's and Graphviz's own parsers, and
// the parsers must reject broken text (so the checks below can fail). Labels are file and symbol
// names a workspace chooses: none may reach mermaid's configuration as a directive, become markup
// in the SVG, or be read by Graphviz as an escape sequence or entity.
import { describe, expect, it } from 'vitest';

import { type GraphData, toDot, toMermaid, toSvg } from '../../src/analysis/diagrams/diagram-format.js';
import { layoutDot, parseMermaid, readSvg } from '../helpers/diagram-parsers.js';

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

/** Labels that are directives, comments, markdown strings, markup, entities and escapes. */
export const DIRECTIVE_LABELS = [
  "%%{init: {'theme': 'dark'}}%%.ts",
  '%%{init: {"flowchart": {"htmlLabels": false}}}%%',
  '%%{wrap}%%',
  'a\n%% a comment line\nb',
  '`**markdown**`',
  '<script>alert(1)</script>]]>',
  'a&lt;b &#60;i&#62; x&y',
  'dir\\N\\G\\L',
];

const directiveGraph: GraphData = {
  nodes: DIRECTIVE_LABELS.map((label, i) => ({ id: `n${i}`, label, type: i % 2 ? 'function' : 'module' })),
  edges: DIRECTIVE_LABELS.slice(1).map((label, i) => ({ from: `n${i}`, to: `n${i + 1}`, label })),
};

describe('diagram text', () => {
  it('mermaid: every node and edge, parsed by mermaid as a flowchart', async () => {
    const text = toMermaid(hostile);
    expect(text.split('\n').filter((l) => l.includes('-->'))).toHaveLength(3);
    await expect(parseMermaid(text)).resolves.toMatchObject({ diagramType: 'flowchart-v2' });
    await expect(parseMermaid('flowchart LR\n  n0["a" --> n1\n')).rejects.toThrow();
  }, 30_000);

  it('mermaid: a label holding a directive sets no configuration and removes nothing', async () => {
    // the check can fail: the same directive outside a label does reach the configuration
    await expect(parseMermaid(`%%{init: {'theme': 'dark'}}%%\nflowchart LR\n  n0["a"]\n`)).resolves.toMatchObject({ config: { theme: 'dark' } });
    const text = toMermaid(directiveGraph);
    expect(text).not.toMatch(/%%|\{init|`/);
    const parsed = (await parseMermaid(text)) as { diagramType: string; config: unknown };
    expect(parsed).toEqual({ diagramType: 'flowchart-v2', config: {} });
    expect(text.split('\n').filter((l) => l.includes('-->'))).toHaveLength(DIRECTIVE_LABELS.length - 1);
  }, 30_000);

  it('dot: labels escaped, laid out by Graphviz with every label intact', async () => {
    const svg = await layoutDot(toDot(hostile));
    expect(svg).toContain('App\\Models\\User::posts');
    expect(svg).toContain('say &quot;hi&quot; &lt;b&gt;|x|&lt;/b&gt; #1');
    expect(svg.match(/class="edge"/g)).toHaveLength(3);
    await expect(layoutDot('digraph G { "a" -> ; }')).rejects.toThrow();
  }, 30_000);

  it('svg: every hostile label is its own text, exactly, and nothing else is markup', async () => {
    const svg = await readSvg(await toSvg(directiveGraph));
    expect(svg.parsed).toBe(true);
    expect(svg.count('script')).toBe(0);
    expect(svg.labels('node').sort()).toEqual([...DIRECTIVE_LABELS].sort());
    expect(svg.labels('edge').sort()).toEqual(DIRECTIVE_LABELS.slice(1).sort());
  }, 30_000);
});
