/**
 * get_context: one symbol's source, callers, callees, signature types, tests and
 * references in one answer within a token budget.
 */
import { z } from 'zod';

import { tokensOf } from '../../core/paging.js';
import { withMeta } from '../../schema/meta.js';
import { ServiceCall } from '../../service/call.js';
import { CONTEXT_PARTS } from '../../service/context/context-budget.js';
import { contextBundle, DEFAULT_CONTEXT_TOKENS } from '../../service/context/context-bundle.js';
import { targetShape } from '../../service/navigation/resolve.js';
import { READ_ONLY } from '../annotations.js';
import { SYMBOL_CALLER_ERRORS } from '../caller-errors.js';
import type { MetaCollector } from '../meta-collector.js';
import { guidanceLines } from '../render/must-keep-lines.js';
import { defineOperation, type Operation } from '../types.js';

const PartSchema = z.enum(CONTEXT_PARTS);

const RefSchema = z.object({
  name: z.string(),
  kind: z.string(),
  file: z.string(),
  line: z.number().int(),
  proximity: z.enum(['same_file', 'same_dir', 'elsewhere']).describe('Where it is, seen from the symbol: ranked nearest first'),
  symbol_id: z.string().optional(),
  signature: z.string().optional(),
  summary: z.string().optional().describe('First sentence of its doc comment'),
  call_lines: z.array(z.number().int()).describe('Lines of the calls, in the calling file'),
});

const TypeSchema = z.object({
  name: z.string(),
  kind: z.string(),
  file: z.string(),
  line: z.number().int(),
  symbol_id: z.string().optional(),
  signature: z.string().optional(),
  summary: z.string().optional(),
});

const SiteSchema = z.object({ file: z.string(), line: z.number().int(), container: z.string().optional().describe('Enclosing function / class') });

const OmittedSchema = z.object({
  part: PartSchema,
  count: z.number().int().describe('Items left out (lines, for source)'),
  fetch: z.object({ operation: z.string(), input: z.record(z.string(), z.unknown()) }).describe('The call that returns what was left out'),
});

/**
 * What `_meta` will cost once the runner adds it: the collector's lists as they are, and the widest
 * values of the fields the runner fills in afterwards (timing, savings). 40 tokens cover one more
 * warning (a server that began indexing while answering makes the service ask again).
 */
function metaTokens(meta: MetaCollector, workspace: string): number {
  const worst = {
    timing_ms: 9999999.99,
    workspace,
    truncated: false,
    tokens_saved: 999999999,
    total_tokens_saved: 999999999999,
    index_state: 'indexing',
    servers: [...meta.servers.values()],
    limits_hit: meta.limitsHit,
    warnings: meta.warnings,
    alternatives: meta.alternatives,
  };
  return tokensOf(worst) + 40;
}

export const contextOperations: Operation[] = [
  defineOperation({
    name: 'get_context',
    title: 'Context of a symbol',
    description:
      'What to read before changing a function, method or type, in one answer within `max_tokens`: what ' +
      'must not break (invariants, guidance, flows); its source; callers and callees one hop away, nearest ' +
      'first; the workspace types its signature names; its tests and references. Filled in that order ' +
      '(`include` picks parts); what does not fit is counted in `omitted` with the call that fetches it.',
    input: z.object({
      ...targetShape,
      max_tokens: z.number().int().min(600).max(100000).optional().describe(`Answer budget (bytes/4; default ${DEFAULT_CONTEXT_TOKENS})`),
      include: z.array(PartSchema).min(1).max(6).optional().describe('Default all'),
    }),
    output: withMeta({
      symbol: z.string(),
      symbol_id: z.string(),
      kind: z.string(),
      file: z.string(),
      line: z.number().int(),
      end_line: z.number().int(),
      signature: z.string(),
      summary: z.string().optional(),
      invariants: z
        .array(
          z.object({
            // 1..3 as a number: a union of literals lists three schemas in the default profile
            tier: z.number().int().min(1).max(3),
            marker: z.string(),
            text: z.string(),
            start_line: z.number().int(),
            end_line: z.number().int(),
            chunk_id: z.string(),
            provenance: z.string().optional(),
          }),
        )
        .describe('What must not break: invariants in its lines or the comment above (tier 1 marker, 2 convention, 3 heuristic)'),
      // {category, also_review, required_tests, watch_out}; [{flow_id, step_id, trigger, invariants, unresolved}]
      guidance: z.unknown().optional(),
      flows: z.unknown().optional(),
      source: z.object({ start_line: z.number().int(), end_line: z.number().int(), text: z.string() }).optional(),
      callers: z.array(RefSchema).optional(),
      callees: z.array(RefSchema).optional(),
      types: z.array(TypeSchema).optional(),
      tests: z.array(SiteSchema).optional(),
      references: z.array(SiteSchema).optional(),
      truncated: z.boolean().describe('Something asked for did not fit max_tokens (see omitted)'),
      omitted: z.array(OmittedSchema),
    }),
    annotations: READ_ONLY,
    repl: { command: 'ctx', positional: ['symbol'] },
    profile: 'core',
    callerErrors: SYMBOL_CALLER_ERRORS,
    waitsForServers: true,
    handler: (input, ctx) =>
      ServiceCall.run(ctx, async (call) => (await contextBundle(call, input, () => metaTokens(ctx.meta, ctx.workspace.root))).body as never),
    markdown: (r) => contextMarkdown(r),
  }),
];

type Ref = z.infer<typeof RefSchema>;
type Site = z.infer<typeof SiteSchema>;

function contextMarkdown(r: {
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
  types?: z.infer<typeof TypeSchema>[] | undefined;
  tests?: Site[] | undefined;
  references?: Site[] | undefined;
  omitted: z.infer<typeof OmittedSchema>[];
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
