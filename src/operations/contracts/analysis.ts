/**
 * Contracts of the analysis operations: their result schemas and types.
 */
import { z } from 'zod';

import { withMeta } from '../../schema/meta.js';
import { symbolRowShape } from '../../schema/rows.js';
import { CATEGORIES, DIAGRAM_TYPES, PATTERN_TYPES } from '../../schema/vocabularies.js';
import { SkippedSchema } from './skipped.js';

export const FindDeadCodeOutput = withMeta({
  success: z.boolean(),
  scanned: z.number().int().describe('Declarations checked'),
  unchecked: z.number().int().describe('Declarations not checked (over max_symbols)'),
  skipped: SkippedSchema,
  counts: z.record(z.string(), z.number().int()).describe('Candidates per category'),
  total: z.number().int(),
  candidates: z.array(
    z.object({
      ...symbolRowShape,
      category: z.enum(CATEGORIES),
      reason: z.string(),
    }),
  ),
});
export type FindDeadCodeResult = z.infer<typeof FindDeadCodeOutput>;

export const RenderDiagramOutput = withMeta({
  success: z.boolean(),
  diagram_type: z.enum(DIAGRAM_TYPES),
  format: z.enum(['mermaid', 'dot', 'json', 'svg']),
  nodes: z.number().int(),
  edges: z.number().int(),
  omitted_nodes: z.number().int().describe('Nodes left out by max_nodes (a lower bound: the walk stops once the budget is spent)'),
  skipped: SkippedSchema,
  text: z.string().optional().describe('The mermaid / dot / svg text'),
  diagram: z
    .object({
      nodes: z.array(z.object({ id: z.string(), label: z.string(), type: z.enum(['function', 'class', 'component', 'module']) })),
      edges: z.array(z.object({ from: z.string(), to: z.string(), label: z.string().optional() })),
    })
    .optional()
    .describe('The graph (format json)'),
});
export type RenderDiagramResult = z.infer<typeof RenderDiagramOutput>;

export const AnalyzeComplexityOutput = withMeta({
  success: z.boolean(),
  element: z.string(),
  note: z.string(),
  context: z.object({
    lines_of_code: z.number().int(),
    cyclomatic_complexity: z.number().int(),
    dependencies: z.number().int(),
    test_coverage: z.number().min(0).max(1).optional().describe('Absent when no coverage file covers the element (`note` says why)'),
  }),
  file: z.string(),
  start_line: z.number().int(),
  end_line: z.number().int(),
});
export type AnalyzeComplexityResult = z.infer<typeof AnalyzeComplexityOutput>;

export const FindPatternsOutput = withMeta({
  success: z.boolean(),
  pattern_type: z.string().describe('The pattern_type asked for, or `all`'),
  limit: z.number().int(),
  total: z.number().int().describe('Patterns found (all pages)'),
  files_scanned: z.number().int(),
  types_checked: z.number().int(),
  skipped: SkippedSchema,
  patterns: z.record(
    z.string(),
    z.object({
      files: z.array(z.string()),
      usage: z.number().int(),
      description: z.string(),
      pattern_type: z.enum(PATTERN_TYPES),
      source: z
        .enum(['syntax', 'syntax+server', 'server'])
        .describe("syntax: forms of parse trees; syntax+server: bases read from parse trees, resolved by the server; server: the server's answers"),
      sites: z.array(z.object({ file: z.string(), line: z.number().int(), symbol_id: z.string().optional() })).describe('First occurrences (at most 5)'),
    }),
  ),
});
export type FindPatternsResult = z.infer<typeof FindPatternsOutput>;
