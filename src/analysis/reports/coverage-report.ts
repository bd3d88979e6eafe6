/**
 * coverage_report (its CoverageReport output). With a coverage file in the workspace (coverage.ts:
 * lcov, Go coverprofile, coverage.py JSON, Clover/Cobertura): line coverage, per file the share of
 * instrumented lines that ran. Without one: reference coverage, per source file the share of its
 * checked declarations (declarations.ts) that a test file references, found with the language
 * server's textDocument/references — a different measure, labelled as such, never passed off as
 * line coverage. A file the server cannot answer for is skipped (listed, not counted as untested).
 */
import { isTestPath } from '../../adapters/test-files.js';
import type { CatalogSymbol } from '../../core/catalog.js';
import type { ServiceCall } from '../../service/call.js';
import { LineSource } from '../../service/locations.js';
import { addCatalogErrors, perFile, type SkippedFile, skipsOf } from '../skips.js';
import { COVERAGE_FILES, type CoverageData, coverageData, type FileHits, reportCoverage } from './coverage.js';
import { checkedDeclarations, outsideReferences } from './declarations.js';

export type CoverageMode = 'line' | 'reference';

export interface FileCoverage {
  file: string;
  /** 0..1, rounded to 3 places. */
  coverage: number;
  /** Lines that ran (line mode) or declarations referenced from a test (reference mode). */
  covered: number;
  /** Instrumented lines (line mode) or checked declarations (reference mode). */
  total: number;
  /** Line mode: runs of instrumented lines that never ran. */
  uncovered_lines?: { start: number; end: number }[];
  /** Reference mode: declarations no test file references (qualified names). */
  untested_symbols?: string[];
}

export interface CoverageReportData {
  mode: CoverageMode;
  /** What the numbers measure, in a sentence. */
  basis: string;
  /** Coverage files read (line mode). */
  sources: string[];
  overall: number;
  covered: number;
  total: number;
  /** In file order. */
  files: FileCoverage[];
  /** Files with coverage 0. */
  untested_files: string[];
  /** Line mode: cataloged non-test source files no coverage file has data for. */
  files_without_data: string[];
  /** Reference mode: declarations checked, and left unchecked over max_symbols. */
  scanned: number;
  unchecked: number;
  /** Reference mode: files whose declarations the server could not answer for (not counted). */
  skipped: SkippedFile[];
}

const ratio = (covered: number, total: number): number => (total ? Math.round((covered / total) * 1000) / 1000 : 0);

export async function coverageReport(call: ServiceCall, maxSymbols: number): Promise<CoverageReportData> {
  const catalog = call.workspace.catalog;
  await catalog.build(call.signal ? { signal: call.signal } : {});
  const data = await coverageData(call);
  reportCoverage(call, data);
  return data.sources.length ? lineReport(call, data) : referenceReport(call, maxSymbols, data);
}

function sourceFiles(call: ServiceCall): string[] {
  return [...call.workspace.catalog.files()].filter(([f, e]) => !isTestPath(f, e.language)).map(([f]) => f);
}

function lineReport(call: ServiceCall, data: CoverageData): CoverageReportData {
  const files: FileCoverage[] = [];
  const seen = new Set<string>();
  for (const { hits } of data.sources) {
    for (const [file, lines] of hits) {
      // Each file's data from the first coverage file that has it (as analyze_complexity reads it);
      // paths that leave the workspace (another checkout's) were left out by the parser.
      if (seen.has(file)) continue;
      seen.add(file);
      const uncovered = runs(lines);
      const covered = lines.counts.reduce((n, c) => n + (c > 0 ? 1 : 0), 0);
      files.push({ file, coverage: ratio(covered, lines.lines.length), covered, total: lines.lines.length, uncovered_lines: uncovered });
    }
  }
  files.sort((a, b) => a.file.localeCompare(b.file));
  const covered = files.reduce((n, f) => n + f.covered, 0);
  const total = files.reduce((n, f) => n + f.total, 0);
  const sources = data.sources.map((d) => d.file);
  return {
    mode: 'line',
    basis: `line coverage: instrumented lines that ran, from ${sources.join(', ')}`,
    sources,
    overall: ratio(covered, total),
    covered,
    total,
    files,
    untested_files: files.filter((f) => f.total > 0 && f.covered === 0).map((f) => f.file),
    files_without_data: sourceFiles(call)
      .filter((f) => !seen.has(f))
      .sort(),
    scanned: 0,
    unchecked: 0,
    skipped: [],
  };
}

/**
 * The runs of instrumented lines that never ran: consecutive instrumented lines (in line order) with
 * count 0 form one range, so a gap of lines that are not instrumented (blank, comments) does not
 * split it. Linear in the instrumented lines, whatever the line numbers are.
 */
function runs(hits: FileHits): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  let open: { start: number; end: number } | undefined;
  for (let i = 0; i < hits.lines.length; i++) {
    if (hits.counts[i]! > 0) open = undefined;
    else if (open) open.end = hits.lines[i]!;
    else out.push((open = { start: hits.lines[i]!, end: hits.lines[i]! }));
  }
  return out;
}

async function referenceReport(call: ServiceCall, maxSymbols: number, data: CoverageData): Promise<CoverageReportData> {
  const all = await call.workspace.catalog.all();
  const eligible = checkedDeclarations(all).filter((s) => !isTestPath(s.file, s.language));
  const scan = eligible.slice(0, maxSymbols);
  const src = new LineSource(call);
  const skips = skipsOf(call);
  addCatalogErrors(skips, call.workspace.catalog.status().errors);
  const byFile = new Map<string, { covered: number; total: number; untested: string[] }>();
  let answered = 0;
  for (const s of scan) {
    // A file the server cannot answer for (gopls: no package metadata) is left out, not counted as untested.
    if (skips.has(s.file)) continue;
    const tested = await perFile(skips, s.file, () => referencedFromTest(call, src, s));
    if (tested === undefined) continue;
    answered++;
    let f = byFile.get(s.file);
    if (!f) byFile.set(s.file, (f = { covered: 0, total: 0, untested: [] }));
    f.total++;
    if (tested) f.covered++;
    else f.untested.push(s.qualified_name);
  }
  const skipped = skips.finish(call.meta, 'coverage_report', scan.length ? answered : 1);
  for (const sk of skipped) byFile.delete(sk.file);
  const files = [...byFile]
    .map(([file, f]): FileCoverage => ({ file, coverage: ratio(f.covered, f.total), covered: f.covered, total: f.total, untested_symbols: f.untested }))
    .sort((a, b) => a.file.localeCompare(b.file));
  const covered = files.reduce((n, f) => n + f.covered, 0);
  const total = files.reduce((n, f) => n + f.total, 0);
  return {
    mode: 'reference',
    basis: `reference coverage, not line coverage: no ${data.problems.length ? `usable coverage file in the workspace (${data.problems.map((p) => p.file).join(', ')} could not be used: see _meta.warnings)` : `coverage file in the workspace (looked for ${COVERAGE_FILES.join(', ')})`}, so each share is the declarations (top-level functions, classes, methods of top-level types) that a test file references, by the language server's references`,
    sources: [],
    overall: ratio(covered, total),
    covered,
    total,
    files,
    untested_files: files.filter((f) => f.covered === 0).map((f) => f.file),
    files_without_data: [],
    scanned: scan.length,
    unchecked: eligible.length - scan.length,
    skipped,
  };
}

async function referencedFromTest(call: ServiceCall, src: LineSource, s: CatalogSymbol): Promise<boolean> {
  const refs = await outsideReferences(call, src, s);
  return refs.some((r) => !r.external && isTestPath(r.file, call.workspace.catalog.files().get(r.file)?.language ?? s.language));
}
