/**
 * Analyses built on the service's relations: find_dead_code, render_diagram, analyze_complexity, find_patterns.
 */
import { z } from 'zod';

import { skipsOf } from '../../analysis/skips.js';
import { decodeCursor, paginate, queryHash } from '../../core/paging.js';
import { CATEGORIES, DIAGRAM_TYPES, PATTERN_TYPES } from '../../schema/vocabularies.js';
import { ServiceCall } from '../../service/call.js';
import { READ_ONLY } from '../annotations.js';
import { AnalyzeComplexityOutput, FindDeadCodeOutput, FindPatternsOutput, RenderDiagramOutput } from '../contracts/analysis.js';
import { findDeadCodeMarkdown, findPatternsMarkdown, renderDiagramMarkdown } from '../render/analysis.js';
import { defineOperation, type Operation } from '../types.js';

export const analysisOperations: Operation[] = [
  defineOperation({
    name: 'find_dead_code',
    title: 'Find dead code',
    description:
      'Top-level functions, classes and methods no reference reaches outside their own declaration, each ' +
      'with a `category` and a `reason`: `dead`, or apart because something outside the code calls them, ' +
      '`entry_point`, `test`, `framework_hook`, `exported_api`. `counts` per category; `max_symbols` ' +
      'bounds the declarations checked (one references request each); pages with max_results / cursor.',
    input: z.object({
      category: z.enum(CATEGORIES).optional().describe('Only this category (default: all)'),
      max_symbols: z.number().int().min(1).max(20000).optional().describe('Declarations checked (default 5000; the rest are counted in `unchecked`)'),
      max_results: z.number().int().min(1).max(1000).optional().describe('Candidates per page (default 200)'),
      cursor: z.string().max(1000).optional(),
    }),
    output: FindDeadCodeOutput,
    annotations: READ_ONLY,
    repl: { command: 'dead', positional: ['category'] },
    handler: (input, ctx) =>
      ServiceCall.run(ctx, async (call) => {
        const maxSymbols = input.max_symbols ?? 5000;
        const hash = queryHash(['find_dead_code', input.category ?? '', maxSymbols]);
        const offset = decodeCursor(input.cursor, hash);
        const r = await (await import('../../analysis/reports/dead-code.js')).findDeadCode(call, maxSymbols);
        if (r.unchecked) call.meta.limit({ limit: 'max_symbols', value: maxSymbols, detail: `${r.unchecked} declaration(s) not checked` });
        const counts = Object.fromEntries(CATEGORIES.map((c) => [c, r.candidates.filter((x) => x.category === c).length]));
        const list = input.category ? r.candidates.filter((x) => x.category === input.category) : r.candidates;
        const candidates = paginate(list, { offset, maxResults: input.max_results ?? 200, hash, meta: call.meta });
        return { success: true, scanned: r.scanned, unchecked: r.unchecked, skipped: r.skipped, counts, total: list.length, candidates };
      }),
    markdown: findDeadCodeMarkdown,
  }),
  defineOperation({
    name: 'render_diagram',
    title: 'Render diagram',
    description:
      "A diagram of the workspace's relationships: `diagram_type` dependencies (files; default), imports, " +
      'calls (functions) or all, around `target` to `depth` (default 2) or over the whole workspace. ' +
      '`format`: mermaid (default) or dot text, svg (Graphviz), or json graph data. At most `max_nodes` ' +
      '(default 60), nearest first; the rest is counted.',
    input: z.object({
      diagram_type: z.enum(DIAGRAM_TYPES).optional().describe('dependencies (default) | calls | imports | all'),
      format: z.enum(['mermaid', 'dot', 'json', 'svg']).optional().describe('mermaid (default) | dot | json | svg'),
      target: z.string().min(1).max(4096).optional().describe('Center the diagram on this name, symbol_id or file (default: whole workspace)'),
      depth: z.number().int().min(1).max(10).optional().describe('Levels around the target (default 2)'),
      max_nodes: z.number().int().min(1).max(500).optional().describe('Node budget (default 60)'),
    }),
    output: RenderDiagramOutput,
    annotations: READ_ONLY,
    repl: { command: 'diagram', positional: ['diagram_type', 'target'] },
    callerErrors: ['SYMBOL_NOT_FOUND'],
    handler: (input, ctx) =>
      ServiceCall.run(ctx, async (call) => {
        const diagram_type = input.diagram_type ?? 'dependencies';
        const format = input.format ?? 'mermaid';
        const max_nodes = input.max_nodes ?? 60;
        const { graph, omitted_nodes } = await (
          await import('../../analysis/diagrams/diagram.js')
        ).buildDiagram(call, { diagram_type, target: input.target, depth: input.depth ?? 2, max_nodes });
        if (omitted_nodes) {
          call.meta.truncate();
          call.meta.limit({ limit: 'max_nodes', value: max_nodes, detail: `${omitted_nodes} node(s) left out` });
        }
        const skipped = skipsOf(call).finish(call.meta, 'render_diagram');
        const base = { success: true, diagram_type, format, nodes: graph.nodes.length, edges: graph.edges.length, omitted_nodes, skipped };
        if (format === 'json') return { ...base, diagram: graph };
        const text =
          format === 'mermaid'
            ? (await import('../../analysis/diagrams/diagram-format.js')).toMermaid(graph)
            : format === 'dot'
              ? (await import('../../analysis/diagrams/diagram-format.js')).toDot(graph)
              : await (await import('../../analysis/diagrams/diagram-format.js')).toSvg(graph);
        return { ...base, text };
      }),
    markdown: renderDiagramMarkdown,
  }),
  defineOperation({
    name: 'analyze_complexity',
    title: 'Analyze complexity',
    description:
      'Complexity of a function, class or file: lines of code, cyclomatic complexity (decision points on ' +
      'the syntax tree), dependencies (imports, distinct callees), test coverage (0..1 from a coverage ' +
      'file in the workspace; absent, with the reason in `note`, without one). `element`: a name, ' +
      '`Class#method`, symbol_id or file.',
    input: z.object({ element: z.string().min(1).max(4096).describe('Name, qualified name, `Class#method`, symbol_id, or workspace-relative file') }),
    output: AnalyzeComplexityOutput,
    annotations: READ_ONLY,
    repl: { command: 'complexity', positional: ['element'] },
    callerErrors: ['SYMBOL_NOT_FOUND'],
    handler: (input, ctx) =>
      ServiceCall.run(ctx, async (call) => {
        const r = await (await import('../../analysis/reports/complexity.js')).analyzeComplexity(call, input.element);
        skipsOf(call).finish(call.meta, 'analyze_complexity (its dependency count)');
        return {
          success: true,
          element: r.element,
          note: r.note,
          context: {
            lines_of_code: r.lines_of_code,
            cyclomatic_complexity: r.cyclomatic_complexity,
            dependencies: r.dependencies,
            ...(r.test_coverage !== undefined ? { test_coverage: r.test_coverage } : {}),
          },
          file: r.file,
          start_line: r.start_line,
          end_line: r.end_line,
        };
      }),
  }),
  defineOperation({
    name: 'find_patterns',
    title: 'Find patterns',
    description:
      'Recurring structures, most used first, each with files, usage count, description and first sites. ' +
      '`pattern_type`: `inheritance` (types sharing a base read from parse trees, resolved by the server), ' +
      '`framework` (Eloquent models, HTTP route registrations), `decorators` (and PHP attributes), ' +
      '`error-handling` (try/catch, thrown types, Go error checks and wrapping); default all. `limit` ' +
      '1..100 per page (default 10); cursor for more.',
    input: z.object({
      pattern_type: z.enum(PATTERN_TYPES).optional().describe('inheritance | framework | decorators | error-handling (default: all)'),
      limit: z.number().int().min(1).max(100).optional().describe('Patterns per page (default 10)'),
      cursor: z.string().max(1000).optional(),
      max_files: z.number().int().min(1).max(20000).optional().describe('Files parsed for syntax patterns (default 5000)'),
      max_types: z
        .number()
        .int()
        .min(1)
        .max(20000)
        .optional()
        .describe('Types checked for inheritance and models (default 2000; one definition request per base name)'),
    }),
    output: FindPatternsOutput,
    annotations: READ_ONLY,
    repl: { command: 'patterns', positional: ['pattern_type'] },
    handler: (input, ctx) =>
      ServiceCall.run(ctx, async (call) => {
        const limit = input.limit ?? 10;
        const limits = { max_files: input.max_files ?? 5000, max_types: input.max_types ?? 2000 };
        const hash = queryHash(['find_patterns', input.pattern_type ?? 'all', limits.max_files, limits.max_types]);
        const offset = decodeCursor(input.cursor, hash);
        const r = await (
          await import('../../analysis/patterns/patterns.js')
        ).findPatterns(call, input.pattern_type ? [input.pattern_type] : PATTERN_TYPES, limits);
        const page = paginate(r.patterns, { offset, maxResults: limit, hash, meta: call.meta });
        const patterns = Object.fromEntries(
          page.map((p) => [
            p.name,
            { files: p.files, usage: p.usage, description: p.description, pattern_type: p.pattern_type, source: p.source, sites: p.sites },
          ]),
        );
        const skipped = skipsOf(call).finish(call.meta, 'find_patterns');
        return {
          success: true,
          pattern_type: input.pattern_type ?? 'all',
          limit,
          total: r.patterns.length,
          files_scanned: r.files_scanned,
          types_checked: r.types_checked,
          skipped,
          patterns,
        };
      }),
    markdown: findPatternsMarkdown,
  }),
];
