/**
 * analyze_complexity (its ComplexityMetrics output) of a symbol or a file. Cyclomatic complexity is
 * 1 + the decision points on the tree-sitter syntax tree (branches, loops, cases, catches,
 * conditional expressions, short-circuit operators) — no server knows it. lines_of_code counts
 * lines with code (blank and comment-only lines left out). dependencies: the file's import
 * statements plus, for a function, its distinct callees (call tree). test_coverage comes from a
 * coverage file (coverage.ts), or is absent with a note: never invented (the output types it as a number, so absence is the only honest value).
 */
import { languageProfiles, syntaxOf } from '../../adapters/languages.js';
import { LspgateError } from '../../errors/errors.js';
import type { ServiceCall } from '../../service/call.js';
import { callTree } from '../../service/navigation/call-tree.js';
import { resolveTarget } from '../../service/navigation/resolve.js';
import { inSyntaxWorker } from '../../syntax/job-pool.js';
import { importGraph, noteGraphSkips } from '../imports/import-graph.js';
import { parseTarget } from '../target.js';
import type { measureText } from './complexity-measure.js';
import { lineCoverage } from './coverage.js';

export interface ComplexityResult {
  element: string;
  file: string;
  start_line: number;
  end_line: number;
  lines_of_code: number;
  cyclomatic_complexity: number;
  dependencies: number;
  /** 0..1 from a coverage file; absent (with the reason in `note`) when no coverage file covers it. */
  test_coverage?: number;
  note: string;
}

/** The languages whose profile counts decision points, for the NOT_SUPPORTED message. */
function complexityLanguages(): string {
  return languageProfiles()
    .filter((p) => p.syntax.complexity)
    .map((p) => p.name)
    .join(', ');
}

export async function analyzeComplexity(call: ServiceCall, element: string): Promise<ComplexityResult> {
  const parsed = parseTarget(call, element);
  const t = parsed.kind === 'symbol' ? await resolveTarget(call, parsed.input) : undefined;
  const rel = t ? t.file.relPath : parsed.kind === 'file' ? parsed.file : '';
  const syntax = syntaxOf(rel);
  const complexity = syntax?.profile.syntax.complexity;
  if (!syntax || !complexity) throw new LspgateError('NOT_SUPPORTED', `no syntax tree for ${rel}: complexity covers ${complexityLanguages()}`, { file: rel });
  const file = t?.file ?? (await call.file(call.resolvePath(rel, { expect: 'file' })));
  const from = t?.catalog?.line ?? (t?.symbol ? t.symbol.symbol.range.start.line + 1 : 1);
  const to = t?.catalog?.end_line ?? (t?.symbol ? t.symbol.symbol.range.end.line + 1 : file.lines.length);
  // in a syntax worker, within the workspace's parse bounds: the file asked about answers TIMEOUT / LIMIT_EXCEEDED past them
  const m = await inSyntaxWorker<Awaited<ReturnType<typeof measureText>>>(
    { metaUrl: import.meta.url, module: 'complexity-measure', grammar: syntax.grammar, bounds: call.env.limits, signal: call.signal },
    'measureText',
    rel,
    file.text,
    from,
    to,
  );
  const graph = await importGraph(call);
  noteGraphSkips(call, graph, [rel]);
  let dependencies = graph.files.get(rel)?.imports.length ?? 0;
  if (t?.catalog && ['function', 'method', 'constructor'].includes(t.catalog.kind)) {
    const tree = await callTree(call, { symbol_id: t.catalog.symbol_id, depth: 1, max_results: 1000 }, 'outgoing');
    dependencies += tree.root.calls?.length ?? 0;
  }
  const cov = await lineCoverage(call, rel, from, to);
  return {
    element: t?.label ?? rel,
    file: rel,
    start_line: from,
    end_line: to,
    lines_of_code: m.loc,
    cyclomatic_complexity: m.cyclomatic,
    dependencies,
    ...(cov.ratio !== null ? { test_coverage: cov.ratio } : {}),
    note: `cyclomatic complexity from the ${syntax.grammar} syntax tree; dependencies = import statements of the file${t?.catalog ? ' + distinct callees' : ''}; ${cov.note}`,
  };
}
