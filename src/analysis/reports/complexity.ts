/**
 * analyze_complexity (seed 002 ComplexityMetrics) of a symbol or a file. Cyclomatic complexity is
 * 1 + the decision points on the tree-sitter syntax tree (branches, loops, cases, catches,
 * conditional expressions, short-circuit operators) — no server knows it. lines_of_code counts
 * lines with code (blank and comment-only lines left out). dependencies: the file's import
 * statements plus, for a function, its distinct callees (call tree). test_coverage comes from a
 * coverage file (coverage.ts), or is absent with a note: never invented (seed 002 types it as a number).
 */
import type { ServiceCall } from '../../service/call.js';
import { callTree } from '../../service/navigation/call-tree.js';
import { LspgateError } from '../../errors/errors.js';
import { lineCoverage } from './coverage.js';
import { importGraph, noteGraphSkips } from '../imports/import-graph.js';
import { grammarFor, withSyntaxTree, type Grammar, type SyntaxNode } from '../../syntax/syntax.js';
import { parseTarget } from '../target.js';
import { resolveTarget } from '../../service/navigation/resolve.js';

const DECISIONS: Record<'js' | 'go' | 'python' | 'php', string[]> = {
  js: ['if_statement', 'for_statement', 'for_in_statement', 'while_statement', 'do_statement', 'switch_case', 'catch_clause', 'ternary_expression'],
  go: ['if_statement', 'for_statement', 'expression_case', 'type_case', 'communication_case'],
  python: ['if_statement', 'elif_clause', 'for_statement', 'while_statement', 'except_clause', 'conditional_expression', 'case_clause', 'for_in_clause', 'if_clause'],
  php: ['if_statement', 'else_if_clause', 'for_statement', 'foreach_statement', 'while_statement', 'do_statement', 'case_statement', 'catch_clause', 'conditional_expression', 'match_conditional_expression'],
};
const SHORT_CIRCUIT = new Set(['&&', '||', '??', 'and', 'or']);

function family(g: Grammar): keyof typeof DECISIONS {
  return g === 'go' || g === 'python' || g === 'php' ? g : 'js';
}

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

/** Decision points and code lines within 1-based lines [from, to] of a parsed file. */
export function measure(root: SyntaxNode, g: Grammar, lines: string[], from: number, to: number): { cyclomatic: number; loc: number } {
  const inside = (n: SyntaxNode) => n.startPosition.row + 1 >= from && n.startPosition.row + 1 <= to;
  let decisions = root.descendantsOfType(DECISIONS[family(g)]).filter((n): n is SyntaxNode => !!n && inside(n)).length;
  for (const n of root.descendantsOfType(['binary_expression', 'boolean_operator'])) {
    if (!n || !inside(n)) continue;
    const op = n.childForFieldName('operator');
    if (op && SHORT_CIRCUIT.has(op.type)) decisions++;
  }
  const commentOnly = new Set<number>();
  for (const c of [...root.descendantsOfType('comment'), ...(g === 'python' ? docstrings(root) : [])]) {
    if (!c) continue;
    for (let r = c.startPosition.row; r <= c.endPosition.row; r++) {
      const text = lines[r] ?? '';
      const before = r === c.startPosition.row ? text.slice(0, c.startPosition.column) : '';
      const after = r === c.endPosition.row ? text.slice(c.endPosition.column) : '';
      if (!before.trim() && !after.trim()) commentOnly.add(r + 1);
    }
  }
  let loc = 0;
  for (let l = from; l <= to; l++) if ((lines[l - 1] ?? '').trim() && !commentOnly.has(l)) loc++;
  return { cyclomatic: 1 + decisions, loc };
}

/**
 * Python docstrings: a string that is the first statement of a module, class or function body is
 * documentation, not code (PEP 257), and counts like a comment.
 */
function docstrings(root: SyntaxNode): SyntaxNode[] {
  const out: SyntaxNode[] = [];
  const first = (body: SyntaxNode | null) => {
    const stmt = body?.namedChildren.find((c) => c?.type !== 'comment');
    const str = stmt?.type === 'expression_statement' && stmt.namedChildCount === 1 ? stmt.namedChildren[0] : undefined;
    if (str?.type === 'string' || str?.type === 'concatenated_string') out.push(str);
  };
  first(root);
  for (const d of root.descendantsOfType(['function_definition', 'class_definition'])) if (d) first(d.childForFieldName('body'));
  return out;
}

export async function analyzeComplexity(call: ServiceCall, element: string): Promise<ComplexityResult> {
  const parsed = parseTarget(call, element);
  const t = parsed.kind === 'symbol' ? await resolveTarget(call, parsed.input) : undefined;
  const rel = t ? t.file.relPath : parsed.kind === 'file' ? parsed.file : '';
  const g = grammarFor(rel);
  if (!g) throw new LspgateError('NOT_SUPPORTED', `no syntax tree for ${rel}: complexity covers TypeScript/JavaScript, Go, Python and PHP`, { file: rel });
  const file = t?.file ?? (await call.file(call.resolvePath(rel, { expect: 'file' })));
  const from = t?.catalog?.line ?? (t?.symbol ? t.symbol.symbol.range.start.line + 1 : 1);
  const to = t?.catalog?.end_line ?? (t?.symbol ? t.symbol.symbol.range.end.line + 1 : file.lines.length);
  const m = await withSyntaxTree(g, file.text, (root) => measure(root, g, file.lines, from, to));
  const graph = await importGraph(call);
  noteGraphSkips(call, graph, [rel]);
  let dependencies = graph.files.get(rel)?.imports.length ?? 0;
  if (t?.catalog && ['function', 'method', 'constructor'].includes(t.catalog.kind)) {
    const tree = await callTree(call, { symbol_id: t.catalog.symbol_id, depth: 1, max_results: 1000 }, 'outgoing');
    dependencies += tree.root.calls?.length ?? 0;
  }
  const cov = lineCoverage(call.root, rel, from, to);
  return {
    element: t?.label ?? rel,
    file: rel,
    start_line: from,
    end_line: to,
    lines_of_code: m.loc,
    cyclomatic_complexity: m.cyclomatic,
    dependencies,
    ...(cov.ratio !== null ? { test_coverage: cov.ratio } : {}),
    note: `cyclomatic complexity from the ${g} syntax tree; dependencies = import statements of the file${t?.catalog ? ' + distinct callees' : ''}; ${cov.note}`,
  };
}
