/**
 * "What must not break" for a symbol, in front of an agent before it edits (get_context, every edit
 * preview, analyze_impact): the invariants its comments and raises state (invariants-for.ts), the
 * curated invariants of the flow corpus that it enforces (their `enforced_at` resolves into its lines,
 * or a step at it keeps them), the policy's category and ModificationGuidance for its file, and the
 * flows it is a step (or the entry) of — with the names a flow holds that no longer resolve, so a
 * stale flow is said where it is shown.
 */
import { FLOW_CORPUS_KEY } from '../../chunks/flow-corpus.js';
import { currentGitHead } from '../../chunks/git-head.js';
import type { Chunk, ModificationGuidance } from '../../chunks/types.js';
import type { ServiceCall } from '../call.js';
import { chunksOf } from './chunk-sync.js';
import { currentPolicy, syncFlowCorpus } from './corpus-sync.js';
import { invariantsFor, type SymbolInvariant } from './invariants-for.js';

export interface SymbolFlow {
  flow_id: string;
  /** The step at the symbol; absent when the symbol is the flow's entry (its spine's root). */
  step_id?: string;
  trigger?: string;
  /** Curated invariant ids the step keeps. */
  invariants?: string[];
  /** analyze_impact: the affected file the step is in, when not the element's own. */
  reached_in?: string;
  /** Names the flow's record holds that the catalog no longer resolves: a stale citation. */
  unresolved?: string[];
}

export interface MustKeep {
  invariants: SymbolInvariant[];
  /** The policy's category for the file, with its ModificationGuidance. */
  guidance?: ModificationGuidance & { category: string };
  flows?: SymbolFlow[];
}

/** Flows listed per answer past this are left out. */
const MAX_FLOWS = 20;

interface Span {
  file: string;
  line: number;
  end_line: number;
  symbol_id?: string | undefined;
}

/** The flow corpus's chunks, verified against the catalog now (serialised with the index's syncs). */
async function corpusChunks(call: ServiceCall): Promise<readonly Chunk[]> {
  const s = chunksOf(call.workspace, call.env.limits);
  const run = s.pending.then(() => syncFlowCorpus(call.workspace, s, currentGitHead(call.root)));
  s.pending = run.catch(() => undefined);
  await run;
  return s.index.fileChunks(FLOW_CORPUS_KEY);
}

const within = (c: Chunk, sp: Span) => c.file === sp.file && c.start_line >= sp.line && c.end_line <= sp.end_line;
const at = (c: Chunk, sp: Span) => (sp.symbol_id !== undefined && c.symbol_id === sp.symbol_id) || within(c, sp);

const flowId = (c: Chunk) => c.flow_step?.flow_id ?? c.flow_spine?.flow_id;

/** What no longer resolves anywhere in a flow (its spine and every step), each said with where. */
function staleOf(corpus: readonly Chunk[], id: string): string[] {
  return corpus
    .filter((c) => flowId(c) === id && c.unresolved?.length)
    .flatMap((c) => c.unresolved!.map((u) => `${c.flow_step ? `step ${c.flow_step.step_id}` : 'entry'}: ${u}`));
}

function flowOf(c: Chunk, corpus: readonly Chunk[], spines: ReadonlyMap<string, Chunk>, reachedIn?: string): SymbolFlow {
  const id = flowId(c)!;
  const spine = spines.get(id);
  const unresolved = staleOf(corpus, id);
  const trigger = spine?.flow_spine?.trigger;
  return {
    flow_id: id,
    ...(c.flow_step ? { step_id: c.flow_step.step_id } : {}),
    ...(trigger ? { trigger } : {}),
    ...(c.flow_step?.invariants?.length ? { invariants: c.flow_step.invariants } : {}),
    ...(reachedIn ? { reached_in: reachedIn } : {}),
    ...(unresolved.length ? { unresolved } : {}),
  };
}

/**
 * What must not break at lines [line, end_line] of a file (a symbol's); `reached`: the other files a
 * change reaches (analyze_impact), whose flow steps are listed too.
 */
export async function mustKeep(call: ServiceCall, sp: Span, reached: readonly string[] = []): Promise<MustKeep> {
  const invariants = await invariantsFor(call, sp.file, sp.line, sp.end_line);
  const corpus = await corpusChunks(call);
  const spines = new Map(corpus.filter((c) => c.flow_spine).map((c) => [c.flow_spine!.flow_id, c] as const));
  const own = corpus.filter((c) => (c.flow_step || c.flow_spine) && at(c, sp));
  const elsewhere = new Set(reached.filter((f) => f !== sp.file));
  const flows = [
    ...own.map((c) => flowOf(c, corpus, spines)),
    ...corpus.filter((c) => c.flow_step && elsewhere.has(c.file) && !own.includes(c)).map((c) => flowOf(c, corpus, spines, c.file)),
  ].slice(0, MAX_FLOWS);
  if (flows.length === MAX_FLOWS) call.meta.warn(`flows: the first ${MAX_FLOWS} are listed`);
  const kept = new Set(own.flatMap((c) => c.flow_step?.invariants ?? []));
  const curated = corpus.filter((c) => c.provenance === 'curated' && (within(c, sp) || kept.has(c.marker ?? '')));
  for (const c of curated)
    invariants.push({
      tier: c.tier!,
      marker: c.marker ?? '',
      text: c.text,
      start_line: c.start_line,
      end_line: c.end_line,
      chunk_id: c.id,
      provenance: 'curated',
    });
  const { state } = await currentPolicy(call.workspace, chunksOf(call.workspace, call.env.limits).index);
  if (state.problem) call.meta.warn(`policy: ${state.problem}`);
  for (const p of state.policy?.problems.slice(0, 3) ?? []) call.meta.warn(`${state.file}: ${p}`);
  const cat = state.categorize?.(sp.file);
  return {
    invariants,
    ...(cat ? { guidance: { category: cat.category, ...cat.guidance } } : {}),
    ...(flows.length ? { flows } : {}),
  };
}
