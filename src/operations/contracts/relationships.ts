/**
 * Contracts of the relationship operations: query_relationships, analyze_impact, changed_symbols.
 */
import { z } from 'zod';

import { withMeta } from '../../schema/meta.js';
import { symbolRowShape } from '../../schema/rows.js';
import { OPERATIONS, QUERY_TYPES } from '../../schema/vocabularies.js';
import { SkippedSchema } from './skipped.js';

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

export const QueryRelationshipsOutput = withMeta({
  success: z.boolean(),
  query_type: z.enum(QUERY_TYPES),
  target: z.string(),
  total: z.number().int(),
  results: z.array(RelationshipSchema),
  skipped: SkippedSchema,
});
export type QueryRelationshipsResult = z.infer<typeof QueryRelationshipsOutput>;

export const AnalyzeImpactOutput = withMeta({
  success: z.boolean(),
  element: z.string(),
  operation: z.enum(OPERATIONS),
  impact: ImpactSchema,
  skipped: SkippedSchema,
});
export type AnalyzeImpactResult = z.infer<typeof AnalyzeImpactOutput>;

export const ChangedSymbolsOutput = withMeta({
  success: z.boolean(),
  base_ref: z.string(),
  files_changed: z.number().int(),
  total: z.number().int(),
  symbols: z.array(
    z.object({
      ...symbolRowShape,
      line: z.number().int().describe('First line (for a deleted symbol: at base_ref)'),
      end_line: z.number().int(),
      change: z.enum(['added', 'modified', 'deleted']).describe("deleted: declared at base_ref, gone from the working tree (found on the ref's syntax tree)"),
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
});
export type ChangedSymbolsResult = z.infer<typeof ChangedSymbolsOutput>;
