/**
 * get_context: what an agent needs to work on one symbol, in one call and within a token budget —
 * its source, the descriptors (signature + first sentence of its doc, from the catalog) of what it
 * calls and of what calls it (one hop, the same call trees find_callers / find_callees answer,
 * nearest first), the types its signature names (resolved by the server), the tests that reference
 * it and its other references (find_references, split by isTestPath; the callers' call sites are
 * not repeated among the references), and the invariants its comments and raises state
 * (invariants-for.ts). Filled by context-budget.ts.
 */
import path from 'node:path';

import { isTestPath } from '../../adapters/test-files.js';
import { LspgateError } from '../../errors/errors.js';
import { FUNCTION_KINDS } from '../../schema/convert/lsp-kind.js';
import { DEFAULT_CONTEXT_TOKENS } from '../../schema/vocabularies.js';
import type { ServiceCall } from '../call.js';
import { type CallNode, callTree } from '../navigation/call-tree.js';
import { findReferences } from '../navigation/references.js';
import { type ResolvedTarget, resolveTarget, type TargetInput } from '../navigation/resolve.js';
import { signatureTypes } from '../navigation/signature-types.js';
import { mustKeep } from '../search/must-keep.js';
import { catalogSymbolFor } from '../symbol-ids.js';
import { CONTEXT_PARTS, type ContextPart, type Fetch, fillBudget, type Filled, type Gathered, type ListPart } from './context-budget.js';

export interface ContextInput extends TargetInput {
  max_tokens?: number | undefined;
  include?: ContextPart[] | undefined;
}

export type Proximity = 'same_file' | 'same_dir' | 'elsewhere';

export interface ContextRef {
  name: string;
  kind: string;
  file: string;
  line: number;
  proximity: Proximity;
  symbol_id?: string;
  signature?: string;
  summary?: string;
  /** Lines of the calls (in the caller's file). */
  call_lines: number[];
}

export interface UseSite {
  file: string;
  line: number;
  container?: string;
}

export { DEFAULT_CONTEXT_TOKENS };
/** The references find_references is asked for (its own ceiling is maxResults × 5). */
const REFERENCE_LIMIT = 1000;

const CALLABLE = new Set<string>(FUNCTION_KINDS);

function proximityOf(from: string, file: string): Proximity {
  if (file === from) return 'same_file';
  return path.posix.dirname(file) === path.posix.dirname(from) ? 'same_dir' : 'elsewhere';
}

const RANK: Record<Proximity, number> = { same_file: 0, same_dir: 1, elsewhere: 2 };

async function refOf(call: ServiceCall, n: CallNode, from: string): Promise<ContextRef> {
  const ref: ContextRef = {
    name: n.name,
    kind: n.kind,
    file: n.file,
    line: n.line,
    proximity: proximityOf(from, n.file),
    call_lines: (n.call_sites ?? []).map((s) => s.line),
  };
  if (n.symbol_id) {
    ref.symbol_id = n.symbol_id;
    const c = await call.workspace.catalog.byId(n.symbol_id);
    if (c?.signature) ref.signature = c.signature;
    if (c?.summary && c.summary !== c.signature) ref.summary = c.summary;
  }
  if (!ref.signature && n.detail) ref.signature = n.detail;
  return ref;
}

/** One hop of find_callers / find_callees (the same service function and defaults), nearest first. */
async function oneHop(call: ServiceCall, target: TargetInput, direction: 'incoming' | 'outgoing', from: string): Promise<ContextRef[] | undefined> {
  let tree: Awaited<ReturnType<typeof callTree>>;
  try {
    tree = await callTree(call, { ...target, depth: 1 }, direction);
  } catch (e) {
    // tsserver prepares no call hierarchy item at some functions (a test's `describe(…)` callback):
    // the part is not there, which is not "no callers"; the rest of the context still is.
    if (!(e instanceof LspgateError) || (e.code !== 'SYMBOL_NOT_FOUND' && e.code !== 'NOT_SUPPORTED')) throw e;
    call.meta.warn(`${direction === 'incoming' ? 'callers' : 'callees'}: not available (${e.code}: ${e.message})`);
    return undefined;
  }
  const refs: ContextRef[] = [];
  for (const n of tree.root.calls ?? []) refs.push(await refOf(call, n, from));
  // Stable: within one proximity, the call tree's own order (file, then line).
  return refs
    .map((r, i) => [r, i] as const)
    .sort((a, b) => RANK[a[0].proximity] - RANK[b[0].proximity] || a[1] - b[1])
    .map(([r]) => r);
}

/**
 * References split into test files and the others; `callSites` (`file:line` of the callers' calls,
 * when callers are part of the answer) are left out of `references`: they are already there.
 */
async function useSites(
  call: ServiceCall,
  target: TargetInput,
  t: ResolvedTarget,
  language: string,
  callSites: Set<string>,
): Promise<{ tests: UseSite[]; references: UseSite[] }> {
  const refs = await findReferences(call, { ...target, include_declaration: false, max_results: REFERENCE_LIMIT });
  const decl = t.catalog ? { file: t.catalog.file, line: t.catalog.selection_line } : undefined;
  const tests: UseSite[] = [];
  const references: UseSite[] = [];
  for (const r of refs.references) {
    if (r.external || (decl && r.file === decl.file && r.line === decl.line)) continue;
    const site: UseSite = { file: r.file, line: r.line, ...(r.container ? { container: r.container } : {}) };
    if (isTestPath(r.file, language)) tests.push(site);
    else if (!callSites.has(`${r.file}:${r.line}`)) references.push(site);
  }
  return { tests, references };
}

function fetchCalls(by: TargetInput, id: string | undefined): Record<ContextPart, Fetch> {
  const target: Record<string, unknown> = id ? { symbol_id: id } : { ...by };
  return {
    source: id ? { operation: 'get_symbol', input: { symbol_id: id } } : { operation: 'open_at', input: { file: by.file, line: by.line } },
    callers: { operation: 'find_callers', input: target },
    callees: { operation: 'find_callees', input: target },
    types: { operation: 'get_context', input: { ...target, include: ['types'] } },
    tests: { operation: 'find_references', input: { ...target, include_declaration: false, max_results: REFERENCE_LIMIT } },
    references: { operation: 'find_references', input: { ...target, include_declaration: false, max_results: REFERENCE_LIMIT } },
  };
}

/** `metaTokens`: what the answer's `_meta` will cost, asked once everything is gathered. */
export async function contextBundle(call: ServiceCall, input: ContextInput, metaTokens: () => number): Promise<Filled> {
  const t = await resolveTarget(call, input);
  if (!t.symbol) throw new LspgateError('SYMBOL_NOT_FOUND', `no declaration at ${t.label} to build a context from`, { symbol: t.label });
  const sym = t.catalog ?? (await catalogSymbolFor(call, t.symbol));
  if (!sym) throw new LspgateError('SYMBOL_NOT_FOUND', `${t.label} is not in the catalog (file not cataloged?); run refresh`, { symbol: t.label });
  call.meta.addSourceFile(t.file.absPath);
  // Every sub-call names the symbol by its id, so it answers about this declaration whatever the
  // name policy of the operation would have preferred.
  const by: TargetInput = { symbol_id: sym.symbol_id };
  const want = new Set<ContextPart>(input.include ?? CONTEXT_PARTS);
  const g: Gathered = {
    head: {
      symbol: t.label,
      symbol_id: sym.symbol_id,
      kind: sym.kind,
      file: sym.file,
      line: sym.line,
      end_line: sym.end_line,
      signature: sym.signature,
      ...(sym.summary && sym.summary !== sym.signature ? { summary: sym.summary } : {}),
      // what must not break, in front of the agent before it edits (chunks/invariants.ts)
      // and the policy's guidance and the curated flows it is a step of (must-keep.ts)
      ...(await mustKeep(call, sym)),
    },
    lists: {},
    fetch: fetchCalls(by, sym.symbol_id),
  };
  if (want.has('source')) g.source = { start_line: sym.line, lines: t.file.lines.slice(sym.line - 1, sym.end_line) };
  const callable = CALLABLE.has(sym.kind);
  for (const [part, dir] of [
    ['callers', 'incoming'],
    ['callees', 'outgoing'],
  ] as const) {
    if (!want.has(part)) continue;
    if (callable) {
      const hop = await oneHop(call, by, dir, sym.file);
      if (hop) g.lists[part] = hop;
    } else call.meta.warn(`${part}: ${sym.qualified_name} is a ${sym.kind}, not a function or method: ask find_callers / find_references for its uses`);
  }
  if (want.has('types')) {
    const st = await signatureTypes(call, t.symbol, sym);
    g.lists.types = st.types;
    if (st.outside)
      call.meta.warn(`types: ${st.outside} type(s) of the signature are declared outside the workspace (standard library, dependencies), not listed`);
  }
  if (want.has('tests') || want.has('references')) {
    const callSites = new Set((g.lists.callers ?? []).flatMap((c) => (c as ContextRef).call_lines.map((l) => `${(c as ContextRef).file}:${l}`)));
    const sites = await useSites(call, by, t, sym.language, callSites);
    for (const part of ['tests', 'references'] as ListPart[]) if (want.has(part)) g.lists[part] = sites[part as 'tests' | 'references'];
  }
  // `{...body, "_meta": …}`: the two serializations plus the joining `,"_meta":` (9 bytes ≤ 3 tokens).
  const budget = (input.max_tokens ?? DEFAULT_CONTEXT_TOKENS) - metaTokens() - 3;
  const filled = fillBudget(g, budget);
  if (filled.truncated) call.meta.truncate();
  return filled;
}
