/**
 * Relationship operations: query_relationships.
 */
import { z } from 'zod';

import { perFile, skipsOf } from '../../analysis/skips.js';
import { decodeCursor, paginate, queryHash } from '../../core/paging.js';
import { OPERATIONS, QUERY_TYPES } from '../../schema/vocabularies.js';
import { ServiceCall } from '../../service/call.js';
import { READ_ONLY } from '../annotations.js';
import { AnalyzeImpactOutput, ChangedSymbolsOutput, QueryRelationshipsOutput } from '../contracts/relationships.js';
import { analyzeImpactMarkdown, changedSymbolsMarkdown, queryRelationshipsMarkdown } from '../render/relationships.js';
import { defineOperation, type Operation } from '../types.js';

const Cursor = z.string().max(1000);
const MaxDepth = z.number().int().min(1).max(10);

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
    output: QueryRelationshipsOutput,
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
        const r = await (
          await import('../../analysis/relationships/relationships.js')
        ).queryRelationships(call, { query_type: input.query_type, target: input.target, max_depth });
        const results = paginate(r.results, { offset, maxResults: input.max_results ?? 200, hash, meta: call.meta });
        const skipped = skipsOf(call).finish(call.meta, 'query_relationships');
        return { success: true, query_type: input.query_type, target: r.target, total: r.results.length, results, skipped };
      }),
    markdown: queryRelationshipsMarkdown,
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
    output: AnalyzeImpactOutput,
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
        const r = await (await import('../../analysis/relationships/impact.js')).analyzeImpact(call, { element: input.element, operation, max_depth });
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
    markdown: analyzeImpactMarkdown,
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
    output: ChangedSymbolsOutput,
    annotations: READ_ONLY,
    repl: { command: 'changed', positional: ['base_ref'] },
    handler: (input, ctx) =>
      ServiceCall.run(ctx, async (call) => {
        const base_ref = input.base_ref ?? 'HEAD';
        const hash = queryHash(['changed_symbols', base_ref, input.impact_depth ?? 2]);
        const offset = decodeCursor(input.cursor, hash);
        const r = await (await import('../../analysis/reports/changed.js')).changedSymbols(call, base_ref);
        const page = paginate(r.symbols, { offset, maxResults: input.max_results ?? 50, hash, meta: call.meta });
        const skips = skipsOf(call);
        const symbols = [];
        for (const s of page) {
          const i =
            s.change === 'deleted' || skips.has(s.file)
              ? undefined
              : await perFile(skips, s.file, async () =>
                  (await import('../../analysis/relationships/impact.js')).analyzeImpact(call, {
                    element: s.symbol_id,
                    operation: 'modify',
                    max_depth: input.impact_depth ?? 2,
                  }),
                );
          symbols.push(i ? { ...s, impact: { affected_files: i.effects.length, risk_level: i.risk_level, tests: i.tests } } : s);
        }
        const skipped = skips.finish(call.meta, 'changed_symbols');
        return { success: true, base_ref, files_changed: r.files, total: r.symbols.length, symbols, unattributed: r.unattributed, skipped };
      }),
    markdown: changedSymbolsMarkdown,
  }),
];
