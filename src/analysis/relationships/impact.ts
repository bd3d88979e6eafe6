/**
 * analyze_impact (input → output as its operation definition says): which files a change to an element reaches,
 * from the servers' references, the transitive callers (call tree), and — for a file — its importers
 * and the files depending on them. One ripple effect per file, its strongest reason:
 * `direct call` > `reference` > `import` > `indirect dependency`; a test file is `test` whatever
 * reached it. The risk rule is in riskOf (and docs/operations-guide.md).
 */
import path from 'node:path';

import { ReferencesRequest } from 'vscode-languageserver-protocol';

import { isTestPath } from '../../adapters/test-files.js';
import { LspgateError } from '../../errors/errors.js';
import { OPERATIONS } from '../../schema/vocabularies.js';
import type { ServiceCall } from '../../service/call.js';
import { LineSource, resolveLocations } from '../../service/locations.js';
import { callTree } from '../../service/navigation/call-tree.js';
import { Mentions } from '../../service/navigation/mentions.js';
import type { Reach as CallerReach } from '../../service/navigation/new-files-only.js';
import { type ResolvedTarget, resolveTarget } from '../../service/navigation/resolve.js';
import type { SymbolInvariant } from '../../service/search/invariants-for.js';
import { mustKeep, type SymbolFlow } from '../../service/search/must-keep.js';
import { type ImportGraph, importGraph, importGraphWithin, noteGraphSkips } from '../imports/import-graph.js';
import { parseTarget } from '../target.js';
import { reachFrom } from './impact-reach.js';
import { catalogBuilt, flattenCalls, importsOf, WALK_BUDGET } from './relationships.js';

export { OPERATIONS };
export type ChangeOperation = (typeof OPERATIONS)[number];
export type ImpactKind = 'direct call' | 'reference' | 'import' | 'indirect dependency' | 'test';
export type Severity = 'minor' | 'major' | 'breaking';
export type RiskLevel = 'LOW' | 'MEDIUM' | 'HIGH' | 'CRITICAL';

export interface RippleEffect {
  file: string;
  impact: ImpactKind;
  severity: Severity;
  /** 1-based line of the first use that puts the file here. */
  line?: number;
  /** 1 for direct uses, n for files n call/import steps away. */
  depth: number;
}

export interface ImpactResult {
  element: string;
  risk_level: RiskLevel;
  risk_reason: string;
  effects: RippleEffect[];
  tests: string[];
  references: number;
  /** Affected files using the element itself (depth 1), and those reached only through callers or importers. */
  direct_files: number;
  transitive_files: number;
  /** The element's own invariants (invariants-for.ts): what the change must not break. */
  invariants?: SymbolInvariant[];
  /** Curated flows the element, or an affected file, is a step of (must-keep.ts). */
  flows?: SymbolFlow[];
}

const RANK: Record<Exclude<ImpactKind, 'test'>, number> = { 'direct call': 0, reference: 1, import: 2, 'indirect dependency': 3 };

/** Severity of one ripple effect for an operation (docs/operations-guide.md "Impact"). */
export function severityOf(op: ChangeOperation, impact: ImpactKind): Severity {
  if (impact === 'indirect dependency') return op === 'delete' ? 'major' : 'minor';
  if (op === 'delete') return 'breaking';
  if (op === 'refactor') return 'major';
  return impact === 'direct call' || impact === 'test' ? 'major' : 'minor';
}

/** What besides the number of files weighs on the risk: fan-in, spread and the tests that reach the element. */
export interface Reach {
  /** Packages (directories) other than the element's own holding an affected non-test file: its public exposure. */
  packages: number;
  /** Test files reached. */
  tests: number;
}

const LEVELS: RiskLevel[] = ['LOW', 'MEDIUM', 'HIGH', 'CRITICAL'];
const atLeast = (a: RiskLevel, b: RiskLevel): RiskLevel => (LEVELS.indexOf(a) >= LEVELS.indexOf(b) ? a : b);

/**
 * The risk rule. n = affected files, `direct` of them using the element itself (depth 1),
 * the others reached only through callers or importers. By files: delete → LOW when nothing uses
 * the element, else HIGH, CRITICAL from 10 files; refactor → LOW at 0, MEDIUM 1–3, HIGH 4–9,
 * CRITICAL from 10; modify → LOW 0–2, MEDIUM 3–9, HIGH from 10. Then fan-in and spread raise it
 * (never lower it): call sites (references) from 25 → at least MEDIUM, above 100 → HIGH, and
 * CRITICAL above 500 or above 100 with no test reaching the element; used from 3 other packages
 * (its public exposure) → at least MEDIUM (HIGH for delete and refactor), from 10 → HIGH (CRITICAL).
 * A helper behind 135 call sites in 3 files was MEDIUM by files alone. The reason says direct and
 * transitive files apart, and what raised the level.
 */
export function riskOf(op: ChangeOperation, n: number, references: number, direct = n, reach?: Reach): { level: RiskLevel; reason: string } {
  const base = byFiles(op, n, references, direct);
  if (!reach) return base;
  const raised: string[] = [];
  let level = base.level;
  const raise = (to: RiskLevel, why: string) => {
    if (LEVELS.indexOf(to) <= LEVELS.indexOf(level)) return;
    level = atLeast(level, to);
    raised.push(why);
  };
  if (references > 500) raise('CRITICAL', `${references} call sites and references (CRITICAL above 500)`);
  else if (references > 100 && reach.tests === 0)
    raise('CRITICAL', `${references} call sites and references and no test reaches it (CRITICAL above 100 untested)`);
  else if (references > 100) raise('HIGH', `${references} call sites and references (HIGH above 100)`);
  else if (references >= 25) raise('MEDIUM', `${references} call sites and references (MEDIUM from 25)`);
  const wide = op === 'modify' ? (['MEDIUM', 'HIGH'] as const) : (['HIGH', 'CRITICAL'] as const);
  if (reach.packages >= 10) raise(wide[1], `used from ${reach.packages} other packages (${wide[1]} from 10)`);
  else if (reach.packages >= 3) raise(wide[0], `used from ${reach.packages} other packages (${wide[0]} from 3)`);
  return raised.length ? { level, reason: `${base.reason}; raised to ${level}: ${raised.join('; ')}` } : base;
}

function byFiles(op: ChangeOperation, n: number, references: number, direct: number): { level: RiskLevel; reason: string } {
  const reach = reachText(n, direct);
  if (op === 'delete') {
    if (n === 0 && references === 0) return { level: 'LOW', reason: 'delete of an element nothing references' };
    if (n >= 10) return { level: 'CRITICAL', reason: `delete of an element with ${references} reference(s); ${reach} (CRITICAL from 10 files)` };
    return { level: 'HIGH', reason: `delete of an element with ${references} reference(s); ${reach} (HIGH below 10 files, CRITICAL from 10)` };
  }
  if (op === 'refactor') {
    const level: RiskLevel = n === 0 ? 'LOW' : n <= 3 ? 'MEDIUM' : n <= 9 ? 'HIGH' : 'CRITICAL';
    return { level, reason: `refactor of an element with ${references} reference(s): ${reach} (LOW 0, MEDIUM 1-3, HIGH 4-9, CRITICAL 10+)` };
  }
  const level: RiskLevel = n <= 2 ? 'LOW' : n <= 9 ? 'MEDIUM' : 'HIGH';
  return { level, reason: `modify of an element with ${references} reference(s): ${reach} (LOW 0-2, MEDIUM 3-9, HIGH 10+)` };
}

/** "3 file(s) use it directly and 8 more are reached through callers or importers: 11 affected file(s)". */
function reachText(n: number, direct: number): string {
  const transitive = n - direct;
  if (transitive === 0) return `${direct} file(s) use it directly: ${n} affected file(s)`;
  return `${direct} file(s) use it directly and ${transitive} more are reached only through callers or importers: ${n} affected file(s)`;
}

class Effects {
  private readonly byFile = new Map<string, { impact: Exclude<ImpactKind, 'test'>; line?: number; depth: number }>();
  add(file: string, impact: Exclude<ImpactKind, 'test'>, depth: number, line?: number): void {
    const old = this.byFile.get(file);
    // the strongest reason, then the fewest steps (what a walk that skips known files keeps), then the first line
    const before = (a: { depth: number; line?: number | undefined }) => a.depth < depth || (a.depth === depth && (a.line ?? Infinity) <= (line ?? Infinity));
    if (old && (RANK[old.impact] < RANK[impact] || (old.impact === impact && before(old)))) return;
    this.byFile.set(file, { impact, depth, ...(line !== undefined ? { line } : {}) });
  }
  list(op: ChangeOperation): RippleEffect[] {
    return [...this.byFile]
      .map(([file, e]) => {
        const impact: ImpactKind = isTestPath(file) ? 'test' : e.impact;
        return { file, impact, severity: severityOf(op, impact), depth: e.depth, ...(e.line !== undefined ? { line: e.line } : {}) };
      })
      .sort((a, b) => a.depth - b.depth || a.file.localeCompare(b.file));
  }
}

export async function analyzeImpact(call: ServiceCall, input: { element: string; operation: ChangeOperation; max_depth: number }): Promise<ImpactResult> {
  const parsed = parseTarget(call, input.element);
  const effects = new Effects();
  let references: number;
  let label: string;
  let home: string;
  let invariants: SymbolInvariant[] | undefined;
  let span: { file: string; line: number; end_line: number; symbol_id: string } | undefined;
  if (parsed.kind === 'file') {
    home = parsed.file;
    const graph = await importGraphWithin(call);
    label = parsed.file;
    noteGraphSkips(call, graph);
    for (const r of importsOf(graph, parsed.file, input.max_depth, true))
      effects.add(r.from, r.depth === 1 ? 'import' : 'indirect dependency', r.depth, r.line);
    references = graph.importers.get(parsed.file)?.length ?? 0;
  } else {
    await catalogBuilt(call);
    const target = await resolveTarget(call, parsed.input);
    label = target.label;
    home = target.file.relPath;
    // Asked at once; the references once the walk opened the files spelling the name (Mentions.firstOpened).
    const graphP = importGraphWithin(call);
    const mentions = new Mentions(call, target.file.session);
    const treeP = callerTree(call, target, input.max_depth, graphReach(call), mentions);
    for (const p of [graphP, treeP]) p.catch(() => undefined);
    const answer = await mentions.firstOpened(treeP).then(() => referencesOf(call, target));
    const graph = await graphP;
    noteGraphSkips(call, graph);
    references = referenceEffects(call, target, answer, effects, graph);
    callerEffects(await treeP, effects, graph);
    span = target.catalog;
  }
  const list = effects.list(input.operation);
  // the element's invariants and guidance, and the curated flows it and the affected files are steps of
  const kept = span
    ? await mustKeep(
        call,
        span,
        list.map((e) => e.file),
      )
    : undefined;
  if (kept) invariants = kept.invariants;
  const direct = list.filter((e) => e.depth === 1).length;
  const tests = list.filter((e) => e.impact === 'test').map((e) => e.file);
  const own = path.posix.dirname(home);
  const packages = new Set(list.filter((e) => e.impact !== 'test').map((e) => path.posix.dirname(e.file)));
  packages.delete(own);
  const risk = riskOf(input.operation, list.length, references, direct, { packages: packages.size, tests: tests.length });
  return {
    element: label,
    risk_level: risk.level,
    risk_reason: risk.reason,
    effects: list,
    tests,
    references,
    direct_files: direct,
    transitive_files: list.length - direct,
    ...(invariants ? { invariants } : {}),
    ...(kept?.flows ? { flows: kept.flows } : {}),
  };
}

/** Once the whole import graph is built, which files the callers walk's last level can reach (impact-reach.ts). */
function graphReach(call: ServiceCall): CallerReach {
  let reach: CallerReach | undefined;
  importGraph(call).then(
    (g) => (reach = reachFrom(call, g)),
    () => undefined,
  );
  return (home) => reach?.(home);
}

function referencesOf(call: ServiceCall, target: ResolvedTarget) {
  const { file } = target;
  return file.session.request(
    ReferencesRequest.type,
    { textDocument: { uri: file.uri }, position: target.position, context: { includeDeclaration: false } },
    { signal: call.signal },
  );
}

/** References other than the declaration: `import` when on an import statement of their file, else `reference`. */
function referenceEffects(
  call: ServiceCall,
  target: ResolvedTarget,
  answer: Awaited<ReturnType<typeof referencesOf>>,
  effects: Effects,
  graph: ImportGraph,
): number {
  const { file } = target;
  const decl = target.symbol?.symbol.selectionRange.start ?? target.position;
  let n = 0;
  for (const loc of resolveLocations(call, new LineSource(call), file.session, answer ?? [])) {
    // Some servers list the declaration even with includeDeclaration: false.
    if (loc.absPath === file.absPath && loc.range.start.line === decl.line && loc.range.start.character === decl.character) continue;
    if (loc.external) continue;
    n++;
    const onImport = onImportLine(graph, loc.file, loc.line);
    effects.add(loc.file, onImport ? 'import' : 'reference', 1, loc.line);
  }
  return n;
}

function onImportLine(graph: ImportGraph, file: string, line: number | undefined): boolean {
  return line !== undefined && !!graph.files.get(file)?.imports.some((i) => line >= i.start_line && line <= i.end_line);
}

/**
 * Callers: depth 1 `direct call`, deeper `indirect dependency`. Elements without call hierarchy
 * (types, fields) have none. The PHP fallback counts every reference to a class as a call, the
 * `use` statement's too (attributed to the file): a "call" on an import line is an import.
 */
async function callerTree(
  call: ServiceCall,
  target: ResolvedTarget,
  maxDepth: number,
  reach: CallerReach,
  mentions: Mentions,
): Promise<Awaited<ReturnType<typeof callTree>> | undefined> {
  const walk = { depth: maxDepth, max_results: WALK_BUDGET, files_only: true, reach, mentions };
  try {
    return await callTree(
      call,
      target.catalog ? { symbol_id: target.catalog.symbol_id, ...walk } : { file: target.file.relPath, line: target.position.line + 1, ...walk },
      'incoming',
    );
  } catch (e) {
    if (e instanceof LspgateError && e.code === 'SYMBOL_NOT_FOUND') return undefined;
    throw e;
  }
}

function callerEffects(tree: Awaited<ReturnType<typeof callTree>> | undefined, effects: Effects, graph: ImportGraph): void {
  if (!tree) return;
  for (const r of flattenCalls(tree.root, true)) {
    const kind = r.depth > 1 ? 'indirect dependency' : onImportLine(graph, r.file, r.line) ? 'import' : 'direct call';
    effects.add(r.file, kind, r.depth, r.line);
  }
}
