/**
 * Whole-project reports: coverage_report, project_context, validate_references.
 */
import { z } from 'zod';

import { contextMarkdown, shapeContext } from '../../analysis/reports/project-context-format.js';
import { skipsOf } from '../../analysis/skips.js';
import { decodeCursor, paginate, queryHash } from '../../core/paging.js';
import { ServiceCall } from '../../service/call.js';
import { READ_ONLY } from '../annotations.js';
import { CoverageReportOutput, ProjectContextOutput, ValidateReferencesOutput } from '../contracts/project.js';
import { coverageReportMarkdown, projectContextMarkdown, validateReferencesMarkdown } from '../render/project.js';
import { skippedMarkdown } from '../render/skipped.js';
import { defineOperation, type Operation } from '../types.js';

const Cursor = z.string().max(1000);

export const projectOperations: Operation[] = [
  defineOperation({
    name: 'coverage_report',
    title: 'Coverage report',
    description:
      'Test coverage of the workspace: overall, per file, untested files (0..1). With a coverage file at ' +
      'the root (lcov, Go coverprofile, coverage.py JSON, Clover/Cobertura): line coverage; without one, ' +
      "reference coverage, the share of each file's top-level declarations a test references (`mode` and " +
      '`basis` say which). `format: detailed` adds uncovered lines or untested symbols per file; pages ' +
      'with max_results / cursor.',
    input: z.object({
      format: z.enum(['summary', 'detailed']).optional().describe('summary (default) | detailed'),
      max_symbols: z.number().int().min(1).max(20000).optional().describe('Reference mode: declarations checked (default 5000; one references request each)'),
      max_results: z.number().int().min(1).max(1000).optional().describe('Files per page (default 200)'),
      cursor: Cursor.optional(),
    }),
    output: CoverageReportOutput,
    annotations: READ_ONLY,
    repl: { command: 'coverage', positional: ['format'] },
    handler: (input, ctx) =>
      ServiceCall.run(ctx, async (call) => {
        const format = input.format ?? 'summary';
        const maxSymbols = input.max_symbols ?? 5000;
        const hash = queryHash(['coverage_report', format, maxSymbols]);
        const offset = decodeCursor(input.cursor, hash);
        const r = await (await import('../../analysis/reports/coverage-report.js')).coverageReport(call, maxSymbols);
        if (r.unchecked) call.meta.limit({ limit: 'max_symbols', value: maxSymbols, detail: `${r.unchecked} declaration(s) not checked` });
        const page = paginate(r.files, { offset, maxResults: input.max_results ?? 200, hash, meta: call.meta });
        const coverage = {
          overall: r.overall,
          by_file: Object.fromEntries(page.map((f) => [f.file, f.coverage])),
          untested_files: page.filter((f) => r.untested_files.includes(f.file)).map((f) => f.file),
        };
        const without = r.files_without_data.slice(0, 200);
        if (without.length < r.files_without_data.length)
          call.meta.limit({ limit: 'files_without_data', value: 200, detail: `${r.files_without_data.length} files have no coverage data` });
        const base = {
          success: true,
          format,
          mode: r.mode,
          basis: r.basis,
          sources: r.sources,
          coverage,
          covered: r.covered,
          total: r.total,
          total_files: r.files.length,
          total_untested_files: r.untested_files.length,
          files_without_data: without,
          scanned: r.scanned,
          unchecked: r.unchecked,
          skipped: r.skipped,
        };
        return format === 'detailed' ? { ...base, files: page } : base;
      }),
    markdown: coverageReportMarkdown,
  }),
  defineOperation({
    name: 'project_context',
    title: 'Project context',
    description:
      'An orientation in a workspace: a summary (languages, packages, entry points), top-level elements, ' +
      'the module dependency map from the import graph, test patterns and directory-level architecture ' +
      'notes. `output_format`: json (default), markdown or both. Elements page with max_elements / cursor; ' +
      'dependencies are cut at max_dependencies.',
    input: z.object({
      output_format: z
        .enum(['json', 'markdown', 'both'])
        .optional()
        .describe('json (default) | markdown | both (the markdown document in `markdown` beside the structured context)'),
      max_elements: z.number().int().min(1).max(5000).optional().describe('Elements per page (default 200)'),
      max_dependencies: z.number().int().min(1).max(5000).optional().describe('Files of the dependency map (default 300)'),
      cursor: Cursor.optional().describe('Next page of elements'),
    }),
    output: ProjectContextOutput,
    annotations: READ_ONLY,
    repl: { command: 'context', positional: [] },
    handler: (input, ctx) =>
      ServiceCall.run(ctx, async (call) => {
        const format = input.output_format ?? 'json';
        const hash = queryHash(['project_context', input.max_dependencies ?? 300]);
        const offset = decodeCursor(input.cursor, hash);
        const data = await (await import('../../analysis/reports/project-context.js')).projectContext(call);
        const elements = paginate(data.elements, { offset, maxResults: input.max_elements ?? 200, hash, meta: call.meta });
        const context = shapeContext(call, data, elements, input.max_dependencies ?? 300);
        const skipped = skipsOf(call).finish(call.meta, 'project_context');
        const base = {
          success: true,
          format,
          context,
          total_elements: data.elements.length,
          total_dependency_files: Object.keys(data.dependencies).length,
          skipped,
        };
        return format === 'json' ? base : { ...base, markdown: contextMarkdown(context) + skippedMarkdown(skipped).replace(/^\n/, '') };
      }),
    markdown: projectContextMarkdown,
  }),
  defineOperation({
    name: 'validate_references',
    title: 'Validate references',
    description:
      'References that do not resolve (unresolved imports, undefined names, missing exports or members), ' +
      "each with file, line, the reference as written, error, kind and sources (the servers' diagnostics, " +
      'the import graph). `pattern`: a glob of files (default every file a server serves). Files are cut ' +
      'at max_files; errors page with max_results / cursor.',
    input: z.object({
      pattern: z.string().min(1).max(1000).optional().describe('Glob of files to check, e.g. `src/**/*.ts` (default: all)'),
      max_files: z.number().int().min(1).max(5000).optional().describe('Files diagnosed (default 300)'),
      max_results: z.number().int().min(1).max(1000).optional().describe('Errors per page (default 200)'),
      cursor: Cursor.optional(),
    }),
    output: ValidateReferencesOutput,
    annotations: READ_ONLY,
    repl: { command: 'validate', positional: ['pattern'] },
    handler: (input, ctx) =>
      ServiceCall.run(ctx, async (call) => {
        const maxFiles = input.max_files ?? 300;
        const hash = queryHash(['validate_references', input.pattern ?? '', maxFiles]);
        const offset = decodeCursor(input.cursor, hash);
        const r = await (await import('../../analysis/reports/validate-refs.js')).validateReferences(call, input.pattern, maxFiles);
        const errors = paginate(r.errors, { offset, maxResults: input.max_results ?? 200, hash, meta: call.meta });
        return {
          success: true,
          pattern: r.pattern,
          validation: { valid_references: r.valid_references, invalid_references: r.errors.length, errors },
          files_matched: r.files_matched,
          files_checked: r.files_checked,
          skipped: r.skipped,
        };
      }),
    markdown: validateReferencesMarkdown,
  }),
];
