/**
 * Relationship operations: query_relationships.
 */
import { z } from 'zod';

import { analyzeImpact, OPERATIONS } from '../../analysis/relationships/impact.js';
import { QUERY_TYPES, queryRelationships } from '../../analysis/relationships/relationships.js';
import { changedSymbols } from '../../analysis/reports/changed.js';
import { perFile, skipsOf } from '../../analysis/skips.js';
import { decodeCursor, paginate, queryHash } from '../../core/paging.js';
import { withMeta } from '../../schema/meta.js';
import { symbolRowShape } from '../../schema/rows.js';
import { ServiceCall } from '../../service/call.js';
import { READ_ONLY } from '../annotations.js';
import { defineOperation, type Operation } from '../types.js';
import { guidanceLines } from './must-keep-lines.js';
import { skippedMarkdown, SkippedSchema } from './skipped-schema.js';

const Cursor = z.string().max(1000);
const MaxDepth = z.number().int().min(1).max(10);

export const RelationshipSchema = z.object({
  from: z.string().describe('Source element: qualified name (calls) or workspace file (imports, dependencies)'),
  to: z.string().describe('Target element: qualified name, workspace file, or the specifier as written when it did not resolve to a workspace file'),
  type: z.enum(['import', 'call', 'dependency']),
  file: z.string().describe('File where the relationship is written (the caller, the importing file)'),
  line: z.number().int().optional().describe('1-based line of the call site or import'),
  depth: z.number().int().describe('1 = direct; n = found n steps from the target'),
  from_symbol_id: z.string().optional(),
  to_symbol_id: z.string().optional(),
  status: z.enum(['workspace', 'external', 'unresolved']).optional().describe('Imports: resolved to a workspace file, outside the workspace, or not resolved'),
  specifier: z.string().optional().describe('Imports: the module specifier as written'),
  via: z
    .array(z.enum(['import', 'call']))
    .optional()
    .describe('Dependencies: import and/or call edges'),
  paths: z
    .number()
    .int()
    .optional()
    .describe('Calls: how many paths of the walk reach this edge, when more than one (the edge is listed once, at its smallest depth)'),
});

export const RippleEffectSchema = z.object({
  file: z.string(),
  impact: z.enum(['direct call', 'reference', 'import', 'indirect dependency', 'test']),
  severity: z.enum(['minor', 'major', 'breaking']),
  line: z.number().int().optional().describe('1-based line of the first use that puts the file here'),
  depth: z.number().int().describe('1 = uses the element itself; n = n call/import steps away'),
});

export const ImpactSchema = z.object({
  affected_files: z.number().int().describe('Number of ripple_effects (one per file)'),
  risk_level: z.enum(['LOW', 'MEDIUM', 'HIGH', 'CRITICAL']),
  risk_reason: z.string().describe('The rule that gave risk_level'),
  ripple_effects: z.array(RippleEffectSchema),
  total_affected_files: z.number().int().describe('All affected files; more than affected_files only when the page is cut (_meta.truncated)'),
  direct_files: z.number().int().describe('Affected files that use the element itself (depth 1)'),
  transitive_files: z.number().int().describe('Affected files reached only through callers or importers (depth > 1)'),
  references: z.number().int().describe('References to the element outside its declaration (importers, for a file)'),
  tests: z.array(z.string()).describe('Test files the change reaches'),
  invariants: z
    .array(
      z.object({
        tier: z.number().int(),
        marker: z.string(),
        text: z.string(),
        start_line: z.number().int(),
        end_line: z.number().int(),
        chunk_id: z.string(),
        provenance: z.string().optional(),
      }),
    )
    .optional()
    .describe("A symbol's own invariants (comment markers, raises stating a policy): what the change must not break"),
  flows: z.unknown().optional(),
});

export const relationshipOperations: Operation[] = [
  defineOperation({
    name: 'query_relationships',
    title: 'Query relationships',
    description:
      'Relationships from the language servers (never name matching), followed to `max_depth` (1..10, ' +
      'default 3): `calls`, `calls-me`, `imports`, `imports-me` (a symbol stands for its file), ' +
      '`depends-on`, `depends-on-me` (files: imports and calls). `target`: a name, `Class#method`, ' +
      'symbol_id or file. Imports carry `status` workspace / external / unresolved. Pages with max_results ' +
      '/ cursor.',
    related: { render_diagram: 'to draw them' },
    input: z.object({
      query_type: z.enum(QUERY_TYPES),
      target: z.string().min(1).max(4096).describe('Name, qualified name, `Class#method`, symbol_id, or workspace-relative file'),
      max_depth: MaxDepth.optional().describe('Levels to follow (1..10, default 3)'),
      max_results: z.number().int().min(1).max(1000).optional().describe('Relationships per page (default 200)'),
      cursor: Cursor.optional().describe('`_meta.next_cursor` of the previous page of the same query'),
    }),
    output: withMeta({
      success: z.boolean(),
      query_type: z.enum(QUERY_TYPES),
      target: z.string(),
      total: z.number().int(),
      results: z.array(RelationshipSchema),
      skipped: SkippedSchema,
    }),
    annotations: READ_ONLY,
    repl: { command: 'rel', positional: ['query_type', 'target'] },
    callerErrors: ['SYMBOL_NOT_FOUND', 'AMBIGUOUS_SYMBOL'],
    waitsForServers: true,
    wide: true,
    handler: (input, ctx) =>
      ServiceCall.run(ctx, async (call) => {
        const max_depth = input.max_depth ?? 3;
        const hash = queryHash(['query_relationships', input.query_type, input.target, max_depth]);
        const offset = decodeCursor(input.cursor, hash);
        const r = await queryRelationships(call, { query_type: input.query_type, target: input.target, max_depth });
        const results = paginate(r.results, { offset, maxResults: input.max_results ?? 200, hash, meta: call.meta });
        const skipped = skipsOf(call).finish(call.meta, 'query_relationships');
        return { success: true, query_type: input.query_type, target: r.target, total: r.results.length, results, skipped };
      }),
    markdown(r) {
      const out = [`## ${r.query_type} of ${r.target}: ${r.total} relationship(s)`, ''];
      for (const x of r.results) {
        const where = `${x.file}${x.line ? `:${x.line}` : ''}`;
        const extra = x.status && x.status !== 'workspace' ? ` (${x.status})` : x.via ? ` (${x.via.join('+')})` : '';
        out.push(`${'  '.repeat(x.depth - 1)}- ${x.from} → ${x.to}${extra} — ${where}`);
      }
      if (!r.results.length) out.push(r.skipped.length ? '(none among the files answered)' : '(none)');
      return out.join('\n') + skippedMarkdown(r.skipped);
    },
  }),
  defineOperation({
    name: 'analyze_impact',
    title: 'Analyze impact',
    description:
      'What a change to a function, class or file would break, from real references and call trees: one ' +
      'ripple effect per affected file (`impact`: direct call, reference, import, indirect dependency, ' +
      'test; `severity` for the `operation` modify / delete / refactor), the `risk_level` with its reason ' +
      'and the tests reached.',
    input: z.object({
      element: z.string().min(1).max(4096).describe('Name, qualified name, `Class#method`, symbol_id, or workspace-relative file'),
      operation: z.enum(OPERATIONS).optional().describe('modify (default) | delete | refactor'),
      max_depth: MaxDepth.optional().describe('Levels of transitive callers / importers (1..10, default 3)'),
      max_results: z.number().int().min(1).max(1000).optional().describe('Ripple effects per page (default 200)'),
      cursor: Cursor.optional(),
    }),
    output: withMeta({ success: z.boolean(), element: z.string(), operation: z.enum(OPERATIONS), impact: ImpactSchema, skipped: SkippedSchema }),
    annotations: READ_ONLY,
    repl: { command: 'impact', positional: ['element', 'operation'] },
    profile: 'core',
    callerErrors: ['SYMBOL_NOT_FOUND'],
    waitsForServers: true,
    wide: true,
    handler: (input, ctx) =>
      ServiceCall.run(ctx, async (call) => {
        const operation = input.operation ?? 'modify';
        const max_depth = input.max_depth ?? 3;
        const hash = queryHash(['analyze_impact', input.element, operation, max_depth]);
        const offset = decodeCursor(input.cursor, hash);
        const r = await analyzeImpact(call, { element: input.element, operation, max_depth });
        const page = paginate(r.effects, { offset, maxResults: input.max_results ?? 200, hash, meta: call.meta });
        const impact = {
          affected_files: page.length,
          risk_level: r.risk_level,
          risk_reason: r.risk_reason,
          ripple_effects: page,
          total_affected_files: r.effects.length,
          direct_files: r.direct_files,
          transitive_files: r.transitive_files,
          references: r.references,
          tests: r.tests,
          ...(r.invariants ? { invariants: r.invariants } : {}),
          ...(r.flows ? { flows: r.flows } : {}),
        };
        const skipped = skipsOf(call).finish(call.meta, 'analyze_impact');
        return { success: true, element: r.element, operation, impact, skipped };
      }),
    markdown(r) {
      const i = r.impact;
      const out = [`## Impact of ${r.operation} ${r.element}: ${i.risk_level}`, '', i.risk_reason, ''];
      for (const e of i.ripple_effects) out.push(`- ${e.file}${e.line ? `:${e.line}` : ''} — ${e.impact} (${e.severity})`);
      if (!i.ripple_effects.length) out.push('(nothing else is affected)');
      if (i.tests.length) out.push('', `Tests reached: ${i.tests.join(', ')}`);
      for (const v of i.invariants ?? []) out.push(`- must not break (tier ${v.tier}, ${v.marker}, line ${v.start_line}): ${v.text.split('\n')[0]}`);
      out.push(...guidanceLines(i));
      return out.join('\n') + skippedMarkdown(r.skipped);
    },
  }),
  defineOperation({
    name: 'changed_symbols',
    title: 'Changed symbols',
    description:
      'The functions, methods and classes whose lines changed in the working tree against `base_ref` ' +
      '(default HEAD; untracked files count as added), each with its impact (affected files, risk, tests; ' +
      '`impact_depth`, default 2). Changes outside every symbol are listed in `unattributed`.',
    related: { analyze_impact: "for one symbol's whole ripple list" },
    input: z.object({
      base_ref: z.string().min(1).max(200).optional().describe('Git ref to compare the working tree with (default HEAD)'),
      impact_depth: MaxDepth.optional().describe('max_depth of each impact summary (default 2)'),
      max_results: z.number().int().min(1).max(200).optional().describe('Symbols per page, each with its impact (default 50)'),
      cursor: Cursor.optional(),
    }),
    output: withMeta({
      success: z.boolean(),
      base_ref: z.string(),
      files_changed: z.number().int(),
      total: z.number().int(),
      symbols: z.array(
        z.object({
          ...symbolRowShape,
          line: z.number().int().describe('First line (for a deleted symbol: at base_ref)'),
          end_line: z.number().int(),
          change: z
            .enum(['added', 'modified', 'deleted'])
            .describe("deleted: declared at base_ref, gone from the working tree (found on the ref's syntax tree)"),
          changed_lines: z.number().int().describe('Lines of it added, rewritten or removed'),
          impact: z
            .object({ affected_files: z.number().int(), risk_level: z.enum(['LOW', 'MEDIUM', 'HIGH', 'CRITICAL']), tests: z.array(z.string()) })
            .optional()
            .describe(
              'Absent for a deleted symbol (nothing is left to ask a server about: its former callers fail to ' +
                'compile, see get_diagnostics) and for a file in `skipped`',
            ),
        }),
      ),
      unattributed: z.array(
        z.object({ file: z.string(), lines: z.array(z.number().int()), removed_lines: z.number().int(), reason: z.enum(['outside symbols', 'not cataloged']) }),
      ),
      skipped: SkippedSchema.describe('Files whose impact summaries could not be had (their symbols are listed without `impact`)'),
    }),
    annotations: READ_ONLY,
    repl: { command: 'changed', positional: ['base_ref'] },
    handler: (input, ctx) =>
      ServiceCall.run(ctx, async (call) => {
        const base_ref = input.base_ref ?? 'HEAD';
        const hash = queryHash(['changed_symbols', base_ref, input.impact_depth ?? 2]);
        const offset = decodeCursor(input.cursor, hash);
        const r = await changedSymbols(call, base_ref);
        const page = paginate(r.symbols, { offset, maxResults: input.max_results ?? 50, hash, meta: call.meta });
        const skips = skipsOf(call);
        const symbols = [];
        for (const s of page) {
          const i =
            s.change === 'deleted' || skips.has(s.file)
              ? undefined
              : await perFile(skips, s.file, () => analyzeImpact(call, { element: s.symbol_id, operation: 'modify', max_depth: input.impact_depth ?? 2 }));
          symbols.push(i ? { ...s, impact: { affected_files: i.effects.length, risk_level: i.risk_level, tests: i.tests } } : s);
        }
        const skipped = skips.finish(call.meta, 'changed_symbols');
        return { success: true, base_ref, files_changed: r.files, total: r.symbols.length, symbols, unattributed: r.unattributed, skipped };
      }),
    markdown(r) {
      const out = [`## ${r.total} changed symbol(s) in ${r.files_changed} file(s) against ${r.base_ref}`, ''];
      for (const s of r.symbols) {
        const where = `${s.file}:${s.line}-${s.end_line}${s.change === 'deleted' ? ` at ${r.base_ref}` : ''}`;
        const impact = s.impact
          ? `: ${s.impact.risk_level}, ${s.impact.affected_files} file(s) affected${s.impact.tests.length ? `, tests ${s.impact.tests.join(', ')}` : ''}`
          : '';
        out.push(`- ${s.change} ${s.kind} **${s.qualified_name}** — ${where}${impact}`);
      }
      for (const u of r.unattributed) out.push(`- ${u.file}: ${u.lines.length} line(s) changed, ${u.removed_lines} removed ${u.reason}`);
      if (!r.symbols.length && !r.unattributed.length) out.push('(no changes)');
      return out.join('\n') + skippedMarkdown(r.skipped);
    },
  }),
];
