/**
 * validate_references (its ValidationReport output): the references in the workspace that do not
 * resolve, from two sources that see different things. The servers' diagnostics, kept by their codes
 * (never their message text): missing modules, undefined names, missing exports, missing members.
 * And the import graph's unresolved imports — which also catches an import whose error a
 * `@ts-expect-error` silences and PHP `use`/`require` lines no server reports. A reference both
 * sources report (same file, line and name) is one error with both sources.
 */
import picomatch from 'picomatch';

import { LspgateError } from '../../errors/errors.js';
import { REFERENCE_KINDS } from '../../schema/vocabularies.js';
import type { ServiceCall } from '../../service/call.js';
import type { DiagnosticEntry } from '../../service/diagnostics/diagnostic-entries.js';
import { diagnoseFiles } from '../../service/diagnostics/diagnostics.js';
import { importGraph, noteGraphSkips } from '../imports/import-graph.js';
import { type SkippedFile, skipsOf } from '../skips.js';

export { REFERENCE_KINDS };
export type ReferenceKind = (typeof REFERENCE_KINDS)[number];

/**
 * Diagnostic codes that mean "this reference resolves to nothing", per server: tsserver's numeric
 * codes, gopls's go/types error codes, pyright's rule names, intelephense's P-codes.
 */
const CODES: Record<string, ReferenceKind> = {
  // TypeScript: Cannot find module (2307; 2792 with a moduleResolution hint); Cannot find name (2304,
  // 2552 "did you mean", 2580/2591/2582/2593 "install type definitions for node/jest/mocha", 2662/2663
  // "did you mean this.x"); Cannot find namespace (2503); no exported member (2305, 2614, 2724, 2459, 2460);
  // property does not exist (2339, 2551).
  '2307': 'unresolved_import',
  '2792': 'unresolved_import',
  '2304': 'undefined_name',
  '2552': 'undefined_name',
  '2503': 'undefined_name',
  '2580': 'undefined_name',
  '2582': 'undefined_name',
  '2591': 'undefined_name',
  '2593': 'undefined_name',
  '2662': 'undefined_name',
  '2663': 'undefined_name',
  '2305': 'missing_export',
  '2459': 'missing_export',
  '2460': 'missing_export',
  '2614': 'missing_export',
  '2724': 'missing_export',
  '2339': 'undefined_member',
  '2551': 'undefined_member',
  // gopls (go/types codes).
  BrokenImport: 'unresolved_import',
  UndeclaredName: 'undefined_name',
  UndeclaredLabel: 'undefined_name',
  UndeclaredImportedName: 'missing_export',
  MissingFieldOrMethod: 'undefined_member',
  // pyright rules; reportAttributeAccessIssue is a missing export on an import line, a missing member elsewhere.
  reportMissingImports: 'unresolved_import',
  reportUndefinedVariable: 'undefined_name',
  reportAttributeAccessIssue: 'undefined_member',
  // intelephense: undefined variable, type, function, constant, class constant, method, property.
  P1008: 'undefined_name',
  P1009: 'undefined_name',
  P1010: 'undefined_name',
  P1011: 'undefined_name',
  P1012: 'undefined_member',
  P1013: 'undefined_member',
  P1014: 'undefined_member',
};

export interface ValidationError {
  file: string;
  line: number;
  column?: number;
  reference: string;
  error: string;
  kind: ReferenceKind;
  /** Diagnostic code, when a server reported it. */
  code?: string;
  sources: ('diagnostic' | 'import_graph')[];
}

export interface ValidationData {
  pattern: string;
  files_matched: number;
  files_checked: number;
  /** Imports of the checked files that resolved (to a workspace file or outside it). */
  valid_references: number;
  errors: ValidationError[];
  /** Files whose diagnostics could not be had or that the import graph left out, with the failure. */
  skipped: SkippedFile[];
}

/** A matcher of workspace-relative paths for `pattern` (every path when absent); INVALID_INPUT for an absolute, escaping or unreadable glob. */
function patternMatcher(pattern: string | undefined): (f: string) => boolean {
  if (pattern === undefined) return () => true;
  {
    // Matched against workspace-relative paths: an absolute or escaping pattern could never match.
    if (pattern.startsWith('/') || /^[A-Za-z]:[\\/]/.test(pattern) || pattern.split(/[\\/]/).includes('..')) {
      throw new LspgateError('INVALID_INPUT', 'pattern is a glob over workspace-relative paths (e.g. `src/**/*.ts`), not an absolute or `..` path', {
        pattern,
      });
    }
    try {
      return picomatch(pattern, { dot: false });
    } catch (e) {
      throw new LspgateError('INVALID_INPUT', `pattern is not a glob picomatch can read: ${(e as Error).message}`, { pattern });
    }
  }
}

/** The reference errors the servers' diagnostics report in `files`, by `file:line:reference`, the skips noted so far (files without diagnostics) and how many files were checked. */
async function diagnosticErrors(call: ServiceCall, files: string[]) {
  const byKey = new Map<string, ValidationError>();
  const skips = skipsOf(call);
  const diags = await diagnoseFiles(
    call,
    files.map((f) => call.resolvePath(f, { expect: 'file' })),
    'warning',
  );
  for (const f of diags.failed) skips.add(f.file, f.code, `no diagnostics: ${f.message}`, f.details);
  for (const fd of diags.files) {
    const lines = (await call.file(call.resolvePath(fd.file))).text.split('\n');
    for (const d of fd.diagnostics) {
      const kind = d.code !== undefined ? CODES[d.code] : undefined;
      if (!kind) continue;
      const reference = referenceText(lines, d);
      byKey.set(`${fd.file}:${d.line}:${reference}`, {
        file: fd.file,
        line: d.line,
        column: d.column,
        reference,
        error: d.message,
        kind,
        code: d.code!,
        sources: ['diagnostic'],
      });
    }
  }
  return { byKey, skips, checked: diags.files.length };
}

export async function validateReferences(call: ServiceCall, pattern: string | undefined, maxFiles: number): Promise<ValidationData> {
  const catalog = call.workspace.catalog;
  await catalog.build(call.signal ? { signal: call.signal } : {});
  const match = patternMatcher(pattern);
  const matched = [...catalog.files().keys()].filter((f) => match(f)).sort();
  const files = matched.slice(0, maxFiles);
  if (matched.length > maxFiles) {
    call.meta.truncate();
    call.meta.limit({ limit: 'max_files', value: maxFiles, detail: `${matched.length} files match, ${maxFiles} checked` });
  }
  const { byKey, skips, checked } = await diagnosticErrors(call, files);
  const graph = await importGraph(call);
  noteGraphSkips(call, graph, files);
  let valid = 0;
  for (const file of files) {
    for (const imp of graph.files.get(file)?.imports ?? []) {
      if (imp.status !== 'unresolved') {
        valid++;
        continue;
      }
      const reference = imp.specifier;
      const key = `${file}:${imp.line}:${reference}`;
      const seen = byKey.get(key);
      if (seen) {
        // Both say the import points nowhere (tsserver calls `node:fs` without @types/node a missing name).
        seen.kind = 'unresolved_import';
        seen.sources.push('import_graph');
        continue;
      }
      byKey.set(key, {
        file,
        line: imp.line,
        reference,
        error: `the language server resolves \`${reference}\` to no file`,
        kind: 'unresolved_import',
        sources: ['import_graph'],
      });
    }
  }
  markImportLines(byKey, graph.files);
  const errors = [...byKey.values()].sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || (a.column ?? 0) - (b.column ?? 0));
  const skipped = skips.finish(call.meta, 'validate_references', files.length ? checked : 1);
  return { pattern: pattern ?? '**', files_matched: matched.length, files_checked: checked, valid_references: valid, errors, skipped };
}

/** The text the diagnostic's range covers on its first line, without the quotes of a string specifier. */
function referenceText(lines: string[], d: DiagnosticEntry): string {
  const line = (lines[d.line - 1] ?? '').replace(/\r$/, '');
  const end = d.end_line === d.line ? d.end_column : line.length + 1;
  const text = line.slice(d.column - 1, end - 1).trim();
  return text.replace(/^(['"`])(.*)\1$/, '$2') || line.trim();
}

/** pyright's reportAttributeAccessIssue on a `from x import y` line is y missing from x, not a member access. */
function markImportLines(errors: Map<string, ValidationError>, files: ReadonlyMap<string, { imports: { start_line: number; end_line: number }[] }>): void {
  for (const e of errors.values()) {
    if (e.kind !== 'undefined_member' || e.code !== 'reportAttributeAccessIssue') continue;
    if (files.get(e.file)?.imports.some((i) => e.line >= i.start_line && e.line <= i.end_line)) e.kind = 'missing_export';
  }
}
