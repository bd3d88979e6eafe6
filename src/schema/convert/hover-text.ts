/**
 * Hover answers → plain markdown text, and that text split into its code blocks and prose.
 * LSP 3.17 §3.15.11: `contents` is MarkupContent, a MarkedString, or MarkedString[] (deprecated).
 */
import type { Hover, MarkedString, MarkupContent } from 'vscode-languageserver-protocol';

export function fromHoverContents(hover: Hover | null | undefined): string | undefined {
  if (!hover) return undefined;
  const c = hover.contents as MarkupContent | MarkedString | MarkedString[];
  const parts = Array.isArray(c) ? c.map(markedToText) : [typeof c === 'object' && 'kind' in c ? c.value : markedToText(c)];
  const text = parts.join('\n').trim();
  return text.length ? text : undefined;
}

function markedToText(m: MarkedString): string {
  return typeof m === 'string' ? m : '```' + m.language + '\n' + m.value + '\n```';
}

export interface HoverParts {
  /** Contents of the fenced code blocks, in order. */
  code: string[];
  /** Everything outside the fences, trimmed. */
  prose: string;
}

export function splitHoverMarkdown(text: string): HoverParts {
  const code: string[] = [];
  const prose: string[] = [];
  const re = /```[\w+-]*\n([\s\S]*?)\n?```/g;
  let last = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    prose.push(text.slice(last, m.index));
    code.push(m[1]!.trim());
    last = m.index + m[0].length;
  }
  prose.push(text.slice(last));
  return { code, prose: prose.join('\n').trim() };
}
