/**
 * render_diagram through the spawned front-ends on a workspace whose file names are diagram
 * directives and markup: the one-shot CLI's mermaid text sets no mermaid configuration (a file
 * named `%%{init: {'theme': 'dark'}}%%.ts` used to set the theme of the diagram), and the SVG that
 * `lspgate mcp` answers holds each file name as text, never as an element.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { parseMermaid, readSvg } from '../helpers/diagram-parsers.js';
import { connectStdio, type StdioConnection, textOf } from '../helpers/mcp-client.js';
import { assertBuilt, CLI, removeDir, runCli, tempDir } from '../helpers/spawn.js';

const DIRECTIVE = "%%{init: {'theme': 'dark'}}%%";
const MARKUP = '<img src=x onerror=alert(1)>&lt;b&gt;';

describe('render_diagram labels through the spawned CLI and MCP stdio', () => {
  let base: string;
  let ws: string;
  let mcp: StdioConnection | undefined;

  beforeAll(() => {
    assertBuilt();
    base = tempDir('lspgate-diagram-labels-');
    ws = path.join(base, 'ws');
    mkdirSync(path.join(ws, 'src'), { recursive: true });
    writeFileSync(
      path.join(ws, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { strict: true, module: 'nodenext', target: 'es2022' }, include: ['src'] }),
    );
    writeFileSync(path.join(ws, 'src', `${DIRECTIVE}.ts`), 'export const x = 1;\n');
    writeFileSync(path.join(ws, 'src', `${MARKUP}.ts`), 'export const z = 2;\n');
    writeFileSync(
      path.join(ws, 'src', 'main.ts'),
      `import { x } from ${JSON.stringify(`./${DIRECTIVE}.js`)};\nimport { z } from ${JSON.stringify(`./${MARKUP}.js`)};\nexport const y = x + z;\n`,
    );
  });

  afterAll(async () => {
    await mcp?.client.close();
    removeDir(base);
  });

  it('CLI mermaid: the file named as a directive is a node, and mermaid gets no configuration from it', async () => {
    const r = await runCli(['render_diagram', '--root', ws, '--diagram_type', 'imports', '--json'], { cacheDir: path.join(base, 'cache') });
    expect(r.stderr).not.toMatch(/INTERNAL/);
    const out = JSON.parse(r.stdout) as { nodes: number; edges: number; text: string };
    expect(out).toMatchObject({ nodes: 3, edges: 2 });
    expect(await parseMermaid(out.text)).toEqual({ diagramType: 'flowchart-v2', config: {} });
  });

  it('MCP stdio svg: each file name is the text of its node, and no element comes from a label', async () => {
    mcp = await connectStdio(CLI, ['mcp', '--tools', 'all', '--root', ws], { cacheDir: path.join(base, 'cache') });
    const r = await mcp.client.callTool({ name: 'render_diagram', arguments: { diagram_type: 'imports', format: 'svg', output_format: 'json' } });
    expect(r.isError).not.toBe(true);
    const svg = (r.structuredContent as { text: string }).text;
    const doc = await readSvg(svg);
    expect(doc.parsed).toBe(true);
    expect(doc.count('img')).toBe(0);
    expect(doc.labels('node').sort()).toEqual([`src/${DIRECTIVE}.ts`, `src/${MARKUP}.ts`, 'src/main.ts'].sort());
    expect(textOf(r)).toContain('<svg');
  });
});
