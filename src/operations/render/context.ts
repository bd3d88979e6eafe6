/**
 * Markdown of get_context.
 */
import type { Omitted, Ref, Site, TypeRow } from '../contracts/context.js';
import { guidanceLines } from './must-keep-lines.js';

export function contextMarkdown(r: {
  symbol: string;
  kind: string;
  file: string;
  line: number;
  end_line: number;
  signature: string;
  summary?: string | undefined;
  invariants: { tier: number; marker: string; text: string; start_line: number }[];
  guidance?: unknown;
  flows?: unknown;
  source?: { start_line: number; end_line: number; text: string } | undefined;
  callers?: Ref[] | undefined;
  callees?: Ref[] | undefined;
  types?: TypeRow[] | undefined;
  tests?: Site[] | undefined;
  references?: Site[] | undefined;
  omitted: Omitted[];
}): string {
  const out = [`## ${r.kind} ${r.symbol} — ${r.file}:${r.line}-${r.end_line}`, '', `\`${r.signature}\``];
  if (r.summary) out.push('', r.summary);
  if (r.invariants.length)
    out.push('', '### Invariants', ...r.invariants.map((i) => `- tier ${i.tier} ${i.marker} (line ${i.start_line}): ${i.text.split('\n').join(' ')}`));
  const guided = guidanceLines(r);
  if (guided.length) out.push('', '### Guidance and flows', ...guided);
  if (r.source) out.push('', '```', r.source.text, '```');
  const refs = (title: string, list: Ref[] | undefined) => {
    if (!list) return;
    out.push(
      '',
      `### ${title}`,
      ...list.map(
        (x) =>
          `- ${x.kind} **${x.name}** — ${x.file}:${x.line} (${x.proximity})${x.signature ? `: \`${x.signature}\`` : ''}${x.summary ? ` — ${x.summary}` : ''}`,
      ),
    );
    if (!list.length) out.push('(none)');
  };
  refs('Callers', r.callers);
  refs('Callees', r.callees);
  if (r.types)
    out.push(
      '',
      '### Types',
      ...r.types.map((x) => `- ${x.kind} **${x.name}** — ${x.file}:${x.line}${x.signature ? `: \`${x.signature}\`` : ''}`),
      ...(r.types.length ? [] : ['(none)']),
    );
  for (const [title, list] of [
    ['Tests', r.tests],
    ['References', r.references],
  ] as const) {
    if (list)
      out.push('', `### ${title}`, ...list.map((x) => `- ${x.file}:${x.line}${x.container ? ` in ${x.container}` : ''}`), ...(list.length ? [] : ['(none)']));
  }
  if (r.omitted.length)
    out.push('', '### Left out (max_tokens)', ...r.omitted.map((o) => `- ${o.part}: ${o.count} — \`${o.fetch.operation} ${JSON.stringify(o.fetch.input)}\``));
  return out.join('\n') + '\n';
}
