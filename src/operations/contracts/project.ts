/**
 * Contracts of the project report operations: their result schemas and types.
 */
import { z } from 'zod';

import { PACKAGE_KINDS } from '../../analysis/reports/project-context.js';
import { withMeta } from '../../schema/meta.js';
import { REFERENCE_KINDS } from '../../schema/vocabularies.js';
import { SkippedSchema } from './skipped.js';

export const Ratio = z.number().min(0).max(1);

export const FileCoverageSchema = z.object({
  file: z.string(),
  coverage: Ratio,
  covered: z.number().int().describe('Lines that ran (line mode) or declarations a test references (reference mode)'),
  total: z.number().int().describe('Instrumented lines (line mode) or checked declarations (reference mode)'),
  uncovered_lines: z
    .array(z.object({ start: z.number().int(), end: z.number().int() }))
    .optional()
    .describe('Line mode: instrumented line ranges that never ran'),
  untested_symbols: z.array(z.string()).optional().describe('Reference mode: declarations no test file references'),
});

export const ElementSchema = z.object({
  name: z.string(),
  type: z.enum(['function', 'class', 'component', 'hook', 'interface', 'type']),
  file: z.string(),
  line: z.number().int(),
  symbol_id: z.string(),
});

export const PatternInfoSchema = z.object({ files: z.array(z.string()), usage: z.number().int(), description: z.string() });

export const ContextSchema = z.object({
  project_summary: z.string(),
  summary: z.object({
    languages: z.record(z.string(), z.number().int()).describe('Cataloged files per language'),
    packages: z.array(z.object({ name: z.string(), kind: z.enum(PACKAGE_KINDS), path: z.string() })),
    entry_points: z.array(z.object({ file: z.string(), line: z.number().int().optional(), name: z.string().optional(), reason: z.string() })),
  }),
  elements: z.array(ElementSchema),
  dependencies: z.record(z.string(), z.array(z.string())).describe('Importing file → workspace files it imports (Go: package directories)'),
  test_patterns: z.record(z.string(), PatternInfoSchema),
  architecture_notes: z.string(),
});

export const CoverageReportOutput = withMeta({
  success: z.boolean(),
  format: z.enum(['summary', 'detailed']),
  mode: z.enum(['line', 'reference']),
  basis: z.string().describe('What the numbers measure'),
  sources: z.array(z.string()).describe('Coverage files read (line mode)'),
  coverage: z.object({
    overall: Ratio.describe('Over every file, not just this page'),
    by_file: z.record(z.string(), Ratio).describe('This page of files'),
    untested_files: z.array(z.string()).describe('Files of this page with coverage 0'),
  }),
  covered: z.number().int(),
  total: z.number().int(),
  total_files: z.number().int(),
  total_untested_files: z.number().int(),
  files_without_data: z.array(z.string()).describe('Line mode: non-test source files no coverage file covers (first 200)'),
  scanned: z.number().int().describe('Reference mode: declarations checked'),
  unchecked: z.number().int().describe('Reference mode: declarations over max_symbols, not checked'),
  skipped: SkippedSchema,
  files: z.array(FileCoverageSchema).optional().describe('format detailed: this page of files'),
});
export type CoverageReportResult = z.infer<typeof CoverageReportOutput>;

export const ProjectContextOutput = withMeta({
  success: z.boolean(),
  format: z.enum(['json', 'markdown', 'both']),
  context: ContextSchema,
  total_elements: z.number().int(),
  total_dependency_files: z.number().int(),
  skipped: SkippedSchema,
  markdown: z.string().optional().describe('output_format markdown / both'),
});
export type ProjectContextResult = z.infer<typeof ProjectContextOutput>;

export const ValidateReferencesOutput = withMeta({
  success: z.boolean(),
  pattern: z.string(),
  validation: z.object({
    valid_references: z.number().int().describe('Imports of the checked files that resolved'),
    invalid_references: z.number().int().describe('All unresolved references (every page)'),
    errors: z.array(
      z.object({
        file: z.string(),
        line: z.number().int(),
        column: z.number().int().optional(),
        reference: z.string(),
        error: z.string(),
        kind: z.enum(REFERENCE_KINDS),
        code: z.string().optional().describe("The server's diagnostic code"),
        sources: z.array(z.enum(['diagnostic', 'import_graph'])),
      }),
    ),
  }),
  files_matched: z.number().int(),
  files_checked: z.number().int(),
  skipped: SkippedSchema.describe('Files whose diagnostics could not be had, or that are left out of the import graph, with the failure'),
});
export type ValidateReferencesResult = z.infer<typeof ValidateReferencesOutput>;
