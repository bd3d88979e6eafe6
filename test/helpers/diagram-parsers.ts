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

interface SvgElement {
  textContent: string | null;
  querySelectorAll(selector: string): Iterable<SvgElement>;
}
interface SvgDocument extends SvgElement {
  querySelector(selector: string): SvgElement | null;
  getElementsByTagName(tag: string): { length: number };
}

/**
 * An SVG read by an XML parser (jsdom, image/svg+xml): whether it parsed, how many elements of a
 * tag it holds, and the text of each node's and edge's label (a label's lines joined by \n).
 */
export async function readSvg(svg: string): Promise<{ parsed: boolean; count(tag: string): number; labels(kind: 'node' | 'edge'): string[] }> {
  const { JSDOM } = await import('jsdom');
  const doc = (new JSDOM(svg, { contentType: 'image/svg+xml' }).window as { document: SvgDocument }).document;
  const textOf = (g: SvgElement) => [...g.querySelectorAll('text')].map((t) => t.textContent ?? '').join('\n');
  return {
    parsed: doc.querySelector('parsererror') === null,
    count: (tag) => doc.getElementsByTagName(tag).length,
    labels: (kind) => [...doc.querySelectorAll(`g.${kind}`)].map(textOf),
  };
}
