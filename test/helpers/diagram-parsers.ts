/**
 * The real parsers diagrams must pass: mermaid's own (mermaid.parse, which sanitizes labels with
 * DOMPurify and so needs a DOM: jsdom's window) and Graphviz compiled to WASM (a syntax error throws).
 */
import { Graphviz } from '@hpcc-js/wasm-graphviz';

let mermaidP: Promise<{ parse(text: string): Promise<unknown> }> | undefined;

export async function parseMermaid(text: string): Promise<unknown> {
  mermaidP ??= (async () => {
    const { JSDOM } = await import('jsdom');
    (globalThis as { window?: unknown }).window = new JSDOM('').window;
    return (await import('mermaid')).default;
  })();
  return (await mermaidP).parse(text);
}

let gvP: Promise<Graphviz> | undefined;

/** Lays the dot text out as SVG; throws on a syntax error. */
export async function layoutDot(text: string): Promise<string> {
  gvP ??= Graphviz.load();
  return (await gvP).layout(text, 'svg', 'dot');
}
