/**
 * Markdown of the project report operations.
 */
import { contextMarkdown } from '../../analysis/reports/project-context-format.js';
import type { CoverageReportResult, ProjectContextResult, ValidateReferencesResult } from '../contracts/project.js';
import { skippedMarkdown } from './skipped.js';

export function coverageReportMarkdown(r: CoverageReportResult): string {
  const pct = (x: number) => `${Math.round(x * 1000) / 10}%`;
  const out = [`## ${r.mode === 'line' ? 'Line' : 'Reference'} coverage: ${pct(r.coverage.overall)} (${r.covered}/${r.total})`, '', r.basis, ''];
  for (const [f, c] of Object.entries(r.coverage.by_file)) out.push(`- ${f}: ${pct(c)}`);
  if (r.coverage.untested_files.length) out.push('', `Untested: ${r.coverage.untested_files.join(', ')}`);
  if (r.files_without_data.length) out.push('', `No coverage data: ${r.files_without_data.join(', ')}`);
  return out.join('\n') + skippedMarkdown(r.skipped);
}

export function projectContextMarkdown(r: ProjectContextResult): string {
  return r.markdown ?? contextMarkdown(r.context) + skippedMarkdown(r.skipped).replace(/^\n/, '');
}

export function validateReferencesMarkdown(r: ValidateReferencesResult): string {
  const v = r.validation;
  const out = [`## ${v.invalid_references} unresolved reference(s) in ${r.files_checked} file(s) (${r.pattern}); ${v.valid_references} import(s) resolved`, ''];
  for (const e of v.errors) out.push(`- ${e.file}:${e.line} \`${e.reference}\` — ${e.kind}: ${e.error}${e.code ? ` (${e.code})` : ''}`);
  if (!v.errors.length) out.push(r.skipped.length ? '(every reference of the files checked resolves)' : '(every reference resolves)');
  return out.join('\n') + skippedMarkdown(r.skipped);
}
