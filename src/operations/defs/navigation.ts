/**
 * Navigation operations: find_definition, find_references, find_callers, find_callees, open_at.
 */
import { z } from 'zod';

import { withMeta } from '../../schema/meta.js';
import { treeNodeShape } from '../../schema/rows.js';
import { ServiceCall } from '../../service/call.js';
import { type CallNode, callTree } from '../../service/navigation/call-tree.js';
import { findDefinition, findReferences } from '../../service/navigation/references.js';
import { targetShape } from '../../service/navigation/resolve.js';
import { type Preview, PreviewSchema } from '../../service/previews.js';
import { openAt } from '../../service/workspace/workspace-info.js';
import { READ_ONLY } from '../annotations.js';
import { SYMBOL_CALLER_ERRORS } from '../caller-errors.js';
import { defineOperation, type Operation } from '../types.js';

export const DefinitionSchema = z.object({
  symbol_id: z.string().optional(),
  name: z.string(),
  kind: z.string(),
  file: z.string().describe('Workspace-relative path (absolute when external)'),
  line: z.number().int(),
  column: z.number().int(),
  end_line: z.number().int(),
  container: z.string().optional().describe('Qualified name of the enclosing symbol'),
  external: z.boolean().optional().describe('Outside the workspace (standard library, dependency)'),
  preview: PreviewSchema.optional().describe('Absent for a file outside the workspace that is not library code'),
});

const ReferenceSchema = z.object({
  file: z.string(),
  line: z.number().int(),
  column: z.number().int(),
  preview: PreviewSchema.optional().describe('Absent for a file outside the workspace that is not library code'),
  isWrite: z.boolean().describe('Assignment / update rather than a read'),
  container: z.string().optional().describe('Qualified name of the enclosing function or class'),
  external: z.boolean().optional(),
});

type CallNodeShape = CallNode;
const CallSiteSchema = z.object({ line: z.number().int(), column: z.number().int(), preview: PreviewSchema });
const CallNodeSchema: z.ZodType<CallNodeShape> = z.lazy(() =>
  z.object({
    ...treeNodeShape,
    calls: z.array(CallNodeSchema).optional(),
    call_sites: z.array(CallSiteSchema).optional(),
    children: z.array(CallNodeSchema).optional(),
  }),
);

const treeInput = z.object({
  ...targetShape,
  depth: z.number().int().min(1).max(5).optional().describe('Levels of the tree (1..5, default 1)'),
  max_results: z.number().int().min(1).max(1000).optional().describe('Node budget of the whole tree (default 50)'),
});
const treeOutput = withMeta({ symbol: z.string(), root: CallNodeSchema });

function previewText(p: Preview, mark?: number): string {
  return p.lines.map((l, i) => `${String(p.start_line + i).padStart(5)}${p.start_line + i === mark ? '>' : ' '} ${l}`).join('\n');
}

function treeMarkdown(title: string, r: { symbol: string; root: CallNode }): string {
  const out = [`## ${title} of ${r.symbol}`, '', `${r.root.kind} **${r.root.name}** — ${r.root.file}:${r.root.line}`];
  const walk = (nodes: CallNode[] | undefined, depth: number) => {
    for (const n of nodes ?? []) {
      const sites = (n.call_sites ?? []).map((s) => `${s.line}:${s.column}`).join(', ');
      out.push(`${'  '.repeat(depth)}- ${n.kind} **${n.name}** — ${n.file}:${n.line}${sites ? ` (calls at ${sites})` : ''}${n.cycle ? ' ↻ cycle' : ''}`);
      walk(n.children, depth + 1);
    }
  };
  walk(r.root.calls, 0);
  if (!r.root.calls?.length) out.push('', '(none)');
  return out.join('\n') + '\n';
}

export const navigationOperations: Operation[] = [
  defineOperation({
    name: 'find_definition',
    title: 'Find definition',
    description:
      'Where a symbol is declared: each definition with its kind, enclosing symbol, symbol_id and a 3-line ' +
      'preview. Name it by `symbol`, `symbol_id`, or `file` + `line` (+ `column`) of a use. A name several ' +
      'declarations share equally answers them ranked (`tied`; `total` counts them).',
    related: { find_references: 'for its uses', get_symbol: 'for its source' },
    input: z.object(targetShape),
    output: withMeta({
      symbol: z.string(),
      found: z.boolean(),
      total: z.number().int().describe('Definitions found; on a tie, the declarations that tie (the first few are listed)'),
      definitions: z.array(DefinitionSchema),
      tied: z.literal(true).optional().describe('Several declarations of the name tie: each is listed, ranked'),
    }),
    annotations: READ_ONLY,
    repl: { command: 'def', positional: ['symbol'] },
    profile: 'core',
    cacheable: true,
    callerErrors: ['SYMBOL_NOT_FOUND', 'FILE_NOT_FOUND', 'PATH_OUTSIDE_WORKSPACE', 'AMBIGUOUS_SYMBOL'],
    waitsForServers: true,
    handler: (input, ctx) => ServiceCall.run(ctx, (call) => findDefinition(call, input)),
    markdown(r) {
      const out = [`## Definition of ${r.symbol}`, ''];
      if (!r.found) out.push('(not found)');
      if (r.tied) out.push(`${r.total} declarations of this name tie; ${r.definitions.length} listed:`, '');
      for (const d of r.definitions) {
        out.push(
          `- ${d.kind} **${d.name}**${d.container ? ` in ${d.container}` : ''} — ${d.file}:${d.line}:${d.column}${d.symbol_id ? ` \`${d.symbol_id}\`` : ''}`,
          ...(d.preview ? ['```', previewText(d.preview, d.line), '```'] : []),
        );
      }
      return out.join('\n') + '\n';
    },
  }),
  defineOperation({
    name: 'find_references',
    title: 'Find references',
    description:
      'Every use of a symbol, from the language server (not text search): file, line, column, a preview, ' +
      'whether it writes, the enclosing function. `total` counts all; `max_results` (default 100) cuts the ' +
      'list.',
    related: { find_callers: 'instead for the calling functions as a tree' },
    input: z.object({
      ...targetShape,
      include_declaration: z.boolean().optional().describe('Include the declaration itself (default true)'),
      max_results: z.number().int().min(1).max(5000).optional().describe('Maximum references listed (default 100)'),
    }),
    output: withMeta({ symbol: z.string(), total: z.number().int(), references: z.array(ReferenceSchema) }),
    annotations: READ_ONLY,
    repl: { command: 'refs', positional: ['symbol'] },
    profile: 'core',
    cacheable: true,
    callerErrors: SYMBOL_CALLER_ERRORS,
    waitsForServers: true,
    handler: (input, ctx) => ServiceCall.run(ctx, (call) => findReferences(call, input)),
    markdown(r) {
      const out = [`## ${r.total} reference(s) to ${r.symbol}`, ''];
      for (const ref of r.references) {
        out.push(
          `- ${ref.file}:${ref.line}:${ref.column}${ref.isWrite ? ' (write)' : ''}${ref.container ? ` in ${ref.container}` : ''}`,
          ...(ref.preview ? ['```', previewText(ref.preview, ref.line), '```'] : []),
        );
      }
      return out.join('\n') + '\n';
    },
  }),
  defineOperation({
    name: 'find_callers',
    title: 'Find callers',
    description:
      'The functions that call the target, as a tree to `depth` (1..5) with each call site; cycles are ' +
      'marked, not expanded. Where the server has no call hierarchy, callers come from references (said in ' +
      '_meta.warnings).',
    related: { find_callees: 'for what it calls', get_context: 'for one hop of callers and callees with the source' },
    input: treeInput,
    output: treeOutput,
    annotations: READ_ONLY,
    repl: { command: 'callers', positional: ['symbol'] },
    profile: 'core',
    cacheable: true,
    callerErrors: SYMBOL_CALLER_ERRORS,
    waitsForServers: true,
    wide: true,
    handler: (input, ctx) => ServiceCall.run(ctx, (call) => callTree(call, input, 'incoming')),
    markdown: (r) => treeMarkdown('Callers', r),
  }),
  defineOperation({
    name: 'find_callees',
    title: 'Find callees',
    description:
      'The functions the target calls, as a tree to `depth` (1..5) with the call sites; calls into libraries are counted in _meta.warnings, not listed.',
    related: { find_callers: 'for who calls it' },
    input: treeInput,
    output: treeOutput,
    annotations: READ_ONLY,
    repl: { command: 'callees', positional: ['symbol'] },
    cacheable: true,
    callerErrors: SYMBOL_CALLER_ERRORS,
    waitsForServers: true,
    wide: true,
    handler: (input, ctx) => ServiceCall.run(ctx, (call) => callTree(call, input, 'outgoing')),
    markdown: (r) => treeMarkdown('Callees', r),
  }),
  defineOperation({
    name: 'open_at',
    answersFrom: 'text',
    title: 'Open at line',
    description:
      'Lines around a line of a file (`context_lines` each side, default 10) and the symbol enclosing it: ' +
      'to read a location an answer gave. Secret files are refused.',
    input: z.object({
      file: z.string().min(1).max(4096).describe('File path relative to the workspace root'),
      line: z.number().int().min(1).describe('1-based line'),
      context_lines: z.number().int().min(0).max(50).optional().describe('Lines before and after (default 10)'),
    }),
    output: withMeta({
      file: z.string(),
      start_line: z.number().int(),
      end_line: z.number().int(),
      lines: z.array(z.string()),
      symbol: z.object({ name: z.string(), kind: z.string(), qualified_name: z.string(), start_line: z.number().int(), end_line: z.number().int() }).optional(),
    }),
    annotations: READ_ONLY,
    repl: { command: 'open', positional: ['file', 'line'] },
    callerErrors: ['FILE_NOT_FOUND', 'PATH_OUTSIDE_WORKSPACE', 'SECRET_FILE'],
    handler: (input, ctx) => ServiceCall.run(ctx, (call) => openAt(call, input)),
    markdown(r) {
      const head = `## ${r.file}:${r.start_line}-${r.end_line}${r.symbol ? ` (in ${r.symbol.kind} ${r.symbol.qualified_name})` : ''}`;
      return [head, '```', previewText({ lines: r.lines.length ? r.lines : [''], start_line: r.start_line }), '```'].join('\n') + '\n';
    },
  }),
];
